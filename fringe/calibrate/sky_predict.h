// Model visibilities of a sky model for the rows of a Measurement Set (calibrate's
// CalibrateMsConfig.sky_model_path, instead of a model column): point sources with their
// spectra at each channel (sky/spectrum.h), through fringe's direct predict on the CPU
// (predict/predict.h) or, after use_gpu(), on a GPU (predict/predict_cuda.h). No station beam (the
// apparent sky is the sky: isotropic, unpolarised receptors), no smearing. Sources with a Gaussian
// size are refused (not supported here yet). Station (u, v, w) come from the rows' UVW: UVW_row =
// uvw_a1 - uvw_a2, with one station of every connected set of baselines at 0 (the phases depend
// only on differences), so no astrometry is repeated. Errors name the sky file.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "fringe/core/complex.h"

namespace fringe::calibrate {

class SkyPredictor {
 public:
  // Phase centre (ra0, dec0) in radians, channel frequencies in Hz, 4 or 1 pols.
  SkyPredictor(const std::string& sky_path, double ra0_rad, double dec0_rad,
               std::vector<double> frequencies_hz, int num_pols);

  std::size_t num_sources() const { return l_.size(); }

  // Predict on CUDA GPU `device` (predict_direct_cuda: the same sums, double precision; host
  // arrays copied per time and channel); -1: on the CPU (the default). Throws fringe::Error if
  // this build has no CUDA back end.
  void use_gpu(int device);
  int gpu() const { return gpu_; }

  // Model of the rows of ONE time (all baselines of a dump): model[row][channel][pol].
  // Autocorrelations (a1 == a2) get the sum of the sources' brightness.
  void predict_time(int num_stations, const int* a1, const int* a2,
                    const std::array<double, 3>* uvw, std::size_t num_rows,
                    Complex<float>* model) const;

 private:
  std::string path_;
  std::vector<double> frequencies_hz_;
  int num_pols_ = 4;
  int gpu_ = -1;
  std::vector<double> l_, m_, n_;
  // Stokes per channel: [channel][source].
  std::vector<std::vector<double>> i_, q_, u_, v_;
};

}  // namespace fringe::calibrate
