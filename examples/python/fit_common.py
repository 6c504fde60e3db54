"""Shared parts of the model-fitting examples (fit_sources.py, fit_emcee.py;
docs/model_fitting.md): a random point-source sky, a simulated Measurement Set with Gaussian
noise, and text outputs that never replace a file the examples did not write.

The noise: every real and imaginary part of DATA gets N(0, sigma^2) [Jy] added, and WEIGHT is
set to 1 / sigma^2 (SIGMA to sigma), so chi2 = sum WEIGHT |V_model - DATA|^2 is -2 ln L up to
a constant and its expectation at the truth is 2 x (number of complex values).
"""
import os
import pathlib
import sys

import numpy as np

import fringe

REPO = pathlib.Path(__file__).resolve().parents[2]
ARCSEC = np.pi / (180 * 3600)  # rad
RA0, DEC0 = 150.0, 45.0  # phase centre [deg]
# The first line of every text file the examples write: a file without it is not replaced.
MARKER = "# written by fringe's examples/python/fit_*.py"


def random_sky(rng, n, radius_deg=0.5, min_sep_deg=0.08, flux=(0.5, 3.0)):
    """n point sources within radius_deg of the phase centre, at least min_sep_deg apart (well
    resolved by the VLA-D's ~45 arcsec beam at 1.4 GHz): [n, 3] of RA, Dec [deg], I [Jy]."""
    pos = []
    while len(pos) < n:
        dx, dy = rng.uniform(-radius_deg, radius_deg, 2)
        if np.hypot(dx, dy) > radius_deg:
            continue
        if all(np.hypot(dx - a, dy - b) >= min_sep_deg for a, b in pos):
            pos.append((dx, dy))
    pos = np.array(pos)
    ra = RA0 + pos[:, 0] / np.cos(np.radians(DEC0))
    return np.column_stack([ra, DEC0 + pos[:, 1], rng.uniform(*flux, n)])


def simulate_noisy_ms(path, sky_array, telescope, times, channels, sigma, rng):
    """Simulates sky_array (OSKAR columns) into the Measurement Set `path` (Stokes I, one
    product, isotropic stations, 1.4 GHz, 1 hour), then adds the noise described above.
    Returns the number of complex visibilities."""
    sim = fringe.Interferometer(precision="double")
    sim.set_sky_model(fringe.Sky.from_array(sky_array))
    sim.set_telescope_model(fringe.Telescope(telescope))
    sim.set_observation(fringe.Observation(
        phase_centre_ra_deg=RA0, phase_centre_dec_deg=DEC0, start_frequency_hz=1.4e9,
        num_channels=channels, frequency_inc_hz=2e6, start_time_utc="2025-01-01 06:00:00",
        length_sec=3600, num_time_steps=times))
    sim.station_type = "Isotropic beam"
    sim.polarisation_mode = "Scalar"
    # The simulator replaces nothing but an earlier Measurement Set at this path.
    sim.output_measurement_set = str(path)
    sim.run()
    import casacore.tables as tables  # python3-casacore
    with tables.table(str(path), readonly=False, ack=False) as t:
        data = t.getcol("DATA")
        data += (rng.normal(0, sigma, data.shape) + 1j * rng.normal(0, sigma, data.shape))
        t.putcol("DATA", data)
        t.putcol("WEIGHT", np.full(t.getcol("WEIGHT").shape, 1 / sigma**2, np.float32))
        t.putcol("SIGMA", np.full(t.getcol("SIGMA").shape, sigma, np.float32))
        return data.size


def check_outputs(paths):
    """Refuses (exit code 2) when a text output exists and was not written by these examples."""
    for p in paths:
        p = pathlib.Path(p)
        if not p.exists():
            continue
        with open(p, errors="replace") as f:
            first = f.readline().rstrip("\n")
        if not p.is_file() or first != MARKER:
            print(f"error: {p} exists and was not written by this example; choose another "
                  "--out", file=sys.stderr)
            sys.exit(2)


def write_text(path, lines):
    """Writes MARKER and lines to a temporary name, then renames it to path."""
    path = pathlib.Path(path)
    tmp = path.with_name(path.name + ".part")
    with open(tmp, "w") as f:
        f.write(MARKER + "\n")
        f.writelines(line + "\n" for line in lines)
    os.replace(tmp, path)


def fisher_sigmas(grad_fn, x, steps):
    """1-sigma uncertainties of the parameters x from the Hessian H of chi2 (central
    differences of the analytic gradient, symmetrised): covariance = (H / 2)^-1, since
    chi2 = -2 ln L. Returns (sigmas, covariance)."""
    n = x.size
    h = np.empty((n, n))
    for i in range(n):
        up, down = x.copy(), x.copy()
        up[i] += steps[i]
        down[i] -= steps[i]
        h[i] = (grad_fn(up) - grad_fn(down)) / (2 * steps[i])
    h = 0.5 * (h + h.T)
    cov = np.linalg.inv(0.5 * h)
    return np.sqrt(np.diag(cov)), cov
