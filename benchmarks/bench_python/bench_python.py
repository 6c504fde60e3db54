#!/usr/bin/env python3
"""bench_python: the cost of driving a simulation from Python (issue 20, "Speed").

The same simulation (the predict_512 benchmark's setup, benchmarks/inputs/README.md: isotropic
stations of tel512.tm at the SKA-Low site, a grid of 1 Jy sources over 5 deg, Full
polarisation, one channel) is timed four ways, best of --repeats:
  app         the sim_interferometer executable writing an MS: the wall time of the process
              less its start-up (the best time of `sim_interferometer --get <ini> <key>`, which
              starts, loads its libraries and reads the settings, then stops); also printed:
              app_process (the whole process) and app_log (its own "Simulation completed in"
              time, taken before the MS is closed);
  py_run      fringe.Interferometer(settings=ini).run() writing the same MS, in this process;
  py_blocks_write  iterating Interferometer.blocks(write_files=True): the same MS, every block
              also handed to Python as numpy arrays;
  py_blocks   iterating Interferometer.blocks(): no file at all (the pipeline without the MS);
  py_sink     run() with no file and a process_block() that does nothing: the pipeline's own
              rate with the cheapest consumer, which py_blocks is compared with.
Each run loads its models from the settings (as the app does). Printed as JSON lines: one per
timing, then a summary: py_run's overhead over the app, py_blocks_write's, and the
iterator's over py_sink, in per cent.

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/bench_python/bench_python.py \
        --stations 64 --sources 1000 --times 16 --device cpu --out /tmp/bench_python
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import time

import fringe

REPO = pathlib.Path(__file__).resolve().parents[2]


def write_inputs(out, args):
    """A telescope of the first --stations stations of tel512.tm and the settings file."""
    tm = out / "tel.tm"
    shutil.rmtree(tm, ignore_errors=True)
    shutil.copytree(REPO / "benchmarks" / "inputs" / "tel512.tm", tm)
    layout = (tm / "layout.txt").read_text().splitlines()
    if args.stations > len(layout):
        raise SystemExit(f"--stations: at most {len(layout)}")
    (tm / "layout.txt").write_text("\n".join(layout[:args.stations]) + "\n")
    side = max(1, round(args.sources ** 0.5))
    ini = out / "bench.ini"
    ini.write_text(f"""[General]
app=sim_interferometer

[simulator]
double_precision={'true' if args.precision == 'double' else 'false'}
use_gpus={'true' if args.device == 'gpu' else 'false'}
num_devices={args.threads}

[sky]
generator\\grid\\side_length={side}
generator\\grid\\fov_deg=5
generator\\grid\\mean_flux_jy=1

[observation]
phase_centre_ra_deg=60
phase_centre_dec_deg=-30
start_frequency_hz=100e6
num_channels={args.channels}
frequency_inc_hz=1e6
start_time_utc=01-01-2000 13:30:00.000
length={args.times // 60:02d}:{args.times % 60:02d}:00.000
num_time_steps={args.times}

[telescope]
input_directory=tel.tm
station_type=Isotropic beam
pol_mode=Full

[interferometer]
max_time_samples_per_block={args.times_per_block}
ms_filename=app.ms
""")
    return ini, side * side


def time_app(exe, ini):
    t0 = time.perf_counter()
    done = subprocess.run([str(exe), str(ini)], cwd=ini.parent, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"sim_interferometer failed:\n{done.stdout}\n{done.stderr}")
    m = re.search(r"Simulation completed in ([0-9.eE+-]+) s", done.stdout + done.stderr)
    return float(m.group(1)) if m else wall, wall


def time_startup(exe, ini):
    t0 = time.perf_counter()
    subprocess.run([str(exe), "--get", str(ini), "simulator/use_gpus"], cwd=ini.parent,
                   capture_output=True, check=True)
    return time.perf_counter() - t0


class NullSink(fringe.Interferometer):
    def process_block(self, block, block_index):
        pass


def time_sink(ini):
    t0 = time.perf_counter()
    sim = NullSink(settings=str(ini))
    sim.output_measurement_set = ""
    sim.run()
    return time.perf_counter() - t0


def time_blocks(ini, write_files):
    t0 = time.perf_counter()
    sim = fringe.Interferometer(settings=str(ini))
    sim.output_measurement_set = str(ini.parent / "py_blocks.ms")
    arrivals = []
    for block in sim.blocks(write_files=write_files):
        block.vis  # the numpy view a consumer would read
        arrivals.append(time.perf_counter())
    wall = time.perf_counter() - t0
    gaps = [b - a for a, b in zip(arrivals, arrivals[1:])]
    return wall, (sum(gaps) / len(gaps) if gaps else 0.0), len(arrivals)


def main():
    ap = argparse.ArgumentParser(description="Python vs sim_interferometer wall time (JSON lines)")
    ap.add_argument("--stations", type=int, default=64)
    ap.add_argument("--sources", type=int, default=1000, help="rounded to a square grid")
    ap.add_argument("--times", type=int, default=16)
    ap.add_argument("--channels", type=int, default=1)
    ap.add_argument("--times_per_block", type=int, default=4)
    ap.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    ap.add_argument("--precision", choices=["single", "double"], default="double")
    ap.add_argument("--threads", type=int, default=0, help="CPU threads (0: all)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default="bench_python_out", help="work folder (created)")
    ap.add_argument("--app", default=str(REPO / "build" / "apps" / "sim_interferometer" /
                                         "sim_interferometer"))
    args = ap.parse_args()
    out = pathlib.Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    ini, sources = write_inputs(out, args)
    case = dict(stations=args.stations, sources=sources, times=args.times,
                channels=args.channels, device=args.device, precision=args.precision)

    best = {}
    extra = {}
    startup = 0.0
    for _ in range(args.repeats):
        internal, wall = time_app(args.app, ini)
        startup = min(startup, time_startup(args.app, ini)) if _ else time_startup(args.app, ini)
        best["app_process"] = min(best.get("app_process", 1e30), wall)
        best["app_log"] = min(best.get("app_log", 1e30), internal)
        best["py_sink"] = min(best.get("py_sink", 1e30), time_sink(ini))
        t0 = time.perf_counter()
        sim = fringe.Interferometer(settings=str(ini))
        sim.output_measurement_set = str(out / "py_run.ms")
        sim.run()
        best["py_run"] = min(best.get("py_run", 1e30), time.perf_counter() - t0)
        for name, write in (("py_blocks_write", True), ("py_blocks", False)):
            wall, gap, n = time_blocks(ini, write)
            if wall < best.get(name, 1e30):
                best[name] = wall
                extra[name] = dict(mean_block_interval_s=gap, blocks=n)
    best["app"] = best["app_process"] - startup
    extra["app"] = dict(startup_s=round(startup, 4))
    for name, seconds in best.items():
        print(json.dumps(dict(bench="python", mode=name, wall_s=round(seconds, 4), **case,
                              **extra.get(name, {}))))
    print(json.dumps(dict(
        bench="python", mode="summary", **case,
        py_run_overhead_pct=round(100 * (best["py_run"] / best["app"] - 1), 2),
        py_blocks_write_overhead_pct=round(100 * (best["py_blocks_write"] / best["app"] - 1), 2),
        iterator_vs_sink_pct=round(100 * (best["py_blocks"] / best["py_sink"] - 1), 2))))
    for name in ("app.ms", "py_run.ms", "py_blocks.ms"):
        shutil.rmtree(out / name, ignore_errors=True)


if __name__ == "__main__":
    main()
