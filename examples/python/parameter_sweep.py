#!/usr/bin/env python3
"""A parameter sweep: many small datasets, one Measurement Set each, over the flux of a source
and the station beam model, with the telescope loaded once.

    PYTHONPATH=<build>/python python3 examples/python/parameter_sweep.py --out /tmp/sweep

Writes <out>/sweep_<beam>_<flux>Jy.ms and prints one line per dataset.
"""
import argparse
import pathlib

import numpy as np

import fringe

REPO = pathlib.Path(__file__).resolve().parents[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="parameter_sweep_out", help="output folder (created)")
    ap.add_argument("--telescope", default=str(REPO / "telescope-models" / "vla-d.tm"))
    ap.add_argument("--fluxes", type=float, nargs="+", default=[0.1, 1.0, 10.0],
                    help="Stokes I of the off-centre source [Jy]")
    ap.add_argument("--beams", nargs="+", default=["Isotropic beam", "Gaussian beam"],
                    help="station_type values")
    ap.add_argument("--times", type=int, default=4)
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    ra0, dec0 = 150.0, 45.0
    sim = fringe.Interferometer(precision="single")
    sim.set_telescope_model(fringe.Telescope(args.telescope))  # loaded once for the sweep
    sim.set_observation(fringe.Observation(
        phase_centre_ra_deg=ra0, phase_centre_dec_deg=dec0, start_frequency_hz=1.4e9,
        num_channels=2, frequency_inc_hz=1e6, start_time_utc="2025-01-01 06:00:00",
        length_sec=600, num_time_steps=args.times))
    sim.gaussian_beam_fwhm_deg = 0.5  # for 'Gaussian beam' (at 1.4 GHz)
    sim.gaussian_beam_ref_freq_hz = 1.4e9
    print("beam, flux [Jy], rows, mean |XX| [Jy], Measurement Set")
    for beam in args.beams:
        sim.station_type = beam
        for flux in args.fluxes:
            sim.set_sky_model(fringe.Sky.from_array(np.array([[ra0, dec0, 1.0],
                                                              [ra0 + 0.2, dec0, flux]])))
            name = f"sweep_{beam.split()[0].lower()}_{flux:g}Jy.ms"
            sim.output_measurement_set = str(out / name)
            # The blocks come while the MS is written: a summary without reading it back.
            blocks = sim.blocks(write_files=True)
            mean_abs = np.mean([np.abs(b.vis[..., 0]).mean() for b in blocks])
            print(f"{beam}, {flux:g}, {blocks.result['num_rows']}, {mean_abs:.4f}, "
                  f"{blocks.result['ms_path']}")


if __name__ == "__main__":
    main()
