// The ionosphere Jones term Z from an external TEC screen (docs/ionosphere.md): the typed
// config, the screen cube read from FITS (through io/fits) and the host evaluation of Z per
// station and source (tec_screen_math.h; the CUDA kernel is tec_screen_cuda.h). Errors name
// the config field ("IonosphereConfig.member") or the file.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/core/jones.h"
#include "fringe/jones/tec_screen_math.h"

namespace fringe::jones {

struct IonosphereConfig {
  bool enable = false;      // telescope/ionosphere_screen_type = External
  std::string fits_file;    // resolved path of the TEC cube
  double height_m = 300e3;  // screen height above the array, m
  double pixel_size_m = 0;  // > 0; 0: CDELT1 of the file
  // Seconds between planes: > 0 chooses the plane of each time by rounding; 0 uses plane t
  // for time step t; < 0: CDELT3 of the file.
  double time_interval_sec = -1;
  bool isoplanatic = false;  // every source sees the pierce point above the station
};

// A TEC cube (x, y, time) in TECU, kept in memory in double; read once per run.
class TecScreen {
 public:
  // Reads config.fits_file: NAXIS 3 (or 2: one plane), NAXIS1, NAXIS2 >= 1; pixel size and
  // time interval from the config or the header (CDELT1, CDELT3). Throws fringe::Error naming
  // the file and what was expected (missing file, wrong shape, missing CDELT, non-finite
  // values), or the field for bad config values.
  explicit TecScreen(const IonosphereConfig& config);

  int nx() const { return nx_; }
  int ny() const { return ny_; }
  int nt() const { return nt_; }
  double pixel_size_m() const { return pixel_size_m_; }
  double time_interval_sec() const { return time_interval_sec_; }
  const IonosphereConfig& config() const { return config_; }

  // The plane of observation time step `time_index` (0-based) of an observation starting at
  // start_mjd with steps of interval_sec: OSKAR 2.13's choice, clamped to the last plane.
  int plane_index(int time_index, double start_mjd, double interval_sec) const;
  // Plane `k` (0 <= k < nt), [y][x].
  std::span<const double> plane(int k) const;

 private:
  IonosphereConfig config_;
  int nx_ = 0, ny_ = 0, nt_ = 0;
  double pixel_size_m_ = 0, time_interval_sec_ = 0;
  std::vector<double> data_;  // [t][y][x]
};

// A plane in precision T for the kernels (`values` keeps the converted copy alive).
template <typename T>
TecPlaneView<T> tec_plane_view(const TecScreen& screen, int plane, std::vector<T>& values);

// jones[p * n + i] = jones[p * n + i] Z(p, i) for the stations p and points i of `points`
// (n = points.num_points; tec_screen_geometry.h fills them) at frequency freq_hz. Scalar: the
// phase (points.b_los is not read); Full: the phase times the Faraday rotation (b_los must be
// set), multiplied from the right (E Z, OSKAR's order).
template <typename T>
void apply_tec_screen(const TecPlaneView<T>& plane, const TecPoints& points, double freq_hz,
                      std::span<Complex<T>> jones);
template <typename T>
void apply_tec_screen(const TecPlaneView<T>& plane, const TecPoints& points, double freq_hz,
                      std::span<Jones<T>> jones);

}  // namespace fringe::jones
