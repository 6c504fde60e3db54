// A small random fitting problem and an independent brute-force chi2 for the fit tests: the
// model written from docs/conventions.md with std::complex and explicit 2x2 matrices, the
// Gaussian taper from the source's own major/minor axes (not from the (a, b, c) coefficients).
#pragma once

#include <array>
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "fringe/fit/fit_data.h"
#include "fringe/fit/likelihood.h"

namespace fit_test {

using cd = std::complex<double>;
using M2 = std::array<cd, 4>;  // row-major [[a, b], [c, d]]

inline M2 mul(const M2& x, const M2& y) {
  return {x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3], x[2] * y[0] + x[3] * y[2],
          x[2] * y[1] + x[3] * y[3]};
}
inline M2 herm(const M2& x) {
  return {std::conj(x[0]), std::conj(x[2]), std::conj(x[1]), std::conj(x[3])};
}

struct Problem {
  fringe::fit::ObservedData data;
  fringe::fit::StationJones jones;
  fringe::fit::SourceParameters params;
  fringe::fit::StationGains gains;
  fringe::fit::PhaseCentre centre{0.7, -0.45};
};

// num_stations stations, all baselines at num_times times, num_channels channels, num_sources
// sources (every second one Gaussian), random Jones (when with_jones), gains and weights (a few
// flagged: weight 0, data NaN).
inline Problem make_problem(int num_pols, bool with_jones, unsigned seed = 7, int num_stations = 6,
                            int num_times = 3, int num_channels = 4, int num_sources = 5) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::normal_distribution<double> gauss(0.0, 1.0);
  Problem pr;
  auto& d = pr.data;
  d.num_pols = num_pols;
  d.num_stations = num_stations;
  d.num_channels = num_channels;
  for (int c = 0; c < num_channels; ++c) d.frequency_hz.push_back(100e6 + 7.3e6 * c);
  // Station (u, v, w) in metres per time (random, a 3 km array).
  for (int t = 0; t < num_times; ++t) {
    std::vector<std::array<double, 3>> st(num_stations);
    for (auto& s : st) s = {3000 * gauss(rng), 3000 * gauss(rng), 300 * gauss(rng)};
    for (int p = 0; p < num_stations; ++p) {
      for (int q = p + 1; q < num_stations; ++q) {
        d.antenna1.push_back(p);
        d.antenna2.push_back(q);
        d.time_index.push_back(t);
        for (int k = 0; k < 3; ++k) d.uvw.push_back(st[p][k] - st[q][k]);
      }
    }
  }
  d.num_rows = d.antenna1.size();
  for (std::size_t i = 0; i < d.num_values(); ++i) {
    d.data.push_back({10 * gauss(rng), 10 * gauss(rng)});
    const bool flagged = u01(rng) < 0.05;
    d.weight.push_back(flagged ? 0.0 : 0.5 + u01(rng));
    if (flagged) d.data.back() = {std::nan(""), 0.0};
  }
  auto& p = pr.params;
  p.resize(num_sources);
  using fringe::fit::Param;
  for (int s = 0; s < num_sources; ++s) {
    p[Param::Ra][s] = pr.centre.ra + 0.02 * gauss(rng);
    p[Param::Dec][s] = pr.centre.dec + 0.02 * gauss(rng);
    p[Param::I][s] = 1 + 5 * u01(rng);
    p[Param::Q][s] = 0.3 * gauss(rng);
    p[Param::U][s] = 0.3 * gauss(rng);
    p[Param::V][s] = 0.1 * gauss(rng);
    p[Param::SpectralIndex][s] = -0.7 + 0.2 * gauss(rng);
    p.ref_freq_hz[s] = s == 1 ? 0.0 : 110e6;  // source 1: flat spectrum
    if (s % 2 == 0) {
      p[Param::Major][s] = 1e-4 * (1 + u01(rng));  // ~20-40 arcsec
      p[Param::Minor][s] = 0.5 * p[Param::Major][s];
      p[Param::PositionAngle][s] = 3 * u01(rng);
    }
  }
  for (int s = 0; s < num_stations; ++s) {
    pr.gains.values.push_back({1 + 0.1 * gauss(rng), 0.1 * gauss(rng)});
    pr.gains.values.push_back({1 + 0.1 * gauss(rng), 0.1 * gauss(rng)});
  }
  if (with_jones) {
    auto& j = pr.jones;
    j.num_times = num_times;
    j.num_channels = num_channels;
    j.num_stations = num_stations;
    j.num_sources = num_sources;
    const std::size_t n = std::size_t(num_times) * num_channels * num_stations * num_sources *
                          (num_pols == 4 ? 4 : 1);
    for (std::size_t i = 0; i < n; ++i) {
      const bool diag = num_pols == 1 || (i % 4 == 0 || i % 4 == 3);
      j.values.push_back({(diag ? 1.0 : 0.0) + 0.2 * gauss(rng), 0.2 * gauss(rng)});
    }
  }
  return pr;
}

