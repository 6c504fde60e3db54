// Checks before a calibration touches anything (calibrate_checks.h).
#include "fringe/calibrate/calibrate_checks.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include <cerrno>
#include <cstring>

#include <filesystem>

#include "fringe/calibrate/cal_data.h"
#include "fringe/calibrate/sky_predict.h"
#include "fringe/core/error.h"
#include "fringe/core/resources.h"
#include "fringe/io/ms/gain_table.h"
#include "fringe/io/ms/ms_reader.h"

namespace fringe::calibrate {

namespace fs = std::filesystem;

namespace {

// The config field that names the gain table's path (errors and output targets name it).
const char* const kGainsField = "CalibrateMsConfig.gains_path";

bool writable(const fs::path& p) { return ::access(p.c_str(), W_OK) == 0; }

// Creates and removes an empty file of a fresh temporary name in the gain table's folder:
// unlike access(), this also fails where root cannot write (/proc, a read-only mount), so a
// gain table that could not be written is found before the MS is changed.
void probe_gains_folder(const std::string& gains_path) {
  const std::string probe = temporary_path_for(gains_path);
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    const int err = errno;
    throw Error::in_field(kGainsField, gains_path,
                          "cannot create a file in the gain table's folder (" +
                              std::string(std::strerror(err)) + "): choose a writable folder");
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace

std::string gains_path_of(const CalibrateMsConfig& c) {
  if (!c.gains_path.empty()) return c.gains_path;
  // "in.ms/" names the same MS as "in.ms": its gains go beside it, not inside it.
  std::string ms = c.ms_path;
  while (ms.size() > 1 && ms.back() == '/') ms.pop_back();
  return ms + ".gains";
}

std::vector<OutputTarget> calibration_outputs(const CalibrateMsConfig& c) {
  // Only an earlier gain table (table.info Type) and gain CSV (first line) may be replaced.
  const std::string path = gains_path_of(c);
  const OutputTarget table = io::gain_table_target(kGainsField, path);
  const OutputTarget csv = io::gain_csv_target(kGainsField, path + ".csv");
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
    throw Error::in_field("CalibrateMsConfig.data_column", c.data_column,
                          "the Measurement Set '" + path + "' has no column " + c.data_column);
  }
  if (c.sky_model_path.empty() && !ms.has_column(c.model_column)) {
    throw Error::in_field("CalibrateMsConfig.model_column", c.model_column,
                          "the Measurement Set '" + path + "' has no column " + c.model_column +
                              " and no sky model is given (CalibrateMsConfig.sky_model_path): "
                              "write the model into the MS (e.g. sim_interferometer with "
                              "GainCorruptionConfig.enable=true) or give a sky model");
  }
  const int npol = ms.num_pols();
  if (npol != 1 && npol != 4) {
    throw Error::in_file(path, 0, std::to_string(npol) + " polarisations: expected 1 or 4");
  }
  if (npol != 4 && c.options.type != GainType::Scalar) {
    throw Error::in_field(
        "CalOptions.type", gain_type_name(c.options.type),
        "the Measurement Set '" + path + "' has one polarisation: expected Scalar");
  }
  const int n = ms.num_stations();
  const std::string stations = std::to_string(n) + " station(s)";
  if (n < 2) {
    throw Error::in_file(path, 0, stations + " in the ANTENNA table: at least 2 are needed");
  }
  const int ref = c.options.reference_station;
  if (ref < 0 || ref >= n) {
    throw Error::in_field("CalOptions.reference_station", std::to_string(ref),
                          "expected a station index in 0.." + std::to_string(n - 1) + " (the " +
                              stations + " of '" + path + "')");
  }
  // flag_stations (cal_data.h) counts the distinct partners of a station: at most n - 1.
  const int mb = c.options.min_baselines;
  if (mb < 0 || mb > n - 1) {
    throw Error::in_field("CalOptions.min_baselines", std::to_string(mb),
                          "expected 0.." + std::to_string(n - 1) + ": a station of the " +
                              stations + " of '" + path + "' has at most " + std::to_string(n - 1) +
                              " baselines, so a larger value leaves every station unsolved");
  }
}

void check_writable(const CalibrateMsConfig& c) {
  probe_gains_folder(gains_path_of(c));
  if (!c.write_corrected) return;
  const fs::path ms(c.ms_path);
  for (const fs::path& p : {ms, ms / "table.dat"}) {
    if (!writable(p)) {
      throw Error::in_field("CalibrateMsConfig.ms_path", c.ms_path,
                            "the Measurement Set is not writable ('" + p.string() +
                                "'): CORRECTED_DATA and FLAG are written into it "
                                "(CalibrateMsConfig.write_corrected); make it writable or set "
                                "CalibrateMsConfig.write_corrected=false");
    }
  }
}

void check_room_for_new_column(const std::string& ms_path, std::size_t rows, int nchan, int npol) {
  // The tiling of MsColumnWriter's new columns (detail::add_visibility_column): tiles of
  // min(65536, max(1, 2^20 / row_bytes)) rows.
  const double row_bytes = double(nchan) * npol * 8;
  const double tile_rows = std::max(1.0, std::min(65536.0, std::floor(1048576.0 / row_bytes)));
  const double need = std::max(1.0, std::ceil(double(rows) / tile_rows)) * tile_rows * row_bytes;
  std::string limit;
  const std::int64_t free_bytes = free_disk_bytes(ms_path);
  if (free_bytes >= 0 && need > double(free_bytes)) {
    limit = format_bytes(double(free_bytes)) + " free on its disk";
  }
  struct rlimit fsize {};
  if (limit.empty() && ::getrlimit(RLIMIT_FSIZE, &fsize) == 0 && fsize.rlim_cur != RLIM_INFINITY &&
      need > double(fsize.rlim_cur)) {
    limit = "a file-size limit of " + format_bytes(double(fsize.rlim_cur)) + " (ulimit -f)";
  }
  if (!limit.empty()) {
    throw Error::in_file(ms_path, 0,
                         "no room for the CORRECTED_DATA column: it needs about " +
                             format_bytes(need) + " but there is " + limit +
                             "; the Measurement Set was not changed (free some space, or set "
                             "CalibrateMsConfig.write_corrected=false)");
  }
}

RunEstimate calibration_estimate(const CalibrateMsConfig& c, std::size_t num_rows, int n, int nchan,
                                 int npol) {
  const double rows_per_time = double(n) * (n + 1) / 2;  // baselines with autocorrelations
  const double rows = c.times_per_solution <= 0
                          ? double(num_rows)
                          : std::min(double(num_rows), c.times_per_solution * rows_per_time);
  const double samples = rows * nchan * npol;
  const double t = c.precision == Precision::Double ? 8 : 4;  // bytes of the solver's real type
  // Per sample: DATA, model (8 bytes each) and FLAG (1) read as floats, for this interval and
  // the next; the cells' data, model (2t each) and weight (t), their station pair (8 bytes
  // per row and channel); CORRECTED_DATA for this interval and the one being written (8 each).
  const double per_sample = 2 * 17 + 5 * t + 8.0 / npol + 2 * 8;
  double memory = samples * per_sample;
  if (c.options.type != GainType::FullJones) {
    const int csol =
        c.channels_per_solution <= 0 ? nchan : std::min(c.channels_per_solution, nchan);
    const double groups = std::ceil(double(nchan) / csol);
    const double receptors = double(num_receptors(c.options.type, n));
    memory += groups * receptors * receptors * 3 * t;  // A (complex) and B (real)
  }
  RunEstimate e;
  e.what = "calibration of " + std::to_string(num_rows) + " rows x " + std::to_string(nchan) +
           " channel(s) (" + std::to_string(n) + " stations)";
  e.memory_bytes = memory;
  e.setting_hint =
      "CalibrateMsConfig.times_per_solution and CalibrateMsConfig.channels_per_solution";
  return e;
}

void check_calibration(const CalibrateMsConfig& c, const std::vector<std::string>& extra_inputs,
                       Logger* log) {
  std::vector<std::string> inputs = calibration_inputs(c);
  inputs.insert(inputs.end(), extra_inputs.begin(), extra_inputs.end());
  check_outputs(calibration_outputs(c), inputs);
  {
    const io::MsReader ms(c.ms_path, io::MsReader::Access::Shared);
    check_settings_against_ms(c, ms);
    check_run_size(
        calibration_estimate(c, ms.num_rows(), ms.num_stations(), ms.num_channels(), ms.num_pols()),
        c.force, log);
    // The sky model is read now (again by the run: calibration sky models are small), so
    // that a bad file is reported as bad input with its line, not as a failed run.
    if (!c.sky_model_path.empty()) {
      const std::array<double, 2> centre = ms.phase_centre_rad();
      const SkyPredictor sky(c.sky_model_path, centre[0], centre[1], ms.channel_frequencies_hz(),
                             ms.num_pols());
      if (sky.num_sources() == 0) {
        throw Error::in_field("CalibrateMsConfig.sky_model_path", c.sky_model_path,
                              "the sky model has no sources: nothing to calibrate against");
      }
    }
  }
  check_writable(c);
}

}  // namespace fringe::calibrate
