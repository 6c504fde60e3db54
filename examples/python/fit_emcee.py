#!/usr/bin/env python3
"""Sample the posterior of the fluxes and positions of a few point sources with emcee's ensemble
sampler, evaluating the whole walker ensemble per step with one fringe.Likelihood.chi2_batch.

    PYTHONPATH=<build>/python python3 examples/python/fit_emcee.py --out /tmp/emcee

Simulates <out>/fit_emcee.ms (VLA-D, Stokes I, Gaussian noise of --noise Jy per real and
imaginary part, WEIGHT = 1 / noise^2), then runs emcee (Debian: python3-emcee) with
vectorize=True: log p(theta) = -chi2(theta) / 2 for I > 0 (flat priors), so each step is one
chi2_batch call for all walkers (K = --walkers parameter vectors). Prints the posterior mean and
standard deviation of every parameter next to the truth, writes them to <out>/fit_emcee.txt,
and exits with code 1 when a posterior mean is more than --max-pull standard deviations from
the truth.
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
    ap.add_argument("--out", default="fit_emcee_out", help="output folder (created)")
    ap.add_argument("--telescope", default=str(REPO / "telescope-models" / "vla-d.tm"))
    ap.add_argument("--sources", type=int, default=3)
    ap.add_argument("--times", type=int, default=4, help="time steps over 1 hour")
    ap.add_argument("--channels", type=int, default=2)
    ap.add_argument("--noise", type=float, default=1.0,
                    help="noise sigma per real and imaginary part of a visibility [Jy]")
    ap.add_argument("--walkers", type=int, default=32)
    ap.add_argument("--burn", type=int, default=200, help="steps discarded")
    ap.add_argument("--steps", type=int, default=400, help="steps kept after the burn-in")
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--max-pull", type=float, default=5.0)
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument("--threads", type=int, default=0,
                    help="CPU threads of the likelihood (0: OpenMP's default, OMP_NUM_THREADS)")
    args = ap.parse_args()
    import emcee  # Debian: python3-emcee

    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ms, table = out / "fit_emcee.ms", out / "fit_emcee.txt"
    check_outputs([table])
    rng = np.random.default_rng(args.seed)

    truth = random_sky(rng, args.sources, radius_deg=0.3)  # RA, Dec [deg], I [Jy]
    simulate_noisy_ms(ms, truth, args.telescope, args.times, args.channels, args.noise, rng)
    start = truth.copy()  # the template: a little off the truth
    start[:, 0] += rng.normal(0, 1.0, args.sources) / 3600 / np.cos(np.radians(DEC0))
    start[:, 1] += rng.normal(0, 1.0, args.sources) / 3600
    start[:, 2] *= 1 + rng.normal(0, 0.05, args.sources)
    lik = fringe.Likelihood(str(ms), fringe.Sky.from_array(start), free=["I", "ra", "dec"],
                            device=args.device, threads=args.threads)
    print(lik)

    # Sample x = (theta - theta_start) / scale: Jy, arcsec on the sky (emcee's stretch move is
    # affine invariant, but the walkers' starting ball is easier to size in these units).
    theta0 = lik.initial_parameters
    scale = np.tile([1.0, ARCSEC / np.cos(np.radians(DEC0)), ARCSEC], args.sources)
    is_flux = np.tile([True, False, False], args.sources)

    def log_prob(x):  # x: [K, ndim], all walkers at once (vectorize=True)
        theta = theta0 + x * scale
        lp = np.full(len(x), -np.inf)
        ok = (theta[:, is_flux] > 0).all(axis=1)
        if ok.any():
            lp[ok] = -0.5 * lik.chi2_batch(theta[ok])
        return lp

    # Walkers start in a ball of a tenth of the Fisher-matrix widths at the template.
    ndim = lik.num_parameters
    width, _ = fisher_sigmas(lambda x: lik.chi2_and_grad(theta0 + x * scale)[1] * scale,
                             np.zeros(ndim), np.full(ndim, 1e-3))
    p0 = rng.normal(0, 0.1, (args.walkers, ndim)) * width
    sampler = emcee.EnsembleSampler(args.walkers, ndim, log_prob, vectorize=True)
    sampler.random_state = np.random.RandomState(args.seed).get_state()  # reproducible runs
    t0 = time.perf_counter()
    sampler.run_mcmc(p0, args.burn + args.steps)
    dt = time.perf_counter() - t0
    nsteps = args.burn + args.steps
    print(f"{nsteps} steps x {args.walkers} walkers in {dt:.2f} s ({dt / nsteps * 1e3:.2f} ms "
          f"per chi2_batch of K = {args.walkers}); acceptance "
          f"{np.mean(sampler.acceptance_fraction):.2f}")
    samples = theta0 + sampler.get_chain(discard=args.burn, flat=True) * scale
    mean, std = samples.mean(axis=0).reshape(-1, 3), samples.std(axis=0).reshape(-1, 3)
    true = np.column_stack([truth[:, 2], np.radians(truth[:, 0]), np.radians(truth[:, 1])])
    cosd = np.cos(np.radians(DEC0))
    lines = ["# source, I_true [Jy], I_mean, I_std, dRA*cos(Dec)_mean [arcsec], std, "
             "dDec_mean [arcsec], std (offsets from the true position)"]
    for s in range(args.sources):
        lines.append(f"{s}, {true[s, 0]:.4f}, {mean[s, 0]:.4f}, {std[s, 0]:.4f}, "
                     f"{(mean[s, 1] - true[s, 1]) * cosd / ARCSEC:.3f}, "
                     f"{std[s, 1] * cosd / ARCSEC:.3f}, "
                     f"{(mean[s, 2] - true[s, 2]) / ARCSEC:.3f}, {std[s, 2] / ARCSEC:.3f}")
    print("\n".join(lines))
    write_text(table, lines)
    worst = np.abs((mean - true) / std).max()
    print(f"largest |mean - true| / std: {worst:.2f} (limit {args.max_pull}); table: {table}")
    if not np.isfinite(worst) or worst > args.max_pull:
        print("FAILED: the posterior does not contain the truth", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
