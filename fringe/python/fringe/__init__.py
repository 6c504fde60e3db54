"""fringe: a GPU radio-interferometer simulator, imager and calibrator (docs/python.md).

The classes mirror OSKAR's Python API where the concept is the same: SettingsTree, Sky,
Telescope, Observation, Interferometer, Imager, ... Arrays go in and out as numpy arrays;
fringe's errors are raised as fringe.Error (a RuntimeError) and its subclasses.
"""
from ._fringe import *  # noqa: F401,F403
from ._fringe import __doc__ as _core_doc, version, built_with_cuda  # noqa: F401
from . import _fringe

__version__ = version()

# Show the public classes as fringe.X (not fringe._fringe.X) in help() and repr().
for _name in dir(_fringe):
    _obj = getattr(_fringe, _name)
    if isinstance(_obj, type) and getattr(_obj, "__module__", "") == "fringe._fringe":
        try:
            _obj.__module__ = "fringe"
        except (AttributeError, TypeError):
            pass
del _name, _obj
