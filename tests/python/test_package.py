"""The package imports from the build tree and reports the project's version (docs/python.md)."""
import os
import re

import fringe


def test_version_is_the_projects():
    # The version in the top-level CMakeLists.txt's project() call, as __version__ and version().
    with open(os.path.join(os.environ["FRINGE_SOURCE_DIR"], "CMakeLists.txt")) as f:
        expected = re.search(r"project\(fringe VERSION (\d+\.\d+\.\d+)", f.read()).group(1)
    assert fringe.__version__ == expected
    assert fringe.version() == expected


def test_cuda_flag_is_a_bool():
    assert isinstance(fringe.built_with_cuda(), bool)
