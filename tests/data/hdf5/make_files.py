#!/usr/bin/env python3
"""Writes reader_cases.h5 (tests/unit/io_hdf5) and the gain_*.h5 tables of
tests/unit/telescope/test_gain_model.cpp (Debian's python3-h5py).

Run from this folder: /usr/bin/python3 make_files.py (Debian's python, where h5py is). Values are simple formulas so the test can state
them independently: cplx[i, j] = (i + 1) + 1j * (j - 1), pairs[i, j, :] = (10 i + j, -j).
"""
import h5py
import numpy as np

with h5py.File("reader_cases.h5", "w") as f:
    # Complex as h5py writes it: a compound of two float64 members "r" and "i".
    c = np.array([[(i + 1) + 1j * (j - 1) for j in range(3)] for i in range(2)], dtype=np.complex128)
    d = f.create_dataset("cplx", data=c)
    d.attrs["scale"] = 2.5
    d.attrs["unit"] = "volt"                         # variable-length string
    d.attrs["fixed"] = np.bytes_("abc")              # fixed-length string
    d.attrs["vector"] = np.array([1.0, 2.0, 3.0])
    # Single-precision complex compound.
    f.create_dataset("cplx64", data=c.astype(np.complex64))
    # Complex as a float array with a trailing dimension 2.
    p = np.array([[[10 * i + j, -j] for j in range(4)] for i in range(2)], dtype=np.float32)
    f.create_dataset("pairs", data=p)
    f.create_dataset("real", data=np.arange(6, dtype=np.float64).reshape(2, 3) * 0.5)
    f.create_dataset("ints", data=np.array([3, -4, 5], dtype=np.int32))
    f.create_dataset("scalar", data=7.25)
    f.create_dataset("text", data="not numbers")
    g = f.create_group("grp")
    g.create_dataset("inner", data=np.array([1.5]))
    g.attrs["count"] = np.int64(4)
    f.attrs["title"] = "reader cases"

# Malformed OSKAR gain models (telescope/gain_model.h; tests/unit/telescope/test_gain_model.cpp).
good = np.ones((2, 3, 4), dtype=np.complex128)
freqs = np.array([100e6, 110e6, 120e6])
with h5py.File("gain_missing_xpol.h5", "w") as f:
    f.create_dataset("freq (Hz)", data=freqs)
with h5py.File("gain_missing_freq.h5", "w") as f:
    f.create_dataset("gain_xpol", data=good)
with h5py.File("gain_2d.h5", "w") as f:
    f.create_dataset("freq (Hz)", data=freqs)
    f.create_dataset("gain_xpol", data=np.ones((3, 4), dtype=np.complex128))
with h5py.File("gain_chan_mismatch.h5", "w") as f:
    f.create_dataset("freq (Hz)", data=freqs[:2])
    f.create_dataset("gain_xpol", data=good)
with h5py.File("gain_real.h5", "w") as f:
    f.create_dataset("freq (Hz)", data=freqs)
    f.create_dataset("gain_xpol", data=np.ones((2, 3, 4)))
with h5py.File("gain_ypol_shape.h5", "w") as f:
    f.create_dataset("freq (Hz)", data=freqs)
    f.create_dataset("gain_xpol", data=good)
    f.create_dataset("gain_ypol", data=np.ones((2, 3, 3), dtype=np.complex128))
with h5py.File("gain_nan.h5", "w") as f:
    f.create_dataset("freq (Hz)", data=freqs)
    bad = good.copy()
    bad[1, 2, 3] = np.nan
    f.create_dataset("gain_xpol", data=bad)
# A valid table: g[t, c, p] = (1 + t) + 1j (c + 10 p) for X; Y = conj(X); single precision.
with h5py.File("gain_valid.h5", "w") as f:
    f.create_dataset("freq (Hz)", data=freqs)
    g = np.array([[[(1 + t) + 1j * (c + 10 * p) for p in range(4)] for c in range(3)]
                  for t in range(2)], dtype=np.complex64)
    f.create_dataset("gain_xpol", data=g)
    f.create_dataset("gain_ypol", data=np.conj(g))
