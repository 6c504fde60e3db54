#!/usr/bin/env python3
"""Writes the telescope models of the FEKO spherical-wave cases: 3 aperture-array stations of 6
antennas with element patterns in OSKAR 2.13's FEKO convention, as text files
(feko_txt.tm/, element_pattern_spherical_wave_feko_[x|y]_[te|tm]_[re|im]_<type>_<MHz>.txt)
and as an HDF5 file (feko_h5.tm/, element_pattern_FEKO_coeffs.h5, datasets X<a>_<Hz> and
Y<a>_<Hz>: row 0 amplitudes, row 1 phases in degrees, (TE, TM) interleaved per mode).

The coefficients are short dipoles plus seeded random higher-order terms. In the FEKO
convention (docs/station_beams.md, "FEKO coefficients") the order-1 TM pair
    a_TM(1, +1) = -i c,  a_TM(1, -1) = +i c
gives the far field of a short dipole along East, E = c A (cos(theta) cos(phi), -sin(phi)),
and a_TM(1, +1) = a_TM(1, -1) = -c a short dipole along North,
E = c A (cos(theta) sin(phi), cos(phi)), with A = sqrt(3 Z0 / (4 pi)), Z0 = 376.730313668 ohm
and phi the azimuth from East towards North (the unit test
SphericalWaveFekoMath.ShortDipoleClosedForm checks these). Random TE and TM terms of
orders 2 and up (amplitude 0.1 c) make every term of the sum count. Deterministic.

usage: make_model.py OUT_FOLDER --text | --h5

Layout (both variants):
  root: type-0 coefficients at 100 and 120 MHz (X: East dipole, Y: North dipole), inherited
  station_0: plain station
  station_1: element_types.txt with types 0 and 1, feed angles of 20 deg; type-1
             coefficients (text: unlabelled files at 110 MHz, for both feeds; HDF5: antenna 2)
  station_2: overrides one root file with its own values
Text: orders l = 1..3 for every file. HDF5: the X datasets hold orders 1..4, the Y datasets
1..2 (OSKAR pads Y with zeros up to 4); both antennas at 100 and 120 MHz (OSKAR needs every
antenna at every frequency of the file).
"""
import cmath
import math
import os
import random
import sys

Z0 = 376.730313668


def index(l, m):
    return l * l + l - 1 + m


def coeffs(rng, l_max, east, scale=1.0):
    """te, tm: lists of complex per mode index; order 1 a short dipole (East or North)."""
    n = (l_max + 1) ** 2 - 1
    te = [0j] * n
    tm = [0j] * n
    if east:
        tm[index(1, 1)] = -1j * scale
        tm[index(1, -1)] = 1j * scale
    else:
        tm[index(1, 1)] = -scale
        tm[index(1, -1)] = -scale
    for l in range(2, l_max + 1):
        for m in range(-l, l + 1):
            te[index(l, m)] = 0.1 * scale * complex(rng.uniform(-1, 1), rng.uniform(-1, 1))
            tm[index(l, m)] = 0.1 * scale * complex(rng.uniform(-1, 1), rng.uniform(-1, 1))
    return te, tm


def write_text(path, values, part, l_max):
    with open(path, "w") as f:
        f.write("# FEKO-convention spherical-wave coefficients, one line per order l\n")
        for l in range(1, l_max + 1):
            row = [getattr(values[index(l, m)], part) for m in range(-l, l + 1)]
            f.write(" ".join("%.17g" % v for v in row) + "\n")


PREFIX = "element_pattern_spherical_wave_feko_"


def write_text_set(folder, pol, etype, mhz, te, tm, l_max):
    for mode, vals in (("te", te), ("tm", tm)):
        for part, attr in (("re", "real"), ("im", "imag")):
            name = PREFIX + "%s%s_%s_%d_%d.txt" % (pol + "_" if pol else "", mode, part,
                                                   etype, mhz)
            write_text(os.path.join(folder, name), vals, attr, l_max)


def dataset(te, tm):
    """2 x 2 n array: amplitudes, phases (deg), TE and TM interleaved per mode."""
    amp, pha = [], []
    for a, b in zip(te, tm):
        amp += [abs(a), abs(b)]
        pha += [math.degrees(cmath.phase(a)), math.degrees(cmath.phase(b))]
    return [amp, pha]


def write_h5(path, sets):
    """sets: {(pol, antenna, freq_hz): (te, tm)}"""
    import h5py
    import numpy as np
    with h5py.File(path, "w") as f:
        for (pol, ant, hz), (te, tm) in sorted(sets.items()):
            f.create_dataset("%s%d_%.0f" % (pol, ant, hz),
                             data=np.array(dataset(te, tm), dtype=np.float64))


def common(out):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "position.txt"), "w") as f:
        f.write("116.7644 -26.8247 377.0\n")
    with open(os.path.join(out, "layout.txt"), "w") as f:
        f.write("0 0 0\n120 35 0\n-60 150 0\n")
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


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("--text", "--h5"):
        sys.exit(__doc__)
    out = sys.argv[1]
    rng = random.Random(1919)
    common(out)
    if sys.argv[2] == "--text":
        for mhz in (100, 120):
            te, tm = coeffs(rng, 3, True, 1.0 + mhz / 1000.0)
            write_text_set(out, "x", 0, mhz, te, tm, 3)
            te, tm = coeffs(rng, 3, False, 1.0 + mhz / 1000.0)
            write_text_set(out, "y", 0, mhz, te, tm, 3)
        te, tm = coeffs(rng, 3, True, 0.8)
        write_text_set(os.path.join(out, "station_1"), "", 1, 110, te, tm, 3)
        te, _ = coeffs(rng, 3, True, 1.3)
        write_text(os.path.join(out, "station_2", PREFIX + "x_te_re_0_100.txt"), te, "real", 3)
    else:
        sets = {}
        for hz in (100e6, 120e6):
            sets[("X", 1, hz)] = coeffs(rng, 4, True, 1.0 + hz / 1e9)
            sets[("Y", 1, hz)] = coeffs(rng, 2, False, 1.0 + hz / 1e9)
        for hz in (100e6, 120e6):
            sets[("X", 2, hz)] = coeffs(rng, 4, True, 0.8)
            sets[("Y", 2, hz)] = coeffs(rng, 2, False, 0.8)
        write_h5(os.path.join(out, "element_pattern_FEKO_coeffs.h5"), sets)
        # station_2: a file of the same name replaces the root's (antenna 1 only).
        own = {("X", 1, 100e6): coeffs(rng, 3, True, 1.3),
               ("Y", 1, 100e6): coeffs(rng, 3, False, 1.3)}
        write_h5(os.path.join(out, "station_2", "element_pattern_FEKO_coeffs.h5"), own)


if __name__ == "__main__":
    main()
