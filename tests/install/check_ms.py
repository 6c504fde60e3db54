"""Reads back a Measurement Set written by examples/cpp/simulate_ms and checks its shape and
values against numbers the caller derives from the inputs (not from fringe's output).

usage: check_ms.py <ms> <rows> <channels> <stations> <times> <max_flux_jy>

rows = times x stations (stations - 1) / 2 (cross-correlations only). The example's sky is
unpolarised (Q = U = V = 0) and its station beams are isotropic (E = 1), so each source adds
I R_p R_q^T, R the parallactic-angle rotation of a station (fringe/jones: station Jones E R):
a rotation by the angle difference, [[c, -s], [s, c]] I. Hence XX = YY and XY = -YX in every
cell (XY itself is small but not 0: near the zenith the parallactic angle differs between
dishes 1 km apart), and |XX| <= the sum of the sources' Stokes I (triangle inequality; the
largest flux is at the lowest channel, spectral index < 0). Exit status 0 when every check holds.
"""
import sys

import numpy as np
from casacore import tables


def main() -> int:
    ms, rows, channels, stations, times = sys.argv[1], *map(int, sys.argv[2:6])
    max_flux = float(sys.argv[6])
    errors = []
    t = tables.table(ms, ack=False)
    if t.nrows() != rows:
        errors.append(f"{t.nrows()} rows, expected {rows}")
    data = t.getcol("DATA")
    if data.shape != (rows, channels, 4):
        errors.append(f"DATA shape {data.shape}, expected {(rows, channels, 4)}")
    n_times = len(np.unique(t.getcol("TIME")))
    if n_times != times:
        errors.append(f"{n_times} distinct TIME values, expected {times}")
    n_ant = tables.table(ms + "/ANTENNA", ack=False).nrows()
    if n_ant != stations:
        errors.append(f"ANTENNA has {n_ant} rows, expected {stations}")
    if not np.all(np.isfinite(data)):
        errors.append("DATA has non-finite values")
    elif not np.any(data != 0):
        errors.append("DATA is all zero")
    else:
        xx, xy, yx, yy = (data[..., k] for k in range(4))
        # Tolerances: the DATA column is complex float (relative rounding ~1e-7).
        if np.max(np.abs(xy + yx)) > 1e-6 * max_flux:
            errors.append("XY differs from -YX for an unpolarised sky and isotropic beams")
        if np.max(np.abs(xx - yy)) > 1e-6 * max_flux:
            errors.append("XX differs from YY for an unpolarised sky")
        if np.max(np.abs(xx)) > max_flux * (1 + 1e-6):
            errors.append(f"|XX| up to {np.max(np.abs(xx))} Jy, above the total flux {max_flux}")
    for e in errors:
        print(f"FAIL: {ms}: {e}")
    if not errors:
        print(f"ok: {ms}: {rows} rows x {channels} channels, {stations} stations")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
