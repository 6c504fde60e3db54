#!/usr/bin/env python3
"""Writes the FEKO spherical-wave HDF5 fixtures of tests/unit/telescope/test_spherical_wave_feko.cpp
(OSKAR 2.13's *FEKO*.h5 layout, docs/station_beams.md "FEKO coefficients"): datasets
X<antenna>_<Hz> and Y<antenna>_<Hz>, 2 rows (amplitudes; phases in degrees) of
2 ((L + 1)^2 - 1) numbers, TE and TM interleaved per mode index j = l*l + l - 1 + m.

Values: amplitude of (TE, TM) at mode j is (j + 1 + 10 a, j + 2 + 10 a) for antenna a, phase
(10 j, 10 j + 5) degrees plus 1 at the second frequency, so the test can recompute each one.

usage: /usr/bin/python3 make_feko_files.py  (writes into this folder)
"""
import os

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def data(l_max, antenna, second_freq, rows=2):
    n = (l_max + 1) ** 2 - 1
    amp, pha = [], []
    for j in range(n):
        amp += [j + 1 + 10 * antenna, j + 2 + 10 * antenna]
        pha += [10 * j + second_freq, 10 * j + 5 + second_freq]
    out = [amp, pha] + [amp] * (rows - 2)
    return np.array(out, dtype=np.float64)


def write(name, datasets):
    with h5py.File(os.path.join(HERE, name), "w") as f:
        for key, value in datasets.items():
            f.create_dataset(key, data=value)


def valid():
    """2 antennas at 50 and 70 MHz; X order 2, Y order 1 (padded); one unrelated dataset."""
    d = {"info": np.array([1.0, 2.0])}
    for a in (1, 2):
        for k, hz in enumerate(("50000000", "70000000")):
            d["X%d_%s" % (a, hz)] = data(2, a, k)
            d["Y%d_%s" % (a, hz)] = data(1, a, k)
    return d


def main():
    write("feko_valid.h5", valid())
    d = valid()
    del d["Y2_70000000"]
    write("feko_missing_dataset.h5", d)
    d = valid()
    d["X1_50000000"] = np.arange(16.0)
    write("feko_1d.h5", d)
    d = valid()
    d["X1_50000000"] = data(2, 1, 0, rows=3)
    write("feko_three_rows.h5", d)
    d = valid()
    d["X1_50000000"] = data(2, 1, 0)[:, :14]
    write("feko_bad_length.h5", d)
    d = valid()
    v = data(2, 1, 0)
    v[1, 3] = np.nan
    d["X1_50000000"] = v
    write("feko_nan.h5", d)
    write("feko_no_datasets.h5", {"info": np.array([1.0])})
    d = valid()
    d["X0_50000000"] = data(1, 0, 0)
    write("feko_antenna_zero.h5", d)


if __name__ == "__main__":
    main()
