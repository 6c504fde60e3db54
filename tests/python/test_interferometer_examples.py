"""The examples in examples/python/ run with small arguments and produce what they say
(examples/python/README.md), so they keep working as the package changes."""
import os
import subprocess
import sys

import pytest


def run_example(source_dir, name, *args, cwd):
    script = source_dir / "examples" / "python" / name
    done = subprocess.run([sys.executable, str(script), *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, OMP_NUM_THREADS="2"))
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_hello_world(source_dir, tmp_path):
    out = run_example(source_dir, "hello_world.py", "--out", str(tmp_path / "h"), "--times", "3",
                      "--channels", "1", "--size", "64", cwd=tmp_path)
    assert (tmp_path / "h" / "hello.ms" / "table.dat").exists()
    assert (tmp_path / "h" / "hello_I.fits").exists()
    # The brightest source (1 Jy at the phase centre) dominates the dirty image.
    peak = float(out.split("peak ")[1].split()[0])
    assert 0.8 < peak < 1.3, out


def test_parameter_sweep(source_dir, tmp_path):
    out = run_example(source_dir, "parameter_sweep.py", "--out", str(tmp_path / "s"), "--fluxes",
                      "0.5", "5", "--beams", "Isotropic beam", "--times", "2", cwd=tmp_path)
    written = sorted(p.name for p in (tmp_path / "s").iterdir())
    assert written == ["sweep_isotropic_0.5Jy.ms", "sweep_isotropic_5Jy.ms"]
    rows = [line.split(", ") for line in out.splitlines()[1:]]
    # A brighter second source raises the mean |XX|: 1 Jy + flux at most (isotropic beams).
    mean_abs = [float(r[3]) for r in rows]
    assert mean_abs[0] < mean_abs[1] <= 6.0


def test_perturb_sky(source_dir, tmp_path):
    out = run_example(source_dir, "perturb_sky.py", "--sources", "5", "--times", "2",
                      "--iterations", "3", cwd=tmp_path)
    changes = [float(line.split("RMS change ")[1].split()[0])
               for line in out.splitlines() if line.startswith("iteration")]
    assert len(changes) == 3 and all(c > 0 for c in changes)
    assert os.listdir(tmp_path) == []  # nothing written


@pytest.mark.parametrize("name", ["hello_world.py", "parameter_sweep.py", "perturb_sky.py"])
def test_help(source_dir, tmp_path, name):
    assert "usage" in run_example(source_dir, name, "--help", cwd=tmp_path)
