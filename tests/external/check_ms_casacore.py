"""External test: python-casacore opens Measurement Sets written by fringe's MsWriter and
checks them against the rules of docs/conventions.md ("Measurement Set output", "Baselines and
their order", "Phase sign and the measurement equation") and against casacore's own measures
(UVW of the ANTENNA positions at each TIME, for the phase centre in FIELD).

usage: check_ms_casacore.py --writer PATH/fringe_write_test_ms --workdir DIR
"""
import argparse
import math
import sys

import numpy as np

import ms_test_util as util

util.require_casacore()
import casacore.measures as cm  # noqa: E402
import casacore.quanta as cq  # noqa: E402
import casacore.tables as ct  # noqa: E402

C = 299792458.0
FAILURES = []


def check(cond, message):
    if not cond:
        FAILURES.append(message)
        print("FAIL:", message)


def antenna_uvw_casacore(positions, centre, time_s, ra, dec):
    """uvw (J2000, m) of each antenna's offset from the centre, from casacore measures."""
    dm = cm.measures()
    dm.do_frame(dm.epoch("UTC", cq.quantity(time_s, "s")))
    dm.do_frame(dm.position("ITRF", *[cq.quantity(x, "m") for x in centre]))
    dm.do_frame(dm.direction("J2000", cq.quantity(ra, "rad"), cq.quantity(dec, "rad")))
    out = []
    for p in positions:
        b = dm.baseline("ITRF", *[cq.quantity(p[k] - centre[k], "m") for k in range(3)])
        out.append(np.array(dm.to_uvw(b)["xyz"].get_value("m")))
    return out


