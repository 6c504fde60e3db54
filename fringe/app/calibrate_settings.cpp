#include "fringe/app/calibrate_settings.h"

#include "fringe/core/error.h"

namespace fringe::app {
namespace {

int count_or_all(const settings::Settings& s, const std::string& key) {
  if (s.is_word(key, "all")) return 0;
  const int v = s.get_int(key);
  if (v < 1) throw Error::in_setting(key, s.get(key), "expected a count >= 1 or 'all'");
  return v;
}

}  // namespace

calibrate::CalibrateMsConfig calibrate_config(const settings::Settings& s,
                                              const std::string& default_ms) {
  const std::string k = "calibrate/";
  calibrate::CalibrateMsConfig c;
  c.ms_path = s.get_path(k + "input_ms");
  if (c.ms_path.empty()) c.ms_path = default_ms;
  if (c.ms_path.empty()) {
    throw Error::in_setting(k + "input_ms", "", "expected a Measurement Set");
  }
  c.data_column = s.get(k + "data_column");
  c.model_column = s.get(k + "model_column");
  c.sky_model_path = s.get_path(k + "sky_model_file");
  const std::string type = s.get_option(k + "gain_type");
  if (type == "Scalar") {
    c.options.type = calibrate::GainType::Scalar;
  } else if (type == "Diagonal") {
    c.options.type = calibrate::GainType::Diagonal;
  } else if (type == "Full-Jones") {
    c.options.type = calibrate::GainType::FullJones;
  } else {
    throw Error::in_setting(k + "gain_type", type, "expected Scalar, Diagonal or Full-Jones");
  }
  c.times_per_solution = count_or_all(s, k + "solution_interval_times");
  c.channels_per_solution = count_or_all(s, k + "channels_per_solution");
  c.options.solver.max_iterations = s.get_int(k + "max_iterations");
  if (c.options.solver.max_iterations < 2) {
    throw Error::in_setting(k + "max_iterations", s.get(k + "max_iterations"),
                            "expected at least 2 iterations");
  }
  c.options.solver.tolerance = s.get_double(k + "tolerance");
  c.options.solver.stall_checks = s.get_int(k + "stall_checks");
  if (c.options.solver.stall_checks < 0) {
    throw Error::in_setting(k + "stall_checks", s.get(k + "stall_checks"), "expected a count >= 0");
  }
  c.options.reference_station = s.get_int(k + "reference_station");
  if (c.options.reference_station < 0) {
    throw Error::in_setting(k + "reference_station", s.get(k + "reference_station"),
                            "expected a station index >= 0");
  }
  c.options.min_baselines = s.get_int(k + "min_baselines");
  // (Its upper limit, N-1 for N stations, is checked against the MS: calibrate_checks.h.)
  if (c.options.min_baselines < 0) {
    throw Error::in_setting(k + "min_baselines", s.get(k + "min_baselines"),
                            "expected a count of baselines >= 0");
  }
  c.precision = s.get_bool(k + "double_precision") ? Precision::Double : Precision::Single;
  c.devices.use_gpus = s.get_bool(k + "use_gpus");
  if (c.devices.use_gpus && !s.is_word(k + "cuda_device_ids", "all")) {
    for (int id : s.get_int_list(k + "cuda_device_ids")) {
      if (id < 0) {
        throw Error::in_setting(k + "cuda_device_ids", s.get(k + "cuda_device_ids"),
                                "expected CUDA device indices >= 0 or 'all'");
      }
      c.devices.cuda_device_ids.push_back(id);
    }
  }
  c.gains_path = s.get_path(k + "output_gains");
  c.write_corrected = s.get_bool(k + "write_corrected");
  return c;
}

}  // namespace fringe::app
