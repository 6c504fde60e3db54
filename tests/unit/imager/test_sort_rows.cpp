// sort_rows_by_baseline (sort_rows.h): rows in (station1, station2, time) order, every per-row
// array moved with its row, equal keys kept in input order; the counting-sort path (time-
// ordered input) and the comparison path (times out of order) give the same result.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

#include "fringe/imager/sort_rows.h"

namespace fringe::imager {
namespace {

// rows of `stations` stations (p < q), `times` times, time-major; channel values encode the row.
VisBuffer<float> make(int stations, int times, int nchan, int npol) {
  VisBuffer<float> v;
  const int nbl = stations * (stations - 1) / 2;
  v.resize(std::size_t(nbl) * times, nchan, npol);
  v.freq_hz.assign(nchan, 1e8);
  std::size_t r = 0;
  for (int t = 0; t < times; ++t)
    for (int p = 0; p < stations; ++p)
      for (int q = p + 1; q < stations; ++q, ++r) {
        v.station1[r] = p;
        v.station2[r] = q;
        v.baseline[r] = p * stations + q;
        v.time_s[r] = 10.0 * t;
        v.uvw_m[r] = {double(r), -double(r), 0.5 * r};
        for (int c = 0; c < nchan; ++c) {
          v.weight[r * nchan + c] = float(r * nchan + c);
          for (int k = 0; k < npol; ++k)
            v.vis[(r * nchan + c) * npol + k] = {float(r), float(c * npol + k)};
        }
      }
  return v;
}

// Every row's arrays still belong together (uvw and values encode the original row) and the
// keys are in order.
void expect_sorted_and_intact(const VisBuffer<float>& v) {
  for (std::size_t i = 0; i < v.num_rows; ++i) {
    const std::size_t r = std::size_t(v.uvw_m[i][0]);
    EXPECT_EQ(v.uvw_m[i][1], -double(r));
    for (int c = 0; c < v.num_channels; ++c) {
      EXPECT_EQ(v.weight[i * v.num_channels + c], float(r * v.num_channels + c));
      for (int k = 0; k < v.num_pols; ++k)
        EXPECT_EQ(v.vis[(i * v.num_channels + c) * v.num_pols + k].re, float(r));
    }
    if (i == 0) continue;
    const auto a = std::make_tuple(v.station1[i - 1], v.station2[i - 1], v.time_s[i - 1]);
    const auto b = std::make_tuple(v.station1[i], v.station2[i], v.time_s[i]);
    EXPECT_LE(a, b) << i;
    EXPECT_EQ(v.baseline[i], v.station1[i] * 7 + v.station2[i]);
  }
}

TEST(SortRows, TimeMajorInputSortsByBaselineThenTime) {
  VisBuffer<float> v = make(7, 5, 3, 4), scratch;
  sort_rows_by_baseline(v, scratch);
  expect_sorted_and_intact(v);
  // Baseline (0, 1) first, its five times in order: rows 0, 21, 42, ...
  for (int t = 0; t < 5; ++t) EXPECT_EQ(v.uvw_m[t][0], 21.0 * t);
}

TEST(SortRows, TimesOutOfOrderAndRepeatedKeys) {
  VisBuffer<float> v = make(7, 6, 2, 1), scratch;
  std::mt19937 rng(4);
  for (double& t : v.time_s) t = double(rng() % 4);  // out of order, with ties
  VisBuffer<float> ref = v;
  sort_rows_by_baseline(v, scratch);
  expect_sorted_and_intact(v);
  // Ties keep the input order (a stable sort), as std::stable_sort on the keys gives.
  std::vector<std::size_t> order(ref.num_rows);
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::make_tuple(ref.station1[a], ref.station2[a], ref.time_s[a]) <
           std::make_tuple(ref.station1[b], ref.station2[b], ref.time_s[b]);
  });
  for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(v.uvw_m[i][0], double(order[i]));
}

TEST(SortRows, EmptyBuffer) {
  VisBuffer<float> v, scratch;
  v.resize(0, 2, 1);
  sort_rows_by_baseline(v, scratch);
  EXPECT_EQ(v.num_rows, 0u);
}

}  // namespace
}  // namespace fringe::imager
