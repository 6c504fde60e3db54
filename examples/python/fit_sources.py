#!/usr/bin/env python3
"""Recover the fluxes and positions of 20 point sources from a simulated, noisy Measurement Set
with fringe.Likelihood and scipy.optimize (L-BFGS-B on chi2 and its analytic gradient).

    PYTHONPATH=<build>/python python3 examples/python/fit_sources.py --out /tmp/fit

Simulates <out>/fit_sources.ms (VLA-D, Stokes I, Gaussian noise of --noise Jy per real and
imaginary part, WEIGHT = 1 / noise^2), starts from a sky whose fluxes are off by ~20 % and
positions by a few arcsec, fits I, RA and Dec of every source, and prints true and fitted
values with 1-sigma uncertainties from the Hessian of chi2 (finite differences of the analytic
gradient). Writes the table to <out>/fit_sources.txt. Exit code 1 when a fitted value is more
than --max-pull sigma from the truth or chi2 per degree of freedom is far from 1.
"""
import argparse
import pathlib
import sys
import time

import numpy as np

import fringe
from fit_common import (ARCSEC, DEC0, REPO, check_outputs, fisher_sigmas, random_sky,
                        simulate_noisy_ms, write_text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="fit_sources_out", help="output folder (created)")
    ap.add_argument("--telescope", default=str(REPO / "telescope-models" / "vla-d.tm"))
    ap.add_argument("--sources", type=int, default=20)
    ap.add_argument("--times", type=int, default=6, help="time steps over 1 hour")
    ap.add_argument("--channels", type=int, default=2)
    ap.add_argument("--noise", type=float, default=1.0,
                    help="noise sigma per real and imaginary part of a visibility [Jy]")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-pull", type=float, default=5.0,
                    help="largest |fitted - true| / sigma accepted")
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument("--threads", type=int, default=0,
                    help="CPU threads of the likelihood (0: OpenMP's default, OMP_NUM_THREADS)")
    ap.add_argument("--precision", default="double", choices=["single", "double"])
    args = ap.parse_args()
    from scipy.optimize import minimize  # Debian: python3-scipy

    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ms, table = out / "fit_sources.ms", out / "fit_sources.txt"
    check_outputs([table])
    rng = np.random.default_rng(args.seed)

    truth = random_sky(rng, args.sources)  # RA, Dec [deg], I [Jy]
    nvis = simulate_noisy_ms(ms, truth, args.telescope, args.times, args.channels, args.noise,
                             rng)
    start = truth.copy()
    start[:, 0] += rng.normal(0, 3.0, args.sources) / 3600 / np.cos(np.radians(DEC0))
    start[:, 1] += rng.normal(0, 3.0, args.sources) / 3600
    start[:, 2] *= 1 + rng.normal(0, 0.2, args.sources)

    lik = fringe.Likelihood(str(ms), fringe.Sky.from_array(start), free=["I", "ra", "dec"],
                            device=args.device, threads=args.threads, precision=args.precision)
    print(f"{lik}: {nvis} complex visibilities, {lik.num_parameters} parameters")
    # The optimiser works on x = (theta - theta_start) / scale: Jy for I, arcsec on the sky
    # for RA (scaled by 1/cos Dec) and Dec, so every variable is of order 1.
    theta0 = lik.initial_parameters
    scale = np.tile([1.0, ARCSEC / np.cos(np.radians(DEC0)), ARCSEC], args.sources)

    def fun(x):
        chi2, grad = lik.chi2_and_grad(theta0 + scale * x)
        return chi2, grad * scale

    t0 = time.perf_counter()
    res = minimize(fun, np.zeros_like(theta0), jac=True, method="L-BFGS-B",
                   options=dict(maxiter=2000, maxcor=30, ftol=1e-14, gtol=1e-6))
    dt = time.perf_counter() - t0
    x = res.x
    sig_x, _ = fisher_sigmas(lambda v: fun(v)[1], x, np.full(x.size, 1e-3))
    theta, sigma = theta0 + scale * x, sig_x * scale
    dof = 2 * lik.num_visibilities - lik.num_parameters
    chi2_red = res.fun / dof
    print(f"L-BFGS-B: {res.nit} iterations, {res.nfev} evaluations in {dt:.2f} s "
          f"({dt / res.nfev * 1e3:.2f} ms each): {res.message}")
    print(f"chi2 = {res.fun:.1f} for {dof} degrees of freedom (per dof {chi2_red:.4f})")

    fit = theta.reshape(-1, 3)
    sig = sigma.reshape(-1, 3)
    true = np.column_stack([truth[:, 2], np.radians(truth[:, 0]), np.radians(truth[:, 1])])
    cosd = np.cos(np.radians(DEC0))
    # Pulls: (fitted - true) / sigma of every parameter.
    pulls = (fit - true) / sig
    lines = ["# source, I_true [Jy], I_start, I_fit, sigma_I, dRA*cos(Dec)_start [arcsec], "
             "dRA*cos(Dec)_fit, sigma, dDec_start [arcsec], dDec_fit, sigma (offsets from the "
             "true position)"]
    for s in range(args.sources):
        d_start = [(np.radians(start[s, 0]) - true[s, 1]) * cosd / ARCSEC,
                   (np.radians(start[s, 1]) - true[s, 2]) / ARCSEC]
        d_fit = [(fit[s, 1] - true[s, 1]) * cosd / ARCSEC, (fit[s, 2] - true[s, 2]) / ARCSEC]
        lines.append(f"{s}, {true[s, 0]:.4f}, {start[s, 2]:.4f}, {fit[s, 0]:.4f}, "
                     f"{sig[s, 0]:.4f}, {d_start[0]:.3f}, {d_fit[0]:.3f}, "
                     f"{sig[s, 1] * cosd / ARCSEC:.3f}, {d_start[1]:.3f}, {d_fit[1]:.3f}, "
                     f"{sig[s, 2] / ARCSEC:.3f}")
    print("\n".join(lines))
    write_text(table, lines)
    worst = np.abs(pulls).max()
    print(f"largest |fitted - true| / sigma: {worst:.2f} (limit {args.max_pull}); table: {table}")
    # chi2 per dof has standard deviation sqrt(2 / dof) at the truth.
    ok = res.success and worst <= args.max_pull and abs(chi2_red - 1) < 5 * np.sqrt(2 / dof)
    if not ok:
        print("FAILED: the fit did not recover the sky", file=sys.stderr)
        return 1
    print("recovered every source within the limit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
