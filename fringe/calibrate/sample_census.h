// Why a calibration solved nothing (calibrate_ms.cpp, issue 16): counts, over the
// cross-correlation samples of the solution intervals in which no station was solved, how
// many were flagged, had an unusable WEIGHT (NaN, Inf, zero or negative), non-finite DATA or
// model values, or a zero model. Only used on that failure path, so it costs nothing in a
// normal run.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fringe/core/complex.h"

namespace fringe::calibrate {

struct SampleCensus {
  std::size_t samples = 0;     // cross-correlation (row, channel, pol) samples seen
  std::size_t flagged = 0;     // FLAG set
  std::size_t bad_weight = 0;  // WEIGHT NaN, Inf, 0 or negative (unflagged samples)
  std::size_t non_finite = 0;  // DATA or model NaN/Inf (unflagged samples, usable weight)
  std::size_t zero_model = 0;  // model exactly 0 (the rest)
  std::size_t intervals = 0;   // solution intervals counted

  // One interval's columns, flat as MsReader returns them: data, model, flag
  // [row][channel][pol], weight [row][pol].
  void add(const std::vector<int>& ant1, const std::vector<int>& ant2,
           const std::vector<Complex<float>>& data, const std::vector<Complex<float>>& model,
           const std::vector<std::uint8_t>& flag, const std::vector<float>& weight, int nchan,
           int npol) {
    ++intervals;
    for (std::size_t r = 0; r < ant1.size(); ++r) {
      if (ant1[r] == ant2[r]) continue;  // autocorrelations are never used for solving
      for (int ch = 0; ch < nchan; ++ch) {
        for (int k = 0; k < npol; ++k) {
          const std::size_t i = (r * nchan + ch) * npol + k;
          const float w = weight[r * npol + k];
          const Complex<float> d = data[i], m = model[i];
          ++samples;
          if (flag[i]) {
            ++flagged;
          } else if (!std::isfinite(w) || w <= 0) {
            ++bad_weight;
          } else if (!std::isfinite(d.re) || !std::isfinite(d.im) || !std::isfinite(m.re) ||
                     !std::isfinite(m.im)) {
            ++non_finite;
          } else if (m.re == 0 && m.im == 0) {
            ++zero_model;
          }
        }
      }
    }
  }

  // "of 1200 samples: 0 flagged, 1200 with a NaN, infinite, zero or negative WEIGHT, ..."
  std::string summary() const {
    return "of the " + std::to_string(samples) + " cross-correlation samples, " +
           std::to_string(flagged) + " are flagged, " + std::to_string(bad_weight) +
           " have a NaN, infinite, zero or negative WEIGHT, " + std::to_string(non_finite) +
           " have non-finite data or model values and " + std::to_string(zero_model) +
           " a zero model";
  }
};

}  // namespace fringe::calibrate
