// Calibration of a Measurement Set (apps/calibrate, docs/calibration.md): reads the data and
// model columns (or predicts the model from a sky model, sky_predict.h) per solution interval,
// builds one cell per (interval, channel group), solves them with StEFCal (Scalar and Diagonal:
// normal equations solved as one batch per interval on a GPU when asked and available, else OpenMP
// on the CPU; Full-Jones: CPU), and writes the gain table (+ CSV) and CORRECTED_DATA = G_p^-1 DATA
// G_q^-H (rows of unsolved stations flagged). Rows must be in time order (as every fringe and OSKAR
// MS is); autocorrelations are corrected but not used for solving. Errors name the MS, the column
// or the config field ("CalibrateMsConfig.data_column", ...).
#pragma once

#include <string>

#include "fringe/calibrate/cal_data.h"
#include "fringe/core/device.h"
#include "fringe/core/log.h"
#include "fringe/core/precision.h"

namespace fringe::calibrate {

struct CalibrateMsConfig {
  std::string ms_path;
  std::string data_column = "DATA";
  std::string model_column = "MODEL_DATA";
  std::string sky_model_path;  // non-empty: model predicted from this sky model (sky_predict.h)
  CalOptions options;
  int times_per_solution = 1;               // 0 = all times
  int channels_per_solution = 0;            // 0 = all channels
  Precision precision = Precision::Double;  // of the solver (the MS is read as floats)
  // GPUs (core/device.h, choose_gpus): at most one is used, for the solver and the sky model's
  // prediction; none (or none usable): the CPU.
  DeviceRequest devices{.use_gpus = true, .cuda_device_ids = {}, .num_devices = 0};
  std::string gains_path;  // "" = <ms_path>.gains
  bool write_corrected = true;
  bool force = false;  // --force: run although the memory estimate exceeds what is available
};

struct CalibrateMsResult {
  std::string gains_path;
  std::string backend;  // "cpu" or "gpu <CUDA index>"
  int num_cells = 0;
  int num_converged = 0, num_stalled = 0, num_max_iterations = 0, num_no_data = 0;
  int min_iterations = 0, max_iterations = 0;
  double mean_iterations = 0;
  int num_flagged_station_cells = 0;     // (cell, station) pairs not solved
  double rms_before = 0, rms_after = 0;  // weighted over every cell (Jy)
  // Wall-clock seconds of each stage. Reading and writing run on I/O threads (one per storage
  // manager of the columns used), overlapping the rest (read_sec: the column reads' times
  // summed over those threads; write_sec: CORRECTED_DATA's and FLAG's writes, likewise;
  // read_wait_sec, write_wait_sec: what the calibration waited for them). solve_sec = normal_eq_sec
  // (A and B, or the full-Jones normal equations, on the CPU) + solver_sec (StEFCal, with the
  // copies to and from the GPU)
  // + residual_sec (gains to Jones, residuals); correct_sec: computing CORRECTED_DATA.
  double read_sec = 0, read_wait_sec = 0, predict_sec = 0, reorder_sec = 0, solve_sec = 0,
         correct_sec = 0, write_sec = 0, write_wait_sec = 0;
  double write_flags_sec = 0;  // FLAG's part of write_sec
  double normal_eq_sec = 0, solver_sec = 0, residual_sec = 0;
};

CalibrateMsResult calibrate_ms(const CalibrateMsConfig& config, Logger* log);

}  // namespace fringe::calibrate
