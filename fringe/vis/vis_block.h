// VisBlock<T>: one block of visibilities, num_times x num_channels x all baselines (and/or
// all stations for auto-correlations) x num_pols, in float or double precision.
//   cross[time][channel][baseline][pol]   baseline b(p, q), p < q (fringe/vis/baseline.h)
//   autos[time][channel][station][pol]
// pol is fastest, in OSKAR's order XX, XY, YX, YY (Full) or one value (Scalar). Cross data are
// always V_pq = sum_s J_p B J_q^H for p < q with UVW_pq = uvw_p - uvw_q in metres (CASA
// convention); a writer converts to other conventions. Times are dump centres as
// MJD(UTC) * 86400 seconds, frequencies channel centres in Hz. start_time_index and
// start_channel_index place the block inside the whole observation (VisMeta axes).
// Compiles as C++17 (fringe/io/ms includes it).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/core/error.h"
#include "fringe/vis/baseline.h"
#include "fringe/vis/vis_meta.h"

namespace fringe::vis {

template <typename T>
class VisBlock {
 public:
  using value_type = Complex<T>;

  VisBlock() = default;
  // Zero-filled block. has_cross / has_autos select which arrays are allocated.
  VisBlock(int num_times, int num_channels, int num_stations, PolMode pol_mode, bool has_cross,
           bool has_autos)
      : num_times_(num_times),
        num_channels_(num_channels),
        num_stations_(num_stations),
        num_pols_(vis::num_pols(pol_mode)),
        pol_mode_(pol_mode),
        has_cross_(has_cross),
        has_autos_(has_autos) {
    if (num_times < 0 || num_channels < 0 || num_stations < 0) {
      throw Error("VisBlock: negative dimension (times " + std::to_string(num_times) +
                  ", channels " + std::to_string(num_channels) + ", stations " +
                  std::to_string(num_stations) + ")");
    }
    const std::size_t tc = std::size_t(num_times_) * std::size_t(num_channels_);
    if (has_cross_) cross_.assign(tc * num_baselines() * num_pols_, Complex<T>{T(0), T(0)});
    if (has_autos_) autos_.assign(tc * std::size_t(num_stations_) * num_pols_, {T(0), T(0)});
    uvw_.assign(std::size_t(num_times_) * num_baselines(), {0.0, 0.0, 0.0});
    times_mjd_utc_sec_.assign(num_times_, 0.0);
    frequencies_hz_.assign(num_channels_, 0.0);
  }

  // Dimensions.
  int num_times() const { return num_times_; }
  int num_channels() const { return num_channels_; }
  int num_stations() const { return num_stations_; }
  std::size_t num_baselines() const { return vis::num_baselines(std::size_t(num_stations_)); }
  int num_pols() const { return num_pols_; }
  PolMode pol_mode() const { return pol_mode_; }
  bool has_cross() const { return has_cross_; }
  bool has_autos() const { return has_autos_; }

  // Placement in the observation (indices of this block's first time and channel).
  int start_time_index = 0;
  int start_channel_index = 0;

  // Flat indices (pol fastest).
  std::size_t cross_index(int t, int c, std::size_t b, int pol) const {
    return ((std::size_t(t) * num_channels_ + c) * num_baselines() + b) * num_pols_ + pol;
  }
  std::size_t auto_index(int t, int c, int s, int pol) const {
    return ((std::size_t(t) * num_channels_ + c) * std::size_t(num_stations_) + s) * num_pols_ +
           pol;
  }

  // Element access (no bounds checks; use the flat arrays for bulk work).
  Complex<T>& cross(int t, int c, std::size_t b, int pol) {
    return cross_[cross_index(t, c, b, pol)];
  }
  const Complex<T>& cross(int t, int c, std::size_t b, int pol) const {
    return cross_[cross_index(t, c, b, pol)];
  }
  Complex<T>& autos(int t, int c, int s, int pol) { return autos_[auto_index(t, c, s, pol)]; }
  const Complex<T>& autos(int t, int c, int s, int pol) const {
    return autos_[auto_index(t, c, s, pol)];
  }
  // Baseline (u, v, w) of baseline b at time t, metres: uvw_p - uvw_q.
  std::array<double, 3>& uvw(int t, std::size_t b) {
    return uvw_[std::size_t(t) * num_baselines() + b];
  }
  const std::array<double, 3>& uvw(int t, std::size_t b) const {
    return uvw_[std::size_t(t) * num_baselines() + b];
  }
  // Dump centre of time t, MJD(UTC) * 86400 s; centre of channel c, Hz.
  double& time_mjd_utc_sec(int t) { return times_mjd_utc_sec_[t]; }
  double time_mjd_utc_sec(int t) const { return times_mjd_utc_sec_[t]; }
  double& frequency_hz(int c) { return frequencies_hz_[c]; }
  double frequency_hz(int c) const { return frequencies_hz_[c]; }

  // The flat arrays.
  std::vector<Complex<T>>& cross_data() { return cross_; }
  const std::vector<Complex<T>>& cross_data() const { return cross_; }
  std::vector<Complex<T>>& auto_data() { return autos_; }
  const std::vector<Complex<T>>& auto_data() const { return autos_; }
  std::vector<std::array<double, 3>>& uvw_data() { return uvw_; }
  const std::vector<std::array<double, 3>>& uvw_data() const { return uvw_; }
  std::vector<double>& times_mjd_utc_sec() { return times_mjd_utc_sec_; }
  const std::vector<double>& times_mjd_utc_sec() const { return times_mjd_utc_sec_; }
  std::vector<double>& frequencies_hz() { return frequencies_hz_; }
  const std::vector<double>& frequencies_hz() const { return frequencies_hz_; }

  // Sets every visibility to zero (keeps UVW, times and frequencies).
  void clear_data() {
    for (auto& v : cross_) v = {T(0), T(0)};
    for (auto& v : autos_) v = {T(0), T(0)};
  }

  // Fills times and frequencies from the observation axes of meta for a block that starts at
  // (start_time, start_channel): dump centres and channel centres (VisMeta helpers).
  void set_axes(const VisMeta& meta, int start_time, int start_channel) {
    start_time_index = start_time;
    start_channel_index = start_channel;
    for (int t = 0; t < num_times_; ++t) {
      times_mjd_utc_sec_[t] = meta.time_centre_mjd_utc_sec(start_time + t);
    }
    for (int c = 0; c < num_channels_; ++c) {
      frequencies_hz_[c] = meta.channel_frequency_hz(start_channel + c);
    }
  }

 private:
  int num_times_ = 0;
  int num_channels_ = 0;
  int num_stations_ = 0;
  int num_pols_ = 4;
  PolMode pol_mode_ = PolMode::Full;
  bool has_cross_ = false;
  bool has_autos_ = false;
  std::vector<Complex<T>> cross_;
  std::vector<Complex<T>> autos_;
  std::vector<std::array<double, 3>> uvw_;
  std::vector<double> times_mjd_utc_sec_;
  std::vector<double> frequencies_hz_;
};

extern template class VisBlock<float>;
extern template class VisBlock<double>;

}  // namespace fringe::vis
