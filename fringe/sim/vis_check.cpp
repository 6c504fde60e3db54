#include "fringe/sim/vis_check.h"

#include <cmath>
#include <limits>
#include <utility>

#include "fringe/core/error.h"

namespace fringe::sim {
namespace {

// Finite once stored as float (the Measurement Set's DATA is complex float).
template <typename T>
bool storable(T x) {
  return std::abs(x) <= T(std::numeric_limits<float>::max());  // false for NaN and Inf
}

const char* pol_name(int npol, int p) {
  static const char* const full[] = {"XX", "XY", "YX", "YY"};
  return npol == 4 ? full[p] : "I";
}

template <typename T>
std::string where(const vis::VisBlock<T>& b, const std::string& column, int t, int c, int pol,
                  const std::string& what) {
  return column + " at time index " + std::to_string(b.start_time_index + t) + ", " + what +
         ", channel " + std::to_string(b.start_channel_index + c) + ", " +
         pol_name(b.num_pols(), pol);
}

}  // namespace

void VisScan::merge(const VisScan& later) {
  if (!non_finite && later.non_finite) first_bad = later.first_bad;
  non_finite = non_finite || later.non_finite;
  num_non_finite += later.num_non_finite;
  any_nonzero = any_nonzero || later.any_nonzero;
}

template <typename T>
VisScan scan_block(const vis::VisBlock<T>& b, const std::string& column) {
  VisScan scan;
  const std::size_t ns = std::size_t(b.num_stations());
  const std::size_t nb = b.num_baselines();
  const int npol = b.num_pols();
  auto record = [&](const std::string& text) {
    if (!scan.non_finite) scan.first_bad = text;
    scan.non_finite = true;
    ++scan.num_non_finite;
  };
  // Rows in the order they are written: time, then channel, baseline, polarisation.
  for (int t = 0; t < b.num_times(); ++t) {
    for (std::size_t q = 0; q < nb && b.has_cross(); ++q) {
      const auto& uvw = b.uvw(t, q);
      if (!(std::isfinite(uvw[0]) && std::isfinite(uvw[1]) && std::isfinite(uvw[2]))) {
        const auto [p1, p2] = vis::baseline_stations(ns, q);
        record("UVW at time index " + std::to_string(b.start_time_index + t) + ", baseline " +
               std::to_string(p1) + "-" + std::to_string(p2));
      }
    }
    for (int c = 0; c < b.num_channels(); ++c) {
      if (b.has_autos()) {
        for (std::size_t s = 0; s < ns; ++s) {
          for (int p = 0; p < npol; ++p) {
            const Complex<T>& v = b.autos(t, c, int(s), p);
            if (!storable(v.re) || !storable(v.im)) {
              record(where(b, column, t, c, p, "autocorrelation of station " + std::to_string(s)));
            } else if (v.re != T(0) || v.im != T(0)) {
              scan.any_nonzero = true;
            }
          }
        }
      }
      if (b.has_cross()) {
        for (std::size_t q = 0; q < nb; ++q) {
          for (int p = 0; p < npol; ++p) {
            const Complex<T>& v = b.cross(t, c, q, p);
            if (!storable(v.re) || !storable(v.im)) {
              const auto [p1, p2] = vis::baseline_stations(ns, q);
              record(where(b, column, t, c, p,
                           "baseline " + std::to_string(p1) + "-" + std::to_string(p2)));
            } else if (v.re != T(0) || v.im != T(0)) {
              scan.any_nonzero = true;
            }
          }
        }
      }
    }
  }
  return scan;
}

OutputChecks::OutputChecks(bool input_non_finite, bool strict, Logger* log,
                           std::function<std::string()> zero_reason)
    : input_non_finite_(input_non_finite),
      strict_(strict),
      log_(log),
      zero_reason_(std::move(zero_reason)) {}

void OutputChecks::after_block(const VisScan& so_far) const {
  if (!so_far.non_finite || input_non_finite_) return;
  throw Error("the simulation produced a non-finite value (NaN, or Inf as complex float) in " +
              so_far.first_bad +
              ": check the inputs for absurd values (source fluxes, station positions, element "
              "gains, gain corruption, noise); no Measurement Set was written");
}

void OutputChecks::at_end(const VisScan& all) const {
  if (all.non_finite) {  // only here when the input held NaN/Inf
    log_warning(log_, std::to_string(all.num_non_finite) +
                          " non-finite value(s) were written (the input holds NaN or Inf), the "
                          "first in " +
                          all.first_bad);
  }
  if (all.any_nonzero || all.non_finite) return;
  std::string reason = zero_reason_ ? zero_reason_() : std::string();
  if (input_non_finite_) {
    reason += std::string(reason.empty() ? "" : "; ") +
              "the sky model holds NaN or Inf values, which the flux filters and the horizon "
              "clip drop";
  }
  const std::string message =
      "every visibility in DATA is zero" + (reason.empty() ? std::string() : ": " + reason);
  if (strict_) throw Error(message + " (an error under --strict); no Measurement Set was written");
  log_warning(log_, "****************************************************************");
  log_warning(log_, message);
  log_warning(log_, "****************************************************************");
}

template VisScan scan_block(const vis::VisBlock<float>&, const std::string&);
template VisScan scan_block(const vis::VisBlock<double>&, const std::string&);

}  // namespace fringe::sim
