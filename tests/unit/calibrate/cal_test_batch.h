// Batches of random calibration problems (cal_test_util.h) in the A, B form of the batched
// solvers, shared by the GPU tests (test_stefcal_gpu.cpp) and the host emulation of the CUDA
// kernel (test_stefcal_emulation.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "cal_test_util.h"
#include "fringe/calibrate/cal_data.h"

namespace cal_test {

// Scalar or diagonal problems: n receptors each, A and B of every problem one after another.
struct Batch {
  int n = 0;
  std::vector<Complex<double>> a;
  std::vector<double> b;
  std::vector<std::vector<Jones<double>>> truth;  // true gains [problem][station]
};

// num problems of a type (Scalar: n = stations, Diagonal: n = 2 stations), one sample per
// baseline, noise sigma, problem k from seed + k.
inline Batch make_batch(int num, int stations, GainType type, double sigma, unsigned seed) {
  Batch batch;
  for (int k = 0; k < num; ++k) {
    const auto pr = make_problem(stations, 1, type, false, sigma, seed + k);
    std::vector<Complex<double>> ak;
    std::vector<double> bk;
    fringe::calibrate::build_normal_equations(pr.cell, type, std::vector<std::uint8_t>(stations, 0),
                                              ak, bk);
    batch.n = fringe::calibrate::num_receptors(type, stations);
    batch.a.insert(batch.a.end(), ak.begin(), ak.end());
    batch.b.insert(batch.b.end(), bk.begin(), bk.end());
    batch.truth.push_back(pr.true_gains);
  }
  return batch;
}

// Problem k without data for receptor p (its row and column of A and B set to 0).
inline void remove_receptor(Batch& batch, int k, int p) {
  const std::size_t n = std::size_t(batch.n), base = std::size_t(k) * n * n;
  for (std::size_t q = 0; q < n; ++q) {
    for (std::size_t i : {base + p * n + q, base + q * n + p}) {
      batch.a[i] = {0, 0};
      batch.b[i] = 0;
    }
  }
}

// Problem k without any data.
inline void remove_problem(Batch& batch, int k) {
  const std::size_t nn = std::size_t(batch.n) * std::size_t(batch.n);
  for (std::size_t i = std::size_t(k) * nn; i < std::size_t(k + 1) * nn; ++i) {
    batch.a[i] = {0, 0};
    batch.b[i] = 0;
  }
}

// Full-Jones problems: cells of a polarised model (a unique solution up to the phase), with
// their A, B (build_jones) and starting gains (the identity unless a test sets them).
struct JonesBatch {
  int n = 0;
  std::vector<Problem> problems;
  std::vector<std::vector<std::uint8_t>> flags;
  std::vector<Complex<double>> a, b;
  std::vector<Jones<double>> start;  // [problem][station]
};

inline JonesBatch make_jones_batch(int num, int stations, double sigma, unsigned seed,
                                   int samples_per_baseline) {
  JonesBatch batch;
  batch.n = stations;
  for (int k = 0; k < num; ++k) {
    batch.problems.push_back(
        make_problem(stations, samples_per_baseline, GainType::FullJones, true, sigma, seed + k));
  }
  batch.start.assign(std::size_t(stations) * num, fringe::jones_identity<double>());
  return batch;
}

// Station flags (flag_stations with min_baselines) and A, B of every problem, as the GPU path
// of calibrate_ms builds them.
inline void build_jones(JonesBatch& batch, int min_baselines) {
  batch.a.clear();
  batch.b.clear();
  batch.flags.clear();
  for (const auto& pr : batch.problems) {
    batch.flags.push_back(fringe::calibrate::flag_stations(pr.cell, min_baselines));
    std::vector<Complex<double>> ak, bk;
    fringe::calibrate::build_full_jones_normal_equations(pr.cell, batch.flags.back(), ak, bk);
    batch.a.insert(batch.a.end(), ak.begin(), ak.end());
    batch.b.insert(batch.b.end(), bk.begin(), bk.end());
  }
}

}  // namespace cal_test
