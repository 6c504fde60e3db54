"""External test: sim_interferometer on an OSKAR 2.13 reference case reproduces OSKAR's
Measurement Set (tests/data/oskar-reference/<case>/): the settings file is copied into the
work folder with its inputs made absolute (tests/integration/relocate_ini.py), the app runs,
and compare_ms.py compares DATA (relative RMS) and UVW with OSKAR's MS (exit 0 within
tolerance: 1e-6 double, UVW 1 mm; --tol for single-precision cases).

usage: sim_vs_oskar.py --app EXE --case DIR --workdir DIR [--tol X] [--set key=value ...]
"""
import argparse
import os
import subprocess
import sys

import ms_test_util as util

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--app", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--tol")
    ap.add_argument("--set", action="append", default=[])
    args = ap.parse_args()
    util.require_casacore()
    name = os.path.basename(os.path.normpath(args.case))
    os.makedirs(args.workdir, exist_ok=True)
    reference = util.reference_ms(os.path.join(args.case, name + ".ms"), args.workdir)
    ini = os.path.join(args.case, name + ".ini")
    relocate = [sys.executable, os.path.join(ROOT, "tests", "integration", "relocate_ini.py"),
                ini, args.workdir, "--ms", "fringe.ms"]
    for kv in args.set:
        relocate += ["--set", kv]
    copy = subprocess.run(relocate, check=True, capture_output=True, text=True).stdout.strip()
    print(" ".join([args.app, copy]))
    subprocess.run([args.app, "-q", copy], check=True)
    cmd = [sys.executable, os.path.join(ROOT, "tests", "data", "oskar-reference", "compare_ms.py"),
           os.path.join(args.workdir, "fringe.ms"), reference]
    if args.tol:
        cmd += ["--tol", args.tol]
    print(" ".join(cmd))
    return subprocess.run(cmd).returncode


if __name__ == "__main__":
    sys.exit(main())
