// Random calibration problems with known gains for the StEFCal tests: a model of random
// Hermitian visibilities (every baseline, several samples), true gains, data = G M G^H (+
// optional complex Gaussian noise of variance sigma^2 per visibility).
#pragma once

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "fringe/calibrate/cal_data.h"

namespace cal_test {

using fringe::Complex;
using fringe::Jones;
using fringe::calibrate::CalCell;
using fringe::calibrate::GainType;

struct Problem {
  CalCell<double> cell;
  std::vector<Jones<double>> true_gains;
};

inline Complex<double> rand_c(std::mt19937_64& rng, double scale = 1.0) {
  std::normal_distribution<double> n(0.0, scale / std::sqrt(2.0));
  return {n(rng), n(rng)};
}

// polarised_model: random XY, YX and XX != YY; otherwise XX = YY = a random complex value,
// XY = YX = 0 (an unpolarised sky).
inline Problem make_problem(int num_stations, int num_samples, GainType type, bool polarised_model,
                            double sigma, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> amp(0.6, 1.4), phase(-M_PI, M_PI);
  Problem pr;
  pr.true_gains.resize(num_stations);
  for (auto& g : pr.true_gains) {
    const Complex<double> x = fringe::polar(amp(rng), phase(rng));
    const Complex<double> y = fringe::polar(amp(rng), phase(rng));
    if (type == GainType::Scalar) {
      g = fringe::jones_diagonal(x, x);
    } else if (type == GainType::Diagonal) {
      g = fringe::jones_diagonal(x, y);
    } else {
      g = {x, rand_c(rng, 0.3), rand_c(rng, 0.3), y};
    }
  }
  auto& c = pr.cell;
  c.num_stations = num_stations;
  c.num_pols = 4;
  for (int s = 0; s < num_samples; ++s) {
    for (int p = 0; p < num_stations; ++p) {
      for (int q = p + 1; q < num_stations; ++q) {
        Jones<double> m;
        if (polarised_model) {
          m = {rand_c(rng) + Complex<double>{1.0, 0.0}, rand_c(rng, 0.5), rand_c(rng, 0.5),
               rand_c(rng) + Complex<double>{1.0, 0.0}};
        } else {
          const Complex<double> i = rand_c(rng) + Complex<double>{1.0, 0.0};
          m = {i, {0, 0}, {0, 0}, i};
        }
        const Jones<double> r = fringe::jones_sandwich(pr.true_gains[p], m, pr.true_gains[q]);
        const Complex<double> mv[4] = {m.a, m.b, m.c, m.d}, rv[4] = {r.a, r.b, r.c, r.d};
        // Half the rows stored as (q, p) with the conjugate transpose, as an MS may.
        const bool swap = ((p + q + s) % 2) == 1;
        c.station1.push_back(swap ? q : p);
        c.station2.push_back(swap ? p : q);
        for (int k = 0; k < 4; ++k) {
          const int kk = swap ? (k == 1 ? 2 : k == 2 ? 1 : k) : k;
          Complex<double> mk = mv[kk], rk = rv[kk];
          if (swap) {
            mk = fringe::conj(mk);
            rk = fringe::conj(rk);
          }
          if (sigma > 0) rk += rand_c(rng, sigma);
          c.model.push_back(mk);
          c.data.push_back(rk);
          c.weight.push_back(1.0);
        }
      }
    }
  }
  return pr;
}

// Largest |G_sol - G_true|_F / |G_true|_F over unflagged stations, both referenced the same way.
inline double max_relative_error(const std::vector<Jones<double>>& sol,
                                 std::vector<Jones<double>> truth, GainType type, int reference,
                                 const std::vector<std::uint8_t>& flags) {
  if (type == GainType::FullJones) {
    fringe::calibrate::fix_reference_phase_jones(truth, reference);
  } else {
    std::vector<Complex<double>> g;
    for (const auto& j : truth) {
      g.push_back(j.a);
      if (type == GainType::Diagonal) g.push_back(j.d);
    }
    truth =
        fringe::calibrate::receptor_gains_to_jones(type, int(truth.size()), g, reference, flags);
  }
  double worst = 0;
  for (std::size_t p = 0; p < sol.size(); ++p) {
    if (flags[p]) continue;
    worst = std::max(
        worst, std::sqrt(fringe::jones_norm2(sol[p] - truth[p]) / fringe::jones_norm2(truth[p])));
  }
  return worst;
}

}  // namespace cal_test
