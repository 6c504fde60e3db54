"""External test: fringe's single precision is closer to double precision than OSKAR's own.

Runs sim_interferometer on an OSKAR 2.13 reference case (tests/data/oskar-reference/<case>/)
twice, in single and in double precision, and measures with compare_ms.py (python3-casacore)
  - fringe single vs fringe double,
  - OSKAR's MS (written in the case's own precision) vs fringe double.
For a case OSKAR ran in single precision the second number is OSKAR's single-precision error
(fringe double agrees with OSKAR double to ~1e-8, see sim_vs_oskar.py). Passes when fringe's
error is below --tol and at least --factor times smaller than OSKAR's.

usage: sim_single_vs_double.py --app EXE --case DIR --workdir DIR [--tol X] [--factor F]
"""
import argparse
import os
import re
import subprocess
import sys

import ms_test_util as util

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
COMPARE = os.path.join(ROOT, "tests", "data", "oskar-reference", "compare_ms.py")


def run_case(app, ini, workdir, ms, precision):
    relocate = [sys.executable, os.path.join(ROOT, "tests", "integration", "relocate_ini.py"),
                ini, workdir, "--ms", ms, "--set", "simulator/double_precision=" + precision]
    copy = subprocess.run(relocate, check=True, capture_output=True, text=True).stdout.strip()
    subprocess.run([app, "-q", copy], check=True)
    return os.path.join(workdir, ms)


def rel_rms(candidate, reference):
    out = subprocess.run([sys.executable, COMPARE, candidate, reference, "--tol", "1"],
                         capture_output=True, text=True)
    print(out.stdout)
    m = re.search(r"relative RMS error DATA : ([0-9.eE+-]+)", out.stdout)
    if not m:
        sys.exit("could not read the relative RMS error from compare_ms.py")
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--app", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--tol", type=float, default=1e-6)
    ap.add_argument("--factor", type=float, default=10.0)
    args = ap.parse_args()
    util.require_casacore()
    name = os.path.basename(os.path.normpath(args.case))
    ini = os.path.join(args.case, name + ".ini")
    os.makedirs(args.workdir, exist_ok=True)
    single = run_case(args.app, ini, os.path.join(args.workdir, "single"), "single.ms", "false")
    double = run_case(args.app, ini, os.path.join(args.workdir, "double"), "double.ms", "true")
    ours = rel_rms(single, double)
    oskar = rel_rms(util.reference_ms(os.path.join(args.case, name + ".ms"), args.workdir), double)
    print(f"fringe single vs fringe double : {ours:.3e}")
    print(f"OSKAR MS vs fringe double      : {oskar:.3e}")
    ok = ours < args.tol and ours * args.factor < oskar
    print("RESULT: " + ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
