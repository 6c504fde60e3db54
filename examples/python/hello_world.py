#!/usr/bin/env python3
"""Hello world of fringe's Python package: simulate a small Measurement Set, image it, and plot
the image when matplotlib is installed.

    PYTHONPATH=<build>/python python3 examples/python/hello_world.py --out /tmp/hello

Writes <out>/hello.ms, <out>/hello_I.fits and (with matplotlib) <out>/hello.png.
"""
import argparse
import os
import pathlib

import numpy as np

import fringe

REPO = pathlib.Path(__file__).resolve().parents[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="hello_world_out", help="output folder (created)")
    ap.add_argument("--telescope", default=str(REPO / "telescope-models" / "vla-d.tm"),
                    help="an OSKAR telescope model folder (.tm)")
    ap.add_argument("--times", type=int, default=12, help="time steps over 2 hours")
    ap.add_argument("--channels", type=int, default=2, help="frequency channels")
    ap.add_argument("--size", type=int, default=256, help="image side in pixels")
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    # The sky: three point sources around the phase centre (RA, Dec [deg], Stokes I [Jy]).
    ra0, dec0 = 150.0, 45.0
    sky = fringe.Sky.from_array(np.array([[ra0, dec0, 1.0],
                                          [ra0 + 0.15, dec0 + 0.05, 0.5],
                                          [ra0 - 0.1, dec0 - 0.12, 0.25]]))
    sim = fringe.Interferometer(precision="single")
    sim.set_sky_model(sky)
    sim.set_telescope_model(fringe.Telescope(args.telescope))
    sim.set_observation(fringe.Observation(
        phase_centre_ra_deg=ra0, phase_centre_dec_deg=dec0, start_frequency_hz=1.4e9,
        num_channels=args.channels, frequency_inc_hz=1e6,
        start_time_utc="2025-01-01 06:00:00", length_sec=7200, num_time_steps=args.times))
    sim.station_type = "Isotropic beam"
    sim.output_measurement_set = str(out / "hello.ms")
    result = sim.run()
    print(f"simulated {result['num_rows']} rows into {result['ms_path']}")

    # Image the Measurement Set: the imager's bindings when there are, else its executable.
    fits = out / "hello_I.fits"
    fov_deg = 0.6
    imager = fringe.Imager()
    imager.input_file = result["ms_path"]
    imager.fov_deg = fov_deg
    imager.image_size = args.size
    imager.output_root = str(out / "hello")
    image = imager.run()["images"][0, 0]
    print(f"dirty image: {fits}, peak {image.max():.3f} Jy/beam")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot")
        return
    half = fov_deg / 2
    plt.imshow(image, origin="lower", extent=[half, -half, -half, half], cmap="inferno")
    plt.xlabel("l offset [deg] (RA increases to the left)")
    plt.ylabel("m offset [deg]")
    plt.colorbar(label="Jy/beam")
    plt.title("fringe hello world: dirty image")
    plt.savefig(out / "hello.png", dpi=100)
    print(f"plot: {out / 'hello.png'}")


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    main()
