#!/usr/bin/env python3
"""Writes the telescope model of the spherical_wave_aa case (sw.tm/): 3 aperture-array
stations of 6 antennas, with OSKAR 2.13 spherical-wave coefficient files
(element_pattern_spherical_wave_[x|y]_[te|tm]_[re|im]_<type>_<MHz>.txt).

The element coefficients are an l = 1 TM pair, a(1, -1) = e^{i phi0}, a(1, +1) = -e^{-i phi0},
whose spherical-wave sum has the closed form (OSKAR's convention, docs/station_beams.md)
  E_theta = 2 i N cos(phi - phi0),  E_phi = 2 i N cos(theta) sin(phi - phi0),
  N = sqrt(3 / (16 pi)),
(a short dipole's pattern with the theta and phi components exchanged; the unit test
SphericalWaveMath.L1TmPairClosedForm checks this), plus seeded random l = 2, 3 terms (TE
and TM, complex) so that every term of the sum is exercised. Deterministic; the only
argument is the output folder.

With a second argument --galileo the files are named element_pattern_spherical_wave_galileo_*
(OSKAR's Galileo convention, the same numbers).

Layout of the model:
  root: x/y-labelled files for element type 0 at 100 and 120 MHz (every station inherits)
  station_0: plain station (inherits the root's files)
  station_1: element_types.txt with types 0 and 1, feed angles; unlabelled files (both
             feeds) for type 1 at 110 MHz: the mixed-type (general) path
  station_2: overrides the root's x_te_re file at 100 MHz with its own values
"""
import math
import os
import random
import sys

L_MAX = 3


def index(l, m):
    return l * l + l - 1 + m


def coeffs(rng, rotate_deg):
    """te, tm: lists of complex per mode index: the l = 1 TM pair at phi0 = rotate_deg."""
    n = (L_MAX + 1) ** 2 - 1
    te = [0j] * n
    tm = [0j] * n
    # a(1, -1) = e^{i phi0}, a(1, +1) = -e^{-i phi0} (closed form in the docstring).
    p = math.radians(rotate_deg)
    tm[index(1, -1)] = complex(math.cos(p), math.sin(p))
    tm[index(1, 1)] = -complex(math.cos(p), -math.sin(p))
    for l in (2, 3):
        for m in range(-l, l + 1):
            te[index(l, m)] = 0.1 * complex(rng.uniform(-1, 1), rng.uniform(-1, 1))
            tm[index(l, m)] = 0.1 * complex(rng.uniform(-1, 1), rng.uniform(-1, 1))
    return te, tm


def write(path, values, part):
    with open(path, "w") as f:
        f.write("# spherical-wave coefficients, one line per order l (m = -l..l), padded\n")
        for l in range(1, L_MAX + 1):
            row = [getattr(values[index(l, m)], part) for m in range(-l, l + 1)]
            row += [0.0] * (2 * (L_MAX - l))
            f.write(" ".join("%.17g" % v for v in row) + "\n")


PREFIX = "element_pattern_spherical_wave_"


def write_set(folder, pol, etype, mhz, te, tm):
    for mode, vals in (("te", te), ("tm", tm)):
        for part, attr in (("re", "real"), ("im", "imag")):
            name = PREFIX + "%s%s_%s_%d_%d.txt" % (
                pol + "_" if pol else "", mode, part, etype, mhz)
            write(os.path.join(folder, name), vals, attr)


def main():
    global PREFIX
    out = sys.argv[1] if len(sys.argv) > 1 else "sw.tm"
    if "--galileo" in sys.argv[2:]:  # the same coefficients in Galileo-convention files
        PREFIX = "element_pattern_spherical_wave_galileo_"
    rng = random.Random(19)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "position.txt"), "w") as f:
        f.write("116.7644 -26.8247 377.0\n")
    with open(os.path.join(out, "layout.txt"), "w") as f:
        f.write("0 0 0\n120 35 0\n-60 150 0\n")
    for mhz in (100, 120):
        te, tm = coeffs(rng, 0.0)
        write_set(out, "x", 0, mhz, te, tm)
        te, tm = coeffs(rng, 90.0)
        write_set(out, "y", 0, mhz, te, tm)
    elements = "0 0\n4 1\n-3 5\n7 -6\n-8 -2\n2 9\n"
    for s in range(3):
        d = os.path.join(out, "station_%d" % s)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "layout.txt"), "w") as f:
            f.write(elements)
    d1 = os.path.join(out, "station_1")
    with open(os.path.join(d1, "element_types.txt"), "w") as f:
        f.write("0\n1\n0\n1\n0\n1\n")
    with open(os.path.join(d1, "feed_angle.txt"), "w") as f:
        f.write("20\n20\n20\n20\n20\n20\n")
    te, tm = coeffs(rng, 30.0)
    write_set(d1, "", 1, 110, te, tm)
    te, _ = coeffs(rng, 0.0)
    write(os.path.join(out, "station_2", PREFIX + "x_te_re_0_100.txt"), te, "real")


if __name__ == "__main__":
    main()
