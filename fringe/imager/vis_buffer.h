// VisBuffer: the visibilities an imager run works on, in memory. For IDG the rows are sorted by
// baseline and then time (so the rows of one baseline are consecutive, as the plan needs); for
// the other algorithms they are in the input files' order.
// vis [row][channel][pol] holds the products to image (1 or 4 per visibility: Stokes or
// linear), weight [row][channel] the imaging weight (0 = not used: flagged, filtered out or
// outside the grid). Units: metres (uvw), Hz, seconds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fringe/core/complex.h"

namespace fringe::imager {

template <typename T>
struct VisBuffer {
  std::size_t num_rows = 0;
  int num_channels = 0;
  int num_pols = 1;                          // 1 or 4
  std::vector<double> freq_hz;               // [channel]
  std::vector<std::array<double, 3>> uvw_m;  // [row]
  std::vector<double> time_s;                // [row]
  std::vector<int> baseline;                 // [row], an id shared by the rows of a baseline
  std::vector<int> station1, station2;       // [row] the baseline's stations (ANTENNA1/2)
  std::vector<Complex<T>> vis;               // [row][channel][pol]
  std::vector<float> weight;                 // [row][channel]

  void resize(std::size_t rows, int channels, int pols) {
    num_rows = rows;
    num_channels = channels;
    num_pols = pols;
    uvw_m.assign(rows, {0.0, 0.0, 0.0});
    time_s.assign(rows, 0.0);
    baseline.assign(rows, 0);
    station1.assign(rows, 0);
    station2.assign(rows, 0);
    vis.assign(rows * channels * pols, Complex<T>{T(0), T(0)});
    weight.assign(rows * channels, 0.0f);
  }
  std::size_t num_visibilities() const { return num_rows * num_channels; }
};

}  // namespace fringe::imager
