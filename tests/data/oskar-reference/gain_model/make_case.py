#!/usr/bin/env python3
"""Writes the inputs of the gain_model reference case (README.md here). Debian's python3 with
h5py and numpy: /usr/bin/python3 make_case.py (run in this folder).

telescope.tm: 4 stations (ENU layout, no station folders: isotropic stations) and
gain_model.h5 with gains given by a formula (below), 3 table times for 4 simulated times (the
4th uses the table's last time) and 3 table channels (110, 100.4, 120 MHz: the simulated
channels 100 and 101 MHz both take the 100.4 MHz entry, the closest), 5 table stations (the 5th
unused), and different X and Y gains. telescope_no_gains.tm: the same model without the gains
(the test that fringe's output then differs from OSKAR's).
"""
import os
import shutil

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def gain(t, c, p, pol):
    """Gain of table time t, channel c, station p, polarisation pol (0 X, 1 Y)."""
    amp = 1.0 + 0.1 * p - 0.05 * t + 0.02 * c + 0.15 * pol
    phase = 0.3 * p - 0.2 * t + 0.1 * c - 0.4 * pol  # radians
    return amp * np.exp(1j * phase)


def write_model(folder, with_gains):
    path = os.path.join(HERE, folder)
    if os.path.isdir(path):
        shutil.rmtree(path)
    os.makedirs(path)
    with open(os.path.join(path, "position.txt"), "w") as f:
        f.write("116.7644482 -26.82472208 377.8\n")
    with open(os.path.join(path, "layout.txt"), "w") as f:
        # East, North, Up (m).
        f.write("0 0 0\n310.5 -120.25 1.5\n-150.75 420 -0.5\n700 650.5 2\n")
    if with_gains:
        nt, nc, ns = 3, 3, 5
        gx = np.array([[[gain(t, c, p, 0) for p in range(ns)] for c in range(nc)]
                       for t in range(nt)], dtype=np.complex128)
        gy = np.array([[[gain(t, c, p, 1) for p in range(ns)] for c in range(nc)]
                       for t in range(nt)], dtype=np.complex128)
        with h5py.File(os.path.join(path, "gain_model.h5"), "w") as f:
            f.create_dataset("freq (Hz)", data=np.array([110e6, 100.4e6, 120e6]))
            f.create_dataset("gain_xpol", data=gx)
            f.create_dataset("gain_ypol", data=gy)


def main():
    write_model("telescope.tm", True)
    write_model("telescope_no_gains.tm", False)
    with open(os.path.join(HERE, "sky.osm"), "w") as f:
        # RA, Dec (deg), I, Q, U, V (Jy): polarised, so X and Y gains both show.
        f.write("0.0 -27.0 10 1 0.5 0.2\n")
        f.write("0.5 -26.6 5 -0.5 0.3 0\n")
        f.write("359.4 -27.5 3 0 0 0.3\n")


if __name__ == "__main__":
    main()
