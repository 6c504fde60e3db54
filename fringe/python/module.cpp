// The extension module fringe._fringe (docs/python.md); the package's __init__.py re-exports it.
#include <pybind11/pybind11.h>

#include "fringe/api/version.h"
#include "fringe/python/bindings.h"

PYBIND11_MODULE(_fringe, m) {
  m.doc() = "fringe: GPU radio-interferometer simulator, imager and calibrator (C++ core)";
  m.def("version", &fringe::api::version, "The fringe library's version, e.g. '0.1.0'.");
  m.def("built_with_cuda", &fringe::api::built_with_cuda,
        "Whether this build has the CUDA back end (a GPU may still be absent at run time).");
  using namespace fringe::python;
  bind_errors(m);
  bind_settings(m);
  bind_sky(m);
  bind_telescope(m);
  bind_observation(m);
  bind_interferometer(m);
  bind_predict(m);
  bind_beam(m);
  bind_imager(m);
  bind_calibration(m);
  bind_likelihood(m);
}
