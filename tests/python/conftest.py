"""Shared fixtures of the Python package's tests (docs/python.md): where the repository and
the build tree are (set by tests/python/CMakeLists.txt), and a small random sky."""
import os
import pathlib

import numpy as np
import pytest


@pytest.fixture(scope="session")
def source_dir():
    """The repository root (FRINGE_SOURCE_DIR, else two folders above this file)."""
    return pathlib.Path(os.environ.get("FRINGE_SOURCE_DIR",
                                       pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture(scope="session")
def binary_dir(source_dir):
    """The build tree (FRINGE_BINARY_DIR, else <source>/build)."""
    return pathlib.Path(os.environ.get("FRINGE_BINARY_DIR", source_dir / "build"))


@pytest.fixture
def sky_array():
    """20 sources in OSKAR's 12-column layout (deg, Jy, Hz, rad/m^2, arcsec, deg) with values
    that need all 17 significant digits, so a lossy text round trip would show."""
    rng = np.random.default_rng(20)
    n = 20
    a = np.zeros((n, 12))
    a[:, 0] = rng.uniform(0.0, 360.0, n)        # RA [deg]
    a[:, 1] = rng.uniform(-90.0, 90.0, n)       # Dec [deg]
    a[:, 2] = rng.uniform(0.01, 10.0, n)        # I [Jy]
    a[:, 3:6] = rng.uniform(-0.1, 0.1, (n, 3))  # Q, U, V [Jy]
    a[:, 6] = rng.uniform(50e6, 200e6, n)       # reference frequency [Hz]
    a[:, 7] = rng.uniform(-1.5, 0.5, n)         # spectral index
    a[:, 8] = rng.uniform(-50.0, 50.0, n)       # rotation measure [rad/m^2]
    gaussian = rng.uniform(size=n) < 0.5
    a[gaussian, 9] = rng.uniform(10.0, 300.0, gaussian.sum())   # FWHM major [arcsec]
    a[gaussian, 10] = a[gaussian, 9] * 0.5                       # FWHM minor [arcsec]
    a[gaussian, 11] = rng.uniform(-90.0, 90.0, gaussian.sum())  # PA [deg]
    return a
