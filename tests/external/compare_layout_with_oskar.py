"""External test: the table layout fringe writes matches OSKAR 2.13's Measurement Set
(shared/oskar-reference/vla_gauss_beam_smear): the same main-table columns, the same set of
subtables with the same columns, the same storage-manager type per main column, the same
DATA cell convention (shape [nchan, npol] as python sees it, complex64) and the same
units/measure keywords on every column the two have in common.

usage: compare_layout_with_oskar.py --writer EXE --workdir DIR --reference OSKAR.ms
"""
import argparse
import os
import sys

import ms_test_util as util

util.require_casacore()
import casacore.tables as ct  # noqa: E402

FAILURES = []


def check(cond, message):
    if not cond:
        FAILURES.append(message)
        print("FAIL:", message)


def subtables(t):
    return {k: v[len("Table: "):] for k, v in t.getkeywords().items()
            if isinstance(v, str) and v.startswith("Table:")}


def dm_types(t):
    out = {}
    for info in t.getdminfo().values():
        for col in info["COLUMNS"]:
            out[col] = info["TYPE"]
    return out


def plain(value):
    """Keyword values with numpy arrays turned into lists, so that == compares contents."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def compare_columns(label, ours, ref):
    oc, rc = set(ours.colnames()), set(ref.colnames())
    check(oc == rc, "%s: columns differ: only fringe %s, only OSKAR %s"
          % (label, sorted(oc - rc), sorted(rc - oc)))
    for col in sorted(oc & rc):
        od, rd = ours.getcoldesc(col), ref.getcoldesc(col)
        check(od["valueType"] == rd["valueType"], "%s.%s: type %s vs OSKAR %s"
              % (label, col, od["valueType"], rd["valueType"]))
        ok, rk = plain(ours.getcolkeywords(col)), plain(ref.getcolkeywords(col))
        for key in ("QuantumUnits", "MEASINFO", "UNIT"):
            check(ok.get(key) == rk.get(key), "%s.%s: keyword %s %s vs OSKAR %s"
                  % (label, col, key, ok.get(key), rk.get(key)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--writer", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--reference", required=True)
    args = ap.parse_args()
    if not os.path.isdir(args.reference):
        print("SKIP: OSKAR reference MS not found at", args.reference)
        return util.SKIP

    ref = ct.table(args.reference, ack=False)
    ref_spw = ct.table(subtables(ref)["SPECTRAL_WINDOW"], ack=False)
    ref_pol = ct.table(subtables(ref)["POLARIZATION"], ack=False)
    nc = int(ref_spw.getcell("NUM_CHAN", 0))
    npol = int(ref_pol.getcell("NUM_CORR", 0))

    centre, stations = util.make_layout(5, 1000.0, seed=5)
    ms = util.write_ms(args.writer, args.workdir, "layout", stations, centre, nc=nc, nt=2,
                       pol="full" if npol == 4 else "scalar")
    ours = ct.table(ms, ack=False)

    compare_columns("MAIN", ours, ref)
    od, rd = dm_types(ours), dm_types(ref)
    for col in sorted(set(od) & set(rd)):
        check(od[col] == rd[col], "MAIN.%s: storage manager %s vs OSKAR %s" % (col, od[col], rd[col]))
    check(ours.getkeyword("MS_VERSION") == ref.getkeyword("MS_VERSION"), "MS_VERSION differs")

    os_, rs = subtables(ours), subtables(ref)
    check(set(os_) == set(rs), "subtables differ: only fringe %s, only OSKAR %s"
          % (sorted(set(os_) - set(rs)), sorted(set(rs) - set(os_))))
    for name in sorted(set(os_) & set(rs)):
        compare_columns(name, ct.table(os_[name], ack=False), ct.table(rs[name], ack=False))

    # DATA cell convention: python sees [nchan, npol] for both, complex64.
    od_cell, rd_cell = ours.getcell("DATA", 0), ref.getcell("DATA", 0)
    check(od_cell.shape == rd_cell.shape == (nc, npol),
          "DATA cell shape %s vs OSKAR %s" % (od_cell.shape, rd_cell.shape))
    check(od_cell.dtype == rd_cell.dtype, "DATA dtype %s vs OSKAR %s" % (od_cell.dtype, rd_cell.dtype))
    for col in ("UVW", "FLAG", "WEIGHT", "SIGMA"):
        check(ours.getcell(col, 0).shape == ref.getcell(col, 0).shape,
              "%s cell shape %s vs OSKAR %s" % (col, ours.getcell(col, 0).shape, ref.getcell(col, 0).shape))
    # ANTENNA names follow OSKAR's pattern "s0000 (<name>)", STATION "s0000".
    ant, rant = ct.table(os_["ANTENNA"], ack=False), ct.table(rs["ANTENNA"], ack=False)
    check(ant.getcell("STATION", 0) == rant.getcell("STATION", 0) == "s0000", "ANTENNA STATION")
    check(ant.getcell("NAME", 0).startswith("s0000 (") and rant.getcell("NAME", 0).startswith("s0000 ("),
          "ANTENNA NAME pattern")
    if FAILURES:
        print("%d difference(s) from OSKAR's layout" % len(FAILURES))
        return 1
    print("layout matches OSKAR's reference MS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