// The model of visibility (row, channel) as a 2x2 matrix (one product: element 0).
inline M2 reference_model(const Problem& pr, const fringe::fit::SourceParameters& p,
                          const fringe::fit::StationGains& g, std::size_t r, std::size_t c) {
  using fringe::fit::Param;
  const auto& d = pr.data;
  const double c0 = 299792458.0, pi = 3.14159265358979323846;
  const double f = d.frequency_hz[c];
  const double uu = d.uvw[3 * r], vv = d.uvw[3 * r + 1], ww = d.uvw[3 * r + 2];
  const int ap = d.antenna1[r], aq = d.antenna2[r];
  M2 sum{};
  for (std::size_t s = 0; s < p.size(); ++s) {
    const double ra = p[Param::Ra][s], dec = p[Param::Dec][s];
    const double l = std::cos(dec) * std::sin(ra - pr.centre.ra);
    const double m = std::sin(dec) * std::cos(pr.centre.dec) -
                     std::cos(dec) * std::sin(pr.centre.dec) * std::cos(ra - pr.centre.ra);
    const double n = std::sqrt(1 - l * l - m * m);
    const double phase = 2 * pi * f / c0 * (uu * l + vv * m + ww * (n - 1));
    // Taper: FT of an elliptical Gaussian, axes along (sin pa, cos pa) (major) in (l, m).
    const double ul = uu * f / c0, vl = vv * f / c0, pa = p[Param::PositionAngle][s];
    const double u_maj = ul * std::sin(pa) + vl * std::cos(pa);
    const double u_min = ul * std::cos(pa) - vl * std::sin(pa);
    const double k = pi * pi / (4 * std::log(2.0));
    const double maj = p[Param::Major][s], mn = p[Param::Minor][s];
    const double taper = std::exp(-k * (maj * maj * u_maj * u_maj + mn * mn * u_min * u_min));
    const double f0 = p.ref_freq_hz[s];
    const double scale = f0 > 0 ? std::pow(f / f0, p[Param::SpectralIndex][s]) : 1.0;
    // Bandwidth smearing (docs/conventions.md): sinc(pi dnu/nu (U l + V m + W (n - 1))), U in
    // wavelengths.
    double smear = 1.0;
    if (d.channel_bandwidth_hz > 0) {
      const double x = pi * d.channel_bandwidth_hz / f * (ul * l + vl * m + ww * f / c0 * (n - 1));
      smear = x == 0 ? 1.0 : std::sin(x) / x;
    }
    if (!d.time_smearing.empty()) {
      const double* tc = &d.time_smearing[3 * r];
      const double x = f / c0 * (tc[0] * l + tc[1] * m + tc[2] * (n - 1));
      smear *= x == 0 ? 1.0 : std::sin(x) / x;
    }
    const cd coef = std::polar(taper * scale * smear, phase);
    const double I = p[Param::I][s], Q = p[Param::Q][s], U = p[Param::U][s], V = p[Param::V][s];
    M2 b = {cd(I + Q), cd(U, V), cd(U, -V), cd(I - Q)};
    if (d.num_pols == 1) b = {cd(I), 0, 0, 0};
    if (!pr.jones.empty()) {
      const std::size_t per = d.num_pols == 4 ? 4 : 1;
      const std::size_t base =
          ((std::size_t(d.time_index[r]) * d.num_channels + c) * d.num_stations) * p.size();
      auto jm = [&](int st) {
        const auto* v = &pr.jones.values[(base + std::size_t(st) * p.size() + s) * per];
        if (per == 1) return M2{cd(v[0].re, v[0].im), 0, 0, 0};
        return M2{cd(v[0].re, v[0].im), cd(v[1].re, v[1].im), cd(v[2].re, v[2].im),
                  cd(v[3].re, v[3].im)};
      };
      b = mul(mul(jm(ap), b), herm(jm(aq)));
    }
    for (int k2 = 0; k2 < 4; ++k2) sum[k2] += coef * b[k2];
  }
  if (!g.empty()) {
    auto gm = [&](int st) {
      const auto x = g.values[2 * st], y = g.values[2 * st + 1];
      if (d.num_pols == 1) return M2{cd(x.re, x.im), 0, 0, 0};
      return M2{cd(x.re, x.im), 0, 0, cd(y.re, y.im)};
    };
    sum = mul(mul(gm(ap), sum), herm(gm(aq)));
  }
  return sum;
}

inline double reference_chi2(const Problem& pr, const fringe::fit::SourceParameters& p,
                             const fringe::fit::StationGains& g) {
  const auto& d = pr.data;
  const int np = d.num_pols;
  double chi2 = 0;
  for (std::size_t r = 0; r < d.num_rows; ++r) {
    for (std::size_t c = 0; c < d.num_channels; ++c) {
      const M2 m = reference_model(pr, p, g, r, c);
      for (int k = 0; k < np; ++k) {
        const std::size_t i = (r * d.num_channels + c) * np + k;
        if (d.weight[i] == 0) continue;
        const cd res = m[k] - cd(d.data[i].re, d.data[i].im);
        chi2 += d.weight[i] * std::norm(res);
      }
    }
  }
  return chi2;
}

}  // namespace fit_test
