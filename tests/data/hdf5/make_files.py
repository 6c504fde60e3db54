#!/usr/bin/env python3
"""Writes reader_cases.h5, the HDF5 file of tests/unit/io_hdf5 (Debian's python3-h5py).

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
