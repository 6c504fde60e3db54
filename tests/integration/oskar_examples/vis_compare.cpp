// vis_compare REFERENCE.vis OURS.vis TOLERANCE
//
// Compares two OSKAR visibility files of the same run: the header (stations, times, channels,
// blocks, polarisation type, products, frequencies, start time, phase centre) must agree, and
// the largest |V_ours - V_ref| over every cross- and auto-correlation of every block, divided
// by the largest |V_ref|, must not exceed TOLERANCE. Station (u, v, w) are compared the same
// way, relative to the largest |uvw_ref|. Prints both ratios; exit 0 when within tolerance,
// 1 when not, 2 on unreadable input. Used by the OSKAR-examples integration tests, where the
// reference files were written by OSKAR 2.13 itself.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>

#include "fringe/core/error.h"
#include "fringe/io/vis/vis_file.h"

namespace {

int fail(const std::string& what) {
  std::cout << "FAIL: " << what << "\n";
  return 1;
}

struct Ratio {
  double peak = 0.0;
  double diff = 0.0;
  void add(double ref_re, double ref_im, double re, double im) {
    peak = std::max(peak, std::hypot(ref_re, ref_im));
    diff = std::max(diff, std::hypot(re - ref_re, im - ref_im));
  }
  double value() const { return peak > 0.0 ? diff / peak : (diff > 0.0 ? INFINITY : 0.0); }
};

int compare(const std::string& ref_path, const std::string& our_path, double tol) {
  const fringe::io::VisFileReader ref(ref_path), ours(our_path);
  const auto& a = ref.header();
  const auto& b = ours.header();
  if (a.num_stations != b.num_stations) return fail("number of stations differs");
  if (a.num_times_total != b.num_times_total) return fail("number of times differs");
  if (a.num_channels_total != b.num_channels_total) return fail("number of channels differs");
  if (a.max_times_per_block != b.max_times_per_block) return fail("times per block differ");
  if (a.max_channels_per_block != b.max_channels_per_block)
    return fail("channels per block differ");
  if (a.pol_type != b.pol_type) return fail("polarisation type differs");
  if (a.write_autocorrelations != b.write_autocorrelations) return fail("autocorrelations differ");
  if (a.write_crosscorrelations != b.write_crosscorrelations)
    return fail("cross-correlations differ");
  if (a.phase_centre_type != b.phase_centre_type) return fail("phase-centre type differs");
  // Header values are written from the same settings: equal to double rounding (Hz, deg, MJD).
  if (std::abs(a.freq_start_hz - b.freq_start_hz) > 1e-6) return fail("start frequency differs");
  if (std::abs(a.freq_inc_hz - b.freq_inc_hz) > 1e-6) return fail("frequency increment differs");
  if (std::abs(a.time_start_mjd_utc - b.time_start_mjd_utc) > 1e-9)
    return fail("start time differs");
  if (std::abs(a.time_inc_sec - b.time_inc_sec) > 1e-9) return fail("time increment differs");
  for (int i = 0; i < 2; ++i)
    if (std::abs(a.phase_centre_deg[i] - b.phase_centre_deg[i]) > 1e-9)
      return fail("phase centre differs");
  if (ref.num_blocks() != ours.num_blocks()) return fail("number of blocks differs");

  Ratio vis, uvw;
  for (int k = 0; k < ref.num_blocks(); ++k) {
    const auto va = ref.read_block<double>(k);
    const auto vb = ours.read_block<double>(k);
    if (va.num_times() != vb.num_times() || va.num_channels() != vb.num_channels())
      return fail("block " + std::to_string(k) + " has different dimensions");
    for (int t = 0; t < va.num_times(); ++t)
      for (int c = 0; c < va.num_channels(); ++c) {
        if (a.write_crosscorrelations)
          for (std::size_t bl = 0; bl < va.num_baselines(); ++bl)
            for (int p = 0; p < va.num_pols(); ++p) {
              const auto x = va.cross(t, c, bl, p);
              const auto y = vb.cross(t, c, bl, p);
              vis.add(x.re, x.im, y.re, y.im);
            }
        if (a.write_autocorrelations)
          for (int s = 0; s < va.num_stations(); ++s)
            for (int p = 0; p < va.num_pols(); ++p) {
              const auto x = va.autos(t, c, s, p);
              const auto y = vb.autos(t, c, s, p);
              vis.add(x.re, x.im, y.re, y.im);
            }
      }
    const auto ua = ref.read_station_uvw(k);
    const auto ub = ours.read_station_uvw(k);
    if (ua.size() != ub.size()) return fail("block " + std::to_string(k) + ": station uvw sizes");
    for (std::size_t i = 0; i < ua.size(); ++i)
      for (int j = 0; j < 3; ++j) uvw.add(ua[i][j], 0.0, ub[i][j], 0.0);
  }
  std::cout << "visibilities: max |ours - ref| / max |ref| = " << vis.value() << " (peak "
            << vis.peak << ")\n"
            << "station uvw:  max |ours - ref| / max |ref| = " << uvw.value() << "\n";
  if (!(vis.peak > 0.0)) return fail("the reference holds no signal");
  if (!(vis.value() <= tol)) return fail("visibilities differ by more than " + std::to_string(tol));
  if (!(uvw.value() <= tol)) return fail("station uvw differ by more than " + std::to_string(tol));
  std::cout << "ok\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: vis_compare REFERENCE.vis OURS.vis TOLERANCE\n";
    return 2;
  }
  try {
    return compare(argv[1], argv[2], std::strtod(argv[3], nullptr));
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
}
