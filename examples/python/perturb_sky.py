#!/usr/bin/env python3
"""Perturb the sky and re-predict, with the telescope loaded once: a loop such as a model fit
or a Monte Carlo study would run. Each iteration moves and rescales the sources a little and
predicts the visibilities of every time step directly (fringe.predict on the stations' (u, v, w)
from fringe.station_uvw, computed once), then compares them with the unperturbed model.

    PYTHONPATH=<build>/python python3 examples/python/perturb_sky.py --iterations 20

Prints the RMS visibility change per iteration; nothing is written.
"""
import argparse
import pathlib
import time

import numpy as np

import fringe

REPO = pathlib.Path(__file__).resolve().parents[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--telescope", default=str(REPO / "telescope-models" / "vla-d.tm"))
    ap.add_argument("--sources", type=int, default=50)
    ap.add_argument("--times", type=int, default=4)
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--position_sigma_arcsec", type=float, default=5.0)
    ap.add_argument("--flux_sigma", type=float, default=0.05, help="relative flux scatter")
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    args = ap.parse_args()

    ra0, dec0 = 150.0, 45.0
    telescope = fringe.Telescope(args.telescope)  # loaded once
    obs = fringe.Observation(phase_centre_ra_deg=ra0, phase_centre_dec_deg=dec0,
                             start_frequency_hz=1.4e9, num_channels=4, frequency_inc_hz=1e6,
                             start_time_utc="2025-01-01 06:00:00", length_sec=3600,
                             num_time_steps=args.times)
    freqs = obs.start_frequency_hz + obs.frequency_inc_hz * np.arange(obs.num_channels)
    # The stations' (u, v, w) of every time step: the geometry does not change with the sky.
    uvw = [fringe.station_uvw(telescope, obs, t, true_positions=True) for t in range(args.times)]

    rng = np.random.default_rng(1)
    n = args.sources
    model = np.column_stack([ra0 + rng.normal(0, 0.2, n), dec0 + rng.normal(0, 0.2, n),
                             rng.uniform(0.1, 2.0, n)])  # RA, Dec [deg], I [Jy]

    def predict(columns):
        sky = fringe.Sky.from_array(columns)
        return np.stack([fringe.predict(sky, None, u, freqs, phase_centre_ra_deg=ra0,
                                        phase_centre_dec_deg=dec0, polarised=False,
                                        device=args.device) for u in uvw])

    reference = predict(model)
    print(f"{n} sources, {telescope.num_stations} stations, {args.times} times x "
          f"{len(freqs)} channels: {reference.size} visibilities per predict")
    for it in range(args.iterations):
        perturbed = model.copy()
        perturbed[:, 0] += rng.normal(0, args.position_sigma_arcsec / 3600, n) / np.cos(
            np.radians(dec0))
        perturbed[:, 1] += rng.normal(0, args.position_sigma_arcsec / 3600, n)
        perturbed[:, 2] *= 1 + rng.normal(0, args.flux_sigma, n)
        t0 = time.perf_counter()
        vis = predict(perturbed)
        dt = time.perf_counter() - t0
        rms = np.sqrt(np.mean(np.abs(vis - reference) ** 2))
        print(f"iteration {it}: RMS change {rms:.4f} Jy ({dt * 1e3:.1f} ms)")


if __name__ == "__main__":
    main()
