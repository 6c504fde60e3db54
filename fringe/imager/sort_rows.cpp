#include "fringe/imager/sort_rows.h"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

namespace fringe::imager {

namespace {

// The rows in (station1, station2, time) order, equal keys in their order in v. Most inputs
// are time-ordered already, so a counting sort by baseline (O(rows)) gives the order when
// every baseline's times then come out non-decreasing; otherwise a comparison sort.
template <typename T>
std::vector<std::size_t> baseline_order(const VisBuffer<T>& v) {
  const std::size_t n = v.num_rows;
  std::vector<std::size_t> order(n);
  int stations = 0;
  bool valid = true;
  for (std::size_t r = 0; r < n; ++r) {
    stations = std::max({stations, v.station1[r] + 1, v.station2[r] + 1});
    valid = valid && v.station1[r] >= 0 && v.station2[r] >= 0;
  }
  const std::size_t keys = std::size_t(stations) * std::size_t(stations);
  if (valid && n > 0 && keys <= std::max<std::size_t>(4 * n, 1 << 16)) {
    std::vector<std::size_t> first(keys + 1, 0);
    auto key = [&](std::size_t r) { return std::size_t(v.station1[r]) * stations + v.station2[r]; };
    for (std::size_t r = 0; r < n; ++r) ++first[key(r) + 1];
    for (std::size_t k = 0; k < keys; ++k) first[k + 1] += first[k];
    for (std::size_t r = 0; r < n; ++r) order[first[key(r)]++] = r;
    bool sorted = true;
    for (std::size_t i = 1; i < n && sorted; ++i)
      sorted = key(order[i]) != key(order[i - 1]) || v.time_s[order[i]] >= v.time_s[order[i - 1]];
    if (sorted) return order;
  }
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (v.station1[a] != v.station1[b]) return v.station1[a] < v.station1[b];
    if (v.station2[a] != v.station2[b]) return v.station2[a] < v.station2[b];
    return v.time_s[a] < v.time_s[b];
  });
  return order;
}

}  // namespace

template <typename T>
void sort_rows_by_baseline(VisBuffer<T>& v, VisBuffer<T>& o) {
  const std::size_t n = v.num_rows;
  std::vector<std::size_t> order = baseline_order(v);
  const std::size_t per_row = std::size_t(v.num_channels) * v.num_pols;
  const std::size_t nchan = v.num_channels;
  o.num_rows = n;
  o.num_channels = v.num_channels;
  o.num_pols = v.num_pols;
  o.freq_hz = v.freq_hz;
  o.uvw_m.resize(n);
  o.time_s.resize(n);
  o.baseline.resize(n);
  o.station1.resize(n);
  o.station2.resize(n);
  o.vis.resize(n * per_row);
  o.weight.resize(n * nchan);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = order[i];
    o.uvw_m[i] = v.uvw_m[r];
    o.time_s[i] = v.time_s[r];
    o.baseline[i] = v.baseline[r];
    o.station1[i] = v.station1[r];
    o.station2[i] = v.station2[r];
    std::copy_n(v.vis.begin() + r * per_row, per_row, o.vis.begin() + i * per_row);
    std::copy_n(v.weight.begin() + r * nchan, nchan, o.weight.begin() + i * nchan);
  }
  std::swap(v, o);
}

template void sort_rows_by_baseline<float>(VisBuffer<float>&, VisBuffer<float>&);
template void sort_rows_by_baseline<double>(VisBuffer<double>&, VisBuffer<double>&);

}  // namespace fringe::imager
