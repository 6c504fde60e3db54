#!/usr/bin/env python3
"""Writes the inputs of the element_gain_model reference case (README.md here): OSKAR 2.13's
gain_model.h5 inside station and tile folders, which multiplies the elements' beamforming
weights. Debian's python3 with h5py and numpy: /usr/bin/python3 make_case.py (run here).

telescope.tm: 5 aperture-array stations of dipoles (root layout.txt, ENU, m), one folder each:
  s0: 5 elements and a gain table with different X and Y gains, but no Y-specific beamforming
      file, so OSKAR forms both feeds' beams with the X weights: gain_ypol is unused.
  s1: 5 elements, a gain table with different X and Y gains and gain_phase_y.txt (all "1 0",
      no change of the weights by itself): the Y beam takes gain_ypol.
  s2: 3 tiles (one shared tile folder of 4 elements) with a gain table at both levels (the
      station's 3 x 3 entries and the tile's 4 x 4; tiles' X and Y gains differ, the station's
      has gain_xpol only).
  s3: 5 elements, no table (its visibilities show that the tables are per station).
  s4: 3 tiles, each its own folder with its own layout (so fringe takes its general, recursive
      path), and a station-level table with different X and Y gains (unused Y, as s0).
Tables: 2 times for the 3 simulated times (the 3rd takes the table's last time, as OSKAR
clamps) and 3 channels at 120, 99.8 and 108 MHz, so the simulated channels 100 and 107 MHz
take table channels 1 and 2. Gains follow gain() below: amplitude and phase vary with element,
time, channel and polarisation, so every selection rule shows in the visibilities.
telescope_no_gains.tm: the same without the tables (the test that fringe's output then differs
from OSKAR's).
"""
import os
import shutil

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FREQS = np.array([120e6, 99.8e6, 108e6])
NUM_TIMES = 2


def gain(t, c, k, pol, salt):
    """Gain of table time t, channel c, element k, polarisation pol (0 X, 1 Y)."""
    amp = 1.0 + 0.12 * k - 0.07 * t + 0.05 * c + 0.2 * pol + 0.03 * salt
    phase = 0.45 * k - 0.3 * t + 0.2 * c - 0.5 * pol + 0.1 * salt  # radians
    return amp * np.exp(1j * phase)


def write_table(folder, num_elements, salt, with_y):
    shape = (NUM_TIMES, len(FREQS), num_elements)
    gx = np.zeros(shape, dtype=np.complex128)
    gy = np.zeros(shape, dtype=np.complex128)
    for t in range(shape[0]):
        for c in range(shape[1]):
            for k in range(shape[2]):
                gx[t, c, k] = gain(t, c, k, 0, salt)
                gy[t, c, k] = gain(t, c, k, 1, salt)
    with h5py.File(os.path.join(folder, "gain_model.h5"), "w") as f:
        f.create_dataset("freq (Hz)", data=FREQS)
        f.create_dataset("gain_xpol", data=gx)
        if with_y:
            f.create_dataset("gain_ypol", data=gy)


def write_layout(folder, rows):
    with open(os.path.join(folder, "layout.txt"), "w") as f:
        for r in rows:
            f.write("%g %g\n" % r)


FLAT = [(0, 0), (2.1, 0.4), (-1.3, 1.9), (0.7, -2.4), (-2.2, -0.9)]  # East, North (m)
TILE = [(-0.6, -0.6), (0.6, -0.6), (-0.6, 0.6), (0.6, 0.6)]
TILES = [(0, 0), (3.5, 0.5), (-1.0, 3.2)]
DISTINCT_TILES = [TILE, TILE[:3], [(-0.5, 0.0), (0.5, 0.0), (0.0, 0.9), (0.0, -0.9)]]


def write_model(name, with_gains):
    root = os.path.join(HERE, name)
    if os.path.isdir(root):
        shutil.rmtree(root)
    os.makedirs(root)
    with open(os.path.join(root, "position.txt"), "w") as f:
        f.write("116.7644482 -26.82472208 377.8\n")
    write_layout(root, [(0, 0), (180.5, -60.25), (-95.75, 210), (350, 325.5), (-240, -130.5)])
    for s in range(5):
        os.makedirs(os.path.join(root, "s%d" % s))
    s0, s1, s2, s3, s4 = (os.path.join(root, "s%d" % s) for s in range(5))
    write_layout(s0, FLAT)
    write_layout(s1, FLAT)
    with open(os.path.join(s1, "gain_phase_y.txt"), "w") as f:
        f.write("1 0\n" * len(FLAT))
    write_layout(s2, TILES)
    tile = os.path.join(s2, "tile")
    os.makedirs(tile)
    write_layout(tile, TILE)
    write_layout(s3, FLAT)
    write_layout(s4, TILES)
    for i, layout in enumerate(DISTINCT_TILES):
        folder = os.path.join(s4, "tile%d" % i)
        os.makedirs(folder)
        write_layout(folder, layout)
    if with_gains:
        write_table(s0, len(FLAT), 0, True)
        write_table(s1, len(FLAT), 1, True)
        write_table(s2, len(TILES), 2, False)
        write_table(tile, len(TILE), 3, True)
        write_table(s4, len(TILES), 4, True)


def main():
    write_model("telescope.tm", True)
    write_model("telescope_no_gains.tm", False)
    with open(os.path.join(HERE, "sky.osm"), "w") as f:
        # RA, Dec (deg), I, Q, U, V (Jy): polarised and spread over the stations' wide beams.
        f.write("0.0 -27.0 10 1 0.5 0.2\n")
        f.write("8.0 -20.0 5 -0.5 0.3 0\n")
        f.write("352.0 -35.0 3 0 0 0.3\n")
        f.write("5.0 -33.0 4 0.4 -0.2 0\n")


if __name__ == "__main__":
    main()
