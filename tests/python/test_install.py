"""cmake --install puts an importable package into FRINGE_PYTHON_INSTALL_DIR under the prefix
(docs/python.md, "Install"): the installed copy, not the build tree's, imports and works."""
import os
import re
import shutil
import subprocess
import sys

import pytest


def test_cmake_install_component_python(binary_dir, tmp_path):
    cmake = os.environ.get("FRINGE_CMAKE") or shutil.which("cmake")  # the one that configured
    if cmake is None:
        pytest.skip("cmake not on PATH")
    prefix = tmp_path / "prefix"
    subprocess.run([cmake, "--install", str(binary_dir), "--component", "python", "--prefix",
                    str(prefix)], check=True, capture_output=True)
    cache = (binary_dir / "CMakeCache.txt").read_text()
    install_dir = re.search(r"^FRINGE_PYTHON_INSTALL_DIR:\w+=(.*)$", cache, re.M).group(1)
    site = prefix / install_dir if not os.path.isabs(install_dir) else install_dir
    assert (site / "fringe" / "__init__.py").exists()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    code = ("import fringe; print(fringe.__file__); "
            "print(fringe.Sky.from_array([[10.0, 20.0, 1.5]]).num_sources)")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, check=True,
                         capture_output=True, text=True).stdout.split()
    assert out[0].startswith(str(site))
    assert out[1] == "1"
