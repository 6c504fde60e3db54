"""fringe: a GPU radio-interferometer simulator, imager and calibrator (docs/python.md)."""
from ._fringe import *  # noqa: F401,F403
from ._fringe import __doc__, version, built_with_cuda  # noqa: F401

__version__ = version()
