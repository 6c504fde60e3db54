// Baseline numbering shared by the whole pipeline (OSKAR's order; docs/conventions.md,
// "Baselines and their order"): station pairs (p, q) with p < q are numbered (0,1), (0,2),
// ..., (0,N-1), (1,2), ..., so
//   b(p, q) = p (N - 1) - p (p - 1) / 2 + q - p - 1        (0 <= p < q < N).
// All functions are constexpr and compile as C++17 (fringe/io/ms is a C++17 target).
#pragma once

#include <cstddef>
#include <utility>

namespace fringe::vis {

// Number of cross-correlation baselines of n stations: n (n - 1) / 2.
constexpr std::size_t num_baselines(std::size_t num_stations) {
  return num_stations < 2 ? 0 : num_stations * (num_stations - 1) / 2;
}

// Index of baseline (p, q), p < q < num_stations (not checked: callers loop over valid pairs).
constexpr std::size_t baseline_index(std::size_t num_stations, std::size_t p, std::size_t q) {
  // p (p - 1) is 0 for p = 0 also in unsigned arithmetic (0 times anything).
  return p * (num_stations - 1) - p * (p - 1) / 2 + q - p - 1;
}

// The station pair (p, q), p < q, of baseline index b < num_baselines(num_stations).
constexpr std::pair<std::size_t, std::size_t> baseline_stations(std::size_t num_stations,
                                                                std::size_t b) {
  std::size_t p = 0;
  std::size_t first = 0;  // index of baseline (p, p + 1)
  while (p + 1 < num_stations && b >= first + (num_stations - 1 - p)) {
    first += num_stations - 1 - p;
    ++p;
  }
  return {p, p + 1 + (b - first)};
}

}  // namespace fringe::vis
