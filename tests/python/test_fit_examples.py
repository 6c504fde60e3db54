"""The model-fitting examples (examples/python/fit_sources.py, fit_emcee.py;
docs/model_fitting.md) run with small sizes, recover their simulated skies within their own
limits (exit code 0) and write what they say; they refuse to replace a file they did not write.
Skipped without scipy, emcee or python-casacore (Debian: python3-scipy, python3-emcee,
python3-casacore)."""
import os
import subprocess
import sys

import pytest

pytest.importorskip("casacore.tables")


def run_example(source_dir, name, *args, cwd):
    script = source_dir / "examples" / "python" / name
    return subprocess.run([sys.executable, str(script), *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env=dict(os.environ, OMP_NUM_THREADS="2"))


def test_fit_sources(source_dir, tmp_path):
    pytest.importorskip("scipy")
    out = tmp_path / "f"
    done = run_example(source_dir, "fit_sources.py", "--out", str(out), "--sources", "6",
                       "--times", "3", "--channels", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "recovered every source" in done.stdout
    rows = (out / "fit_sources.txt").read_text().splitlines()
    assert len(rows) == 2 + 6  # marker, header, one row per source
    assert (out / "fit_sources.ms" / "table.dat").exists()
    # A second run replaces its own outputs.
    again = run_example(source_dir, "fit_sources.py", "--out", str(out), "--sources", "6",
                        "--times", "3", "--channels", "1", cwd=tmp_path)
    assert again.returncode == 0, again.stderr


def test_fit_emcee(source_dir, tmp_path):
    pytest.importorskip("emcee")
    out = tmp_path / "e"
    done = run_example(source_dir, "fit_emcee.py", "--out", str(out), "--sources", "2",
                       "--times", "2", "--channels", "1", "--walkers", "16", "--burn", "100",
                       "--steps", "150", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "chi2_batch of K = 16" in done.stdout
    assert len((out / "fit_emcee.txt").read_text().splitlines()) == 2 + 2


def test_foreign_output_is_not_replaced(source_dir, tmp_path):
    pytest.importorskip("scipy")
    out = tmp_path / "f"
    out.mkdir()
    (out / "fit_sources.txt").write_text("someone else's notes\n")
    done = run_example(source_dir, "fit_sources.py", "--out", str(out), "--sources", "2",
                       "--times", "1", "--channels", "1", cwd=tmp_path)
    assert done.returncode == 2 and "was not written by this example" in done.stderr
    assert (out / "fit_sources.txt").read_text() == "someone else's notes\n"
    assert os.listdir(out) == ["fit_sources.txt"]  # nothing simulated


@pytest.mark.parametrize("name", ["fit_sources.py", "fit_emcee.py"])
def test_help(source_dir, tmp_path, name):
    done = run_example(source_dir, name, "--help", cwd=tmp_path)
    assert done.returncode == 0 and "usage" in done.stdout
