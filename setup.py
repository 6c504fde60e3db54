"""setuptools build of the Python package `fringe` (pyproject.toml; docs/python.md, "Install").

build_ext configures and builds the CMake target fringe_python (the pybind11 extension
fringe._fringe, which links fringe's libraries statically) and copies it into the wheel next
to the pure-Python files of fringe/python/fringe. Environment:
  FRINGE_BUILD_DIR    an existing or new CMake build folder to use (default: a folder under
                      setuptools' build_temp); an already configured one (e.g. the project's
                      build/) is only rebuilt, which takes seconds when it is up to date
  FRINGE_CMAKE_ARGS   extra arguments for the configure step (e.g. "-DFRINGE_CUDA=OFF")
  FRINGE_BUILD_JOBS   parallel build jobs (default: the number of CPUs)
  CMAKE               the cmake program (default: cmake on PATH)
"""
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(fringe VERSION (\d+\.\d+\.\d+)", text).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        cmake = os.environ.get("CMAKE") or shutil.which("cmake")
        if not cmake:
            raise RuntimeError("fringe needs CMake (Debian: apt-get install cmake)")
        build_dir = pathlib.Path(os.environ.get("FRINGE_BUILD_DIR") or
                                 pathlib.Path(self.build_temp) / "cmake").resolve()
        build_dir.mkdir(parents=True, exist_ok=True)
        if not (build_dir / "CMakeCache.txt").exists():
            args = [cmake, "-S", str(ROOT), "-B", str(build_dir),
                    "-DCMAKE_BUILD_TYPE=Release", "-DFRINGE_PYTHON_PACKAGE=ON",
                    f"-DFRINGE_PYTHON_EXE={sys.executable}"]
            if shutil.which("ninja"):
                args += ["-G", "Ninja"]
            args += shlex.split(os.environ.get("FRINGE_CMAKE_ARGS", ""))
            subprocess.run(args, check=True)
        jobs = os.environ.get("FRINGE_BUILD_JOBS") or str(os.cpu_count() or 1)
        subprocess.run([cmake, "--build", str(build_dir), "--target", "fringe_python",
                        "-j", jobs], check=True)
        built = sorted((build_dir / "python" / "fringe").glob("_fringe*.so"))
        if not built:
            raise RuntimeError(f"{build_dir}: fringe_python built no python/fringe/_fringe*.so")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        # The build folder's extension is for this interpreter: its name carries the ABI tag.
        shutil.copy2(built[-1], target.parent / built[-1].name)


setup(
    version=project_version(),
    packages=["fringe"],
    package_dir={"fringe": "fringe/python/fringe"},
    ext_modules=[Extension("fringe._fringe", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
    # setuptools' own folders under build/setuptools, apart from a CMake build in build/.
    options={"build": {"build_base": "build/setuptools"}},
)
