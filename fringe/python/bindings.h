// The parts of the extension module fringe._fringe, one function per object family, each in its
// own bind_<family>.cpp; module.cpp calls them in this order (classes before the functions that
// take them).
#pragma once

#include <pybind11/pybind11.h>

namespace fringe::python {

void bind_errors(pybind11::module_& m);       // fringe.Error and the translation of fringe::Error
void bind_settings(pybind11::module_& m);     // SettingsTree
void bind_sky(pybind11::module_& m);          // Sky
void bind_telescope(pybind11::module_& m);    // Telescope
void bind_observation(pybind11::module_& m);  // Observation
void bind_interferometer(pybind11::module_& m);  // Interferometer, visibility blocks
void bind_predict(pybind11::module_& m);         // predict()
void bind_beam(pybind11::module_& m);            // station beams, beam patterns
void bind_imager(pybind11::module_& m);          // Imager
void bind_calibration(pybind11::module_& m);     // calibration (StEFCal)
void bind_likelihood(pybind11::module_& m);      // Likelihood (model fitting)

}  // namespace fringe::python
