// Checks before a calibration touches anything (calibrate_checks.h).
#include "fringe/calibrate/calibrate_checks.h"

#include <unistd.h>

#include <filesystem>

#include "fringe/core/error.h"
#include "fringe/io/ms/gain_table.h"
#include "fringe/io/ms/ms_reader.h"

namespace fringe::calibrate {

namespace fs = std::filesystem;

namespace {

const char* const kGainsKey = "calibrate/output_gains";

bool writable(const fs::path& p) { return ::access(p.c_str(), W_OK) == 0; }

}  // namespace

std::string gains_path_of(const CalibrateMsConfig& c) {
  return c.gains_path.empty() ? c.ms_path + ".gains" : c.gains_path;
}

std::vector<OutputTarget> calibration_outputs(const CalibrateMsConfig& c) {
  // Only an earlier gain table (table.info Type) and gain CSV (first line) may be replaced.
  const std::string path = gains_path_of(c);
  const OutputTarget table = io::gain_table_target(kGainsKey, path);
  const OutputTarget csv = io::gain_csv_target(kGainsKey, path + ".csv");
  return {table, csv};
}

std::vector<std::string> calibration_inputs(const CalibrateMsConfig& c) {
  std::vector<std::string> inputs = {c.ms_path};
  if (!c.sky_model_path.empty()) inputs.push_back(c.sky_model_path);
  return inputs;
}

void check_settings_against_ms(const CalibrateMsConfig& c, const io::MsReader& ms) {
  const std::string& path = ms.path();
  if (!ms.has_column(c.data_column)) {
    throw Error::in_setting("calibrate/data_column", c.data_column,
                            "the Measurement Set '" + path + "' has no column " + c.data_column);
  }
  if (c.sky_model_path.empty() && !ms.has_column(c.model_column)) {
    throw Error::in_setting("calibrate/model_column", c.model_column,
                            "the Measurement Set '" + path + "' has no column " + c.model_column +
                                " and no sky model is given (calibrate/sky_model_file): write the "
                                "model into the MS (e.g. sim_interferometer with "
                                "interferometer/gain_corruption/enable=true) or give a sky model");
  }
  const int npol = ms.num_pols();
  if (npol != 1 && npol != 4) {
    throw Error::in_file(path, 0, std::to_string(npol) + " polarisations: expected 1 or 4");
  }
  if (npol != 4 && c.options.type != GainType::Scalar) {
    throw Error::in_setting(
        "calibrate/gain_type", gain_type_name(c.options.type),
        "the Measurement Set '" + path + "' has one polarisation: expected Scalar");
  }
  const int n = ms.num_stations();
  const std::string stations = std::to_string(n) + " station(s)";
  if (n < 2) {
    throw Error::in_file(path, 0, stations + " in the ANTENNA table: at least 2 are needed");
  }
  const int ref = c.options.reference_station;
  if (ref < 0 || ref >= n) {
    throw Error::in_setting("calibrate/reference_station", std::to_string(ref),
                            "expected a station index in 0.." + std::to_string(n - 1) + " (the " +
                                stations + " of '" + path + "')");
  }
  // flag_stations (cal_data.h) counts the distinct partners of a station: at most n - 1.
  const int mb = c.options.min_baselines;
  if (mb < 0 || mb > n - 1) {
    throw Error::in_setting("calibrate/min_baselines", std::to_string(mb),
                            "expected 0.." + std::to_string(n - 1) + ": a station of the " +
                                stations + " of '" + path + "' has at most " +
                                std::to_string(n - 1) +
                                " baselines, so a larger value leaves every station unsolved");
  }
}

void check_ms_writable(const CalibrateMsConfig& c) {
  if (!c.write_corrected) return;
  const fs::path ms(c.ms_path);
  for (const fs::path& p : {ms, ms / "table.dat"}) {
    if (!writable(p)) {
      throw Error::in_setting(
          "calibrate/input_ms", c.ms_path,
          "the Measurement Set is not writable ('" + p.string() +
              "'): CORRECTED_DATA and FLAG are written into it (calibrate/write_corrected); "
              "make it writable or set calibrate/write_corrected=false");
    }
  }
}

void check_calibration(const CalibrateMsConfig& c, const std::vector<std::string>& extra_inputs) {
  std::vector<std::string> inputs = calibration_inputs(c);
  inputs.insert(inputs.end(), extra_inputs.begin(), extra_inputs.end());
  check_outputs(calibration_outputs(c), inputs);
  {
    const io::MsReader ms(c.ms_path, io::MsReader::Access::Shared);
    check_settings_against_ms(c, ms);
  }
  check_ms_writable(c);
}

}  // namespace fringe::calibrate
