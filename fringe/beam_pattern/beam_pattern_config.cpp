#include "fringe/beam_pattern/beam_pattern_config.h"

#include <cmath>

namespace fringe::beam_pattern {

bool BeamOutputs::any_voltage() const {
  return text_raw_complex || text_amp || text_phase || fits_amp || fits_phase;
}

bool BeamOutputs::any_auto_power() const {
  return text_auto_power || fits_auto_power || fits_auto_power_phase || fits_auto_power_real ||
         fits_auto_power_imag;
}

bool BeamOutputs::any_cross_power() const {
  return text_cross_raw_complex || text_cross_amp || text_cross_phase || fits_cross_amp ||
         fits_cross_phase || fits_cross_real || fits_cross_imag;
}

double fov_to_cellsize(double fov_rad, int n) {
  return std::asin(2.0 * std::sin(0.5 * fov_rad) / double(n));
}

double cellsize_to_fov(double cell_rad, int n) {
  return 2.0 * std::asin(0.5 * double(n) * std::sin(cell_rad));
}

}  // namespace fringe::beam_pattern