def check_case(ms, case, stations, centre, p):
    name = case["name"]
    print("--- case", name, ms)
    ns = len(stations)
    nt, nc = int(p["nt"]), int(p["nc"])
    autos, casa = case.get("autos", 0) == 1, case.get("casa", 1) == 1
    full = case.get("pol", "full") == "full"
    forced = case.get("force", 0) == 1
    npol = 4 if (full or forced) else 1
    t = ct.table(ms, ack=False)
    required = {"ANTENNA", "DATA_DESCRIPTION", "FEED", "FIELD", "FLAG_CMD", "HISTORY",
                "OBSERVATION", "POINTING", "POLARIZATION", "PROCESSOR", "SPECTRAL_WINDOW",
                "STATE"}
    subtables = {k for k, v in t.getkeywords().items() if isinstance(v, str) and v.startswith("Table:")}
    check(required <= subtables, "%s: missing subtables %s" % (name, required - subtables))
    rows_per_time = ns * (ns - 1) // 2 + (ns if autos else 0)
    check(t.nrows() == nt * rows_per_time, "%s: %d rows, expected %d" % (name, t.nrows(), nt * rows_per_time))

    data = t.getcol("DATA")
    check(data.dtype == np.complex64, "%s: DATA dtype %s, expected complex64" % (name, data.dtype))
    check(data.shape == (t.nrows(), nc, npol), "%s: DATA shape %s" % (name, data.shape))
    check(t.getcol("FLAG").shape == data.shape and not t.getcol("FLAG").any(), "%s: FLAG" % name)
    check(np.all(t.getcol("WEIGHT") == 1.0) and t.getcol("WEIGHT").shape == (t.nrows(), npol),
          "%s: WEIGHT" % name)
    check(t.getcolkeyword("DATA", "UNIT") == "Jy", "%s: DATA UNIT" % name)

    pol = ct.table(t.getkeyword("POLARIZATION"), ack=False)
    corr = list(pol.getcell("CORR_TYPE", 0))
    check(corr == ([9, 10, 11, 12] if npol == 4 else [9]), "%s: CORR_TYPE %s" % (name, corr))

    # TIME at dump centres, INTERVAL, EXPOSURE.
    start = float(p["start_mjd"]) * 86400.0
    dt = float(p["dt"])
    time = t.getcol("TIME")
    expected_times = start + (np.arange(nt) + 0.5) * dt
    check(np.allclose(np.unique(time), expected_times, rtol=0, atol=1e-4),
          "%s: TIME %s, expected dump centres %s" % (name, np.unique(time) - start, expected_times - start))
    check(np.array_equal(time, t.getcol("TIME_CENTROID")), "%s: TIME_CENTROID != TIME" % name)
    check(np.all(t.getcol("INTERVAL") == dt), "%s: INTERVAL" % name)
    check(np.all(t.getcol("EXPOSURE") == float(p.get("average", 0))), "%s: EXPOSURE" % name)

    # Row order: time-major; per a1 the auto then crosses in baseline order.
    a1, a2 = t.getcol("ANTENNA1"), t.getcol("ANTENNA2")
    order = []
    for i in range(ns):
        if autos:
            order.append((i, i))
        order += [(i, j) if casa else (j, i) for j in range(i + 1, ns)]
    got = list(zip(a1[:rows_per_time], a2[:rows_per_time]))
    check(got == order, "%s: row order %s..., expected %s..." % (name, got[:5], order[:5]))
    check(all(t.getcol("TIME")[k] == expected_times[k // rows_per_time] or
              abs(t.getcol("TIME")[k] - expected_times[k // rows_per_time]) < 1e-4
              for k in range(t.nrows())), "%s: rows not time-major" % name)

    # ANTENNA, SPECTRAL_WINDOW, FIELD.
    ant = ct.table(t.getkeyword("ANTENNA"), ack=False)
    pos = ant.getcol("POSITION")
    check(np.allclose(pos, np.array(stations), rtol=0, atol=1e-5), "%s: ANTENNA POSITION" % name)
    spw = ct.table(t.getkeyword("SPECTRAL_WINDOW"), ack=False)
    f0, df = float(p["f0"]), float(p["df"])
    freqs = spw.getcell("CHAN_FREQ", 0)
    check(np.allclose(freqs, f0 + df * np.arange(nc), rtol=1e-15), "%s: CHAN_FREQ %s" % (name, freqs))
    check(np.all(spw.getcell("CHAN_WIDTH", 0) == df), "%s: CHAN_WIDTH" % name)
    check(spw.getcell("MEAS_FREQ_REF", 0) == 5, "%s: MEAS_FREQ_REF" % name)
    field = ct.table(t.getkeyword("FIELD"), ack=False)
    ra, dec = math.radians(float(p["ra_deg"])), math.radians(float(p["dec_deg"]))
    check(np.allclose(field.getcell("PHASE_DIR", 0)[0], [ra, dec], rtol=0, atol=1e-12),
          "%s: PHASE_DIR" % name)

    # UVW = uvw(ANTENNA1) - uvw(ANTENNA2), against casacore measures (J2000). The writer uses
    # OSKAR's GMST without the equation of the equinoxes and treats RA/Dec as of date; at
    # the J2000 epoch the two agree to ~1e-4 of the baseline, a sign or axis error gives ~2.
    uvw = t.getcol("UVW")
    worst = 0.0
    for it in range(nt):
        ref = antenna_uvw_casacore(pos, centre, expected_times[it], ra, dec)
        for k in range(it * rows_per_time, (it + 1) * rows_per_time):
            expect = ref[a1[k]] - ref[a2[k]]
            length = max(np.linalg.norm(expect), 1.0)
            worst = max(worst, np.linalg.norm(uvw[k] - expect) / length)
            if a1[k] == a2[k]:
                check(np.all(uvw[k] == 0.0), "%s: auto row %d has UVW %s" % (name, k, uvw[k]))
    print("   UVW vs casacore measures: worst relative difference %.2e" % worst)
    check(worst < 2e-3, "%s: UVW differs from casacore's uvw(ANTENNA1) - uvw(ANTENNA2) by %.3g"
          % (name, worst))

    # Phase convention w.r.t. the written UVW: V = exp(+2 pi i (U l + V m + W (n - 1)) / lambda).
    l, m, flux = float(p["l"]), float(p["m"]), float(p.get("flux_jy", 1))
    n1 = math.sqrt(1.0 - l * l - m * m) - 1.0
    lam = C / freqs
    phase = 2.0 * np.pi * (np.outer(uvw[:, 0], 1 / lam) * l + np.outer(uvw[:, 1], 1 / lam) * m +
                           np.outer(uvw[:, 2], 1 / lam) * n1)
    model = flux * np.exp(1j * phase)
    model[a1 == a2, :] = flux
    err_xx = np.max(np.abs(data[:, :, 0] - model))
    check(err_xx < 1e-4 * flux, "%s: XX differs from exp(+2 pi i ...) by %.3g" % (name, err_xx))
    if npol == 4:
        check(np.max(np.abs(data[:, :, 3] - model)) < 1e-4 * flux, "%s: YY" % name)
        check(np.max(np.abs(data[:, :, 1:3])) == 0.0, "%s: XY/YX not zero" % name)
    print("   DATA vs exp(+2 pi i (ul + vm + w(n-1))): max error %.2e" % err_xx)

    obs = ct.table(t.getkeyword("OBSERVATION"), ack=False)
    check(obs.getcell("TELESCOPE_NAME", 0) == "fringe external test", "%s: TELESCOPE_NAME" % name)
    tr = obs.getcell("TIME_RANGE", 0)
    check(abs(tr[0] - start) < 1e-4 and abs(tr[1] - (start + nt * dt)) < 1e-4, "%s: TIME_RANGE" % name)
    feed = ct.table(t.getkeyword("FEED"), ack=False)
    check(feed.nrows() == ns and list(feed.getcell("POLARIZATION_TYPE", 0)) == ["X", "Y"],
          "%s: FEED" % name)
    hist = ct.table(t.getkeyword("HISTORY"), ack=False)
    check("OSKAR_SETTINGS" in hist.getcol("ORIGIN"), "%s: no settings in HISTORY" % name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--writer", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()

    centre, stations = util.make_layout(6, 2000.0, seed=3)
    base = dict(ra_deg=200.0, dec_deg=30.0, l=0.01, m=-0.02, flux_jy=2.0, start_mjd=51544.5,
                dt=300.0, average=10.0, nt=3, f0=1.4e9, df=2e6, nc=3)
    cases = [
        dict(name="full_casa_autos", pol="full", autos=1, casa=1),
        dict(name="full_noncasa", pol="full", autos=0, casa=0),
        dict(name="full_noncasa_autos_float", pol="full", autos=1, casa=0, precision="float"),
        dict(name="scalar", pol="scalar", autos=1, casa=1, precision="float"),
        dict(name="scalar_forced_polarised", pol="scalar", autos=0, casa=1, force=1),
        dict(name="blocks_of_one_time", pol="full", autos=1, casa=1, block_times=1),
    ]
    for case in cases:
        params = dict(base)
        params.update({k: v for k, v in case.items() if k != "name"})
        ms = util.write_ms(args.writer, args.workdir, case["name"], stations, centre, **params)
        check_case(ms, case, stations, centre, params)
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
