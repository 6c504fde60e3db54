// Diagonal station gains applied to a block of visibilities: V_pq -> G_p V_pq G_q^H and
// autocorrelations A_p -> G_p A_p G_p^H, with G = diag(g_X, g_Y) (docs/conventions.md,
// "Phase sign and the measurement equation": J -> G J for every source of station p, so the
// sum over sources of J_p B J_q^H becomes G_p V G_q^H because G does not depend on the source).
// Scalar blocks use g_X: v -> g_X,p v conj(g_X,q). The arithmetic is in double whatever T is.
// Used by the gain corruption (corruption_gains.h) and OSKAR's gain model
// (station_gain_model.h).
#pragma once

#include <cstddef>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/core/jones.h"
#include "fringe/vis/vis_block.h"

namespace fringe::sim {

// gain_of(t, c, p, pol) -> Complex<double>: the gain of station p, polarisation pol (0 = X,
// 1 = Y), at block time t (0-based within the block) and block channel c.
template <typename T, typename GainOf>
void apply_diagonal_station_gains(vis::VisBlock<T>& block, GainOf&& gain_of) {
  const int n = block.num_stations();
  const bool full = block.num_pols() == 4;
  std::vector<Jones<double>> g(static_cast<std::size_t>(n));
  for (int t = 0; t < block.num_times(); ++t) {
    for (int c = 0; c < block.num_channels(); ++c) {
      for (int p = 0; p < n; ++p) {
        const Complex<double> gx = gain_of(t, c, p, 0);
        g[std::size_t(p)] = jones_diagonal(gx, full ? gain_of(t, c, p, 1) : gx);
      }
      auto apply = [&](Complex<T>* v, int p, int q) {
        const Jones<double>& gp = g[std::size_t(p)];
        const Jones<double>& gq = g[std::size_t(q)];
        if (full) {
          const Jones<double> m{complex_cast<double>(v[0]), complex_cast<double>(v[1]),
                                complex_cast<double>(v[2]), complex_cast<double>(v[3])};
          const Jones<double> r = jones_sandwich(gp, m, gq);
          v[0] = complex_cast<T>(r.a);
          v[1] = complex_cast<T>(r.b);
          v[2] = complex_cast<T>(r.c);
          v[3] = complex_cast<T>(r.d);
        } else {
          v[0] = complex_cast<T>(gp.a * complex_cast<double>(v[0]) * conj(gq.a));
        }
      };
      if (block.has_cross()) {
        std::size_t b = 0;
        for (int p = 0; p < n; ++p)
          for (int q = p + 1; q < n; ++q, ++b) apply(&block.cross(t, c, b, 0), p, q);
      }
      if (block.has_autos()) {
        for (int p = 0; p < n; ++p) apply(&block.autos(t, c, p, 0), p, p);
      }
    }
  }
}

}  // namespace fringe::sim
