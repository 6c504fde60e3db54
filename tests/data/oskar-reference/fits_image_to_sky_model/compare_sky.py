#!/usr/bin/python3
"""Compares two OSKAR-format sky model files source by source (same order).

    compare_sky.py OURS.osm OSKAR.osm [--position-tolerance DEG]

Columns (OSKAR's fixed format; a missing trailing column is 0): RA, Dec (deg), I, Q, U, V (Jy),
reference frequency (Hz), spectral index, RM, FWHM major, minor (arcsec), PA (deg).
Positions must agree to 1e-9 deg (or DEG), I to 1e-6 relative; every other column exactly up to the
precision OSKAR prints (15 significant digits). Prints the largest differences and
"sky models agree" (exit 0) or "DIFFERENT: ..." lines (exit 1). Standard library only.
"""
import re
import sys

NAMES = ["RA", "Dec", "I", "Q", "U", "V", "ref freq", "spectral index", "RM", "FWHM major",
         "FWHM minor", "PA"]


def read(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            values = [float(v) for v in re.split(r"[,\s]+", line) if v]
            rows.append(values + [0.0] * (len(NAMES) - len(values)))
    return rows


def main():
    args = sys.argv[1:]
    pos_tol = 1e-9
    if "--position-tolerance" in args:
        k = args.index("--position-tolerance")
        pos_tol = float(args[k + 1])
        del args[k:k + 2]
    ours, ref = read(args[0]), read(args[1])
    problems = []
    if len(ours) != len(ref):
        problems.append("%d sources vs %d" % (len(ours), len(ref)))
    d_pos = d_flux = d_other = 0.0
    for i, (a, b) in enumerate(zip(ours, ref)):
        pos = max(abs(a[0] - b[0]), abs(a[1] - b[1]))
        flux = abs(a[2] - b[2]) / max(abs(b[2]), 1e-300)
        other = max(abs(x - y) / max(abs(y), 1e-300) if y else abs(x)
                    for x, y in zip(a[3:], b[3:]))
        d_pos, d_flux, d_other = max(d_pos, pos), max(d_flux, flux), max(d_other, other)
        if pos > pos_tol or flux > 1e-6 or other > 1e-13:
            problems.append("source %d: %s vs %s" % (i, a, b))
    print("%d sources; largest differences: position %.3g deg, I %.3g relative, "
          "other columns %.3g" % (len(ours), d_pos, d_flux, d_other))
    for p in problems[:10]:
        print("DIFFERENT: " + p)
    print("sky models differ" if problems else "sky models agree")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
