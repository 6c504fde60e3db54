// The GPU form of the plain spherical-wave pattern (jones/spherical_wave_plain.h), run on the
// host: pre-normalised coefficients and the direction from its components must give what
// aa_sw_jones gives with the raw coefficients (the reference evaluation of
// spherical_wave_math.h), in double to rounding and in float to float's precision, for one
// element type and for weighted sets of types (SwWeightedSets).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/jones/aperture_array_math.h"
#include "fringe/jones/spherical_wave_math.h"
#include "fringe/jones/spherical_wave_plain.h"

using fringe::Complex;
using fringe::Jones;
using fringe::kPi;
using namespace fringe::jones;

namespace {

// Arbitrary coefficients of order l_max (a fixed pseudo-random sequence).
std::vector<Complex<double>> coeffs(int l_max, double seed) {
  std::vector<Complex<double>> c(4 * std::size_t(l_max * (l_max + 2)));
  for (std::size_t i = 0; i < c.size(); ++i)
    c[i] = {std::sin(seed + 1.7 * double(i)), std::cos(seed * 0.3 + 0.9 * double(i))};
  return c;
}

template <typename T>
std::vector<Complex<T>> prenormalised(const std::vector<Complex<double>>& a, int l_max) {
  std::vector<Complex<T>> out(a.size());
  sw_prenormalise(a.data(), l_max, out.data());
  return out;
}

double max_abs(const Jones<double>& j) {
  double m = 0.0;
  for (const Complex<double>& c : {j.a, j.b, j.c, j.d}) m = std::max(m, std::hypot(c.re, c.im));
  return m;
}

// |got - want| per component, relative to the largest component of want.
template <typename T>
double rel_diff(const Jones<T>& got, const Jones<double>& want) {
  const Complex<T> g[4] = {got.a, got.b, got.c, got.d};
  const Complex<double> w[4] = {want.a, want.b, want.c, want.d};
  double d = 0.0;
  for (int k = 0; k < 4; ++k)
    d = std::max(d, std::hypot(double(g[k].re) - w[k].re, double(g[k].im) - w[k].im));
  return d / max_abs(want);
}

// Directions (e, n, u) from the zenith, through theta < 1e-5 rad (the clamp), to the horizon.
std::vector<std::array<double, 3>> directions() {
  std::vector<std::array<double, 3>> d;
  for (double theta : {0.0, 3e-6, 2e-5, 0.1, 0.7, 1.2, 1.5, 0.5 * kPi}) {
    for (double phi : {-2.9, -1.0, 0.0, 0.4, 1.6, 3.1}) {
      d.push_back(
          {std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta)});
    }
  }
  return d;
}

ElementParams<double> params(const std::vector<Complex<double>>& a, int l_max) {
  ElementParams<double> p{};
  p.sw = a.data();
  p.sw_l_max = l_max;
  p.alpha_x = 0.3;
  p.alpha_y = -0.45;
  p.sw_norm = 0.9;
  return p;
}

template <typename T>
ElementParams<T> cast(const ElementParams<double>& p) {
  ElementParams<T> q{};
  q.taper = p.taper;
  q.taper_param = static_cast<T>(p.taper_param);
  q.alpha_x = static_cast<T>(p.alpha_x);
  q.alpha_y = static_cast<T>(p.alpha_y);
  q.swap_xy = p.swap_xy;
  q.sw_l_max = p.sw_l_max;
  q.sw_common_phi = p.sw_common_phi;
  q.sw_norm = static_cast<T>(p.sw_norm);
  return q;
}

}  // namespace

TEST(SphericalWavePlain, ModeNormalisation) {
  // N_lm^2 = (2l + 1) / (4 pi l (l + 1)) (l - |m|)! / (l + |m|)!: l = 2, m = +-1 gives
  // 5 / (24 pi) / 6; l = 3, m = 3 gives 7 / (48 pi) / 720.
  EXPECT_NEAR(sw_mode_norm(2, 1), std::sqrt(5.0 / (24.0 * kPi) / 6.0), 1e-16);
  EXPECT_DOUBLE_EQ(sw_mode_norm(2, -1), sw_mode_norm(2, 1));
  EXPECT_NEAR(sw_mode_norm(3, 3), std::sqrt(7.0 / (48.0 * kPi) / 720.0), 1e-17);
  EXPECT_NEAR(sw_mode_norm(1, 0), std::sqrt(3.0 / (8.0 * kPi)), 1e-16);
}

// One element type, every option the plain path honours: feed angles, the common azimuth of
// x/y-labelled files, a taper, exchanged feeds; orders 1, 3 and 8.
TEST(SphericalWavePlain, EqualsTheReferenceSum) {
  for (int l_max : {1, 3, 8}) {
    const auto a = coeffs(l_max, 0.2 + l_max);
    const auto a_d = prenormalised<double>(a, l_max);
    const auto a_f = prenormalised<float>(a, l_max);
    std::vector<Complex<float>> raw_f(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) raw_f[i] = {float(a[i].re), float(a[i].im)};
    for (int variant = 0; variant < 4; ++variant) {
      ElementParams<double> p = params(a, l_max);
      p.sw_common_phi = variant == 1;
      if (variant == 2) {
        p.taper = TaperKind::Cosine;
        p.taper_param = 2.0;
      }
      p.swap_xy = variant == 3;
      const ElementParams<float> pf = cast<float>(p);
      for (const auto& d : directions()) {
        const Jones<double> want =
            aa_sw_jones(p, SwCoeffSet<double>{p.sw}, l_max, p.sw_norm, d[0], d[1], d[2]);
        if (max_abs(want) == 0.0) continue;  // the taper's zero at the horizon
        const Jones<double> got = aa_sw_jones_plain(
            p, sw_feed_trig(p), SwCoeffSet<double>{a_d.data()}, l_max, p.sw_norm, d[0], d[1], d[2]);
        EXPECT_LT(rel_diff(got, want), 1e-13)
            << "l_max " << l_max << " variant " << variant << " u " << d[2];
        // Float: within 2e-5 of double, or (near the zenith, where dP / sin theta cancels in
        // any float evaluation) within 4 times the reference sum's own float error.
        ElementParams<float> rf = pf;
        rf.sw = raw_f.data();
        const Jones<float> ref_f = aa_sw_jones(rf, SwCoeffSet<float>{rf.sw}, l_max, rf.sw_norm,
                                               float(d[0]), float(d[1]), float(d[2]));
        const Jones<float> got_f =
            aa_sw_jones_plain(pf, sw_feed_trig(pf), SwCoeffSet<float>{a_f.data()}, l_max,
                              pf.sw_norm, float(d[0]), float(d[1]), float(d[2]));
        EXPECT_LT(rel_diff(got_f, want), std::max(2e-5, 4.0 * rel_diff(ref_f, want)))
            << "float, l_max " << l_max << " variant " << variant << " u " << d[2];
      }
    }
  }
}

// Weighted sets of two types of different orders (3 and 5): one plain pass with pre-normalised
// coefficients equals the sum of the types' reference patterns times their feed factors.
TEST(SphericalWavePlain, WeightedSetsEqualTheSumOfPatterns) {
  const auto a0 = coeffs(3, 0.2), a1 = coeffs(5, 1.1);
  const auto n0 = prenormalised<double>(a0, 3), n1 = prenormalised<double>(a1, 5);
  const Complex<double> fx[2] = {{0.7, -0.2}, {-0.4, 1.3}}, fy[2] = {{0.1, 0.5}, {2.0, -0.6}};
  SwWeightedSets<double, 4> w{};
  w.count = 2;
  w.a[0] = n0.data();
  w.a[1] = n1.data();
  w.num_modes[0] = 3 * 5;
  w.num_modes[1] = 5 * 7;
  for (int g = 0; g < 2; ++g) {
    w.fx[g] = fx[g];
    w.fy[g] = fy[g];
  }
  const ElementParams<double> p0 = params(a0, 3), p1 = params(a1, 5);
  for (const auto& d : directions()) {
    const Jones<double> got = aa_sw_jones_plain(p0, sw_feed_trig(p0), w, 5, 1.0, d[0], d[1], d[2]);
    const Jones<double> e0 =
        aa_sw_jones(p0, SwCoeffSet<double>{a0.data()}, 3, 1.0, d[0], d[1], d[2]);
    const Jones<double> e1 =
        aa_sw_jones(p1, SwCoeffSet<double>{a1.data()}, 5, 1.0, d[0], d[1], d[2]);
    const Jones<double> want{fx[0] * e0.a + fx[1] * e1.a, fx[0] * e0.b + fx[1] * e1.b,
                             fy[0] * e0.c + fy[1] * e1.c, fy[0] * e0.d + fy[1] * e1.d};
    EXPECT_LT(rel_diff(got, want), 1e-13) << "u " << d[2];
  }
}

// The clamp: directions within 1e-5 rad of the zenith give the pattern at theta = 1e-5 rad and
// their own azimuth, as sw_expand does; the zenith itself takes phi = 0.
TEST(SphericalWavePlain, ZenithClamp) {
  const auto a = coeffs(4, 0.7);
  const auto a_d = prenormalised<double>(a, 4);
  const ElementParams<double> p = params(a, 4);
  const SwFeedTrig<double> f = sw_feed_trig(p);
  const double phi = 1.1;
  const Jones<double> at_min =
      sw_pattern(a.data(), 4, 1e-5, phi - p.alpha_x, phi + 0.5 * kPi - p.alpha_y);
  for (double theta : {1e-9, 5e-6}) {
    const Jones<double> got =
        sw_plain_fields(SwCoeffSet<double>{a_d.data()}, 4,
                        sw_direction(std::sin(theta) * std::cos(phi),
                                     std::sin(theta) * std::sin(phi), std::cos(theta), f));
    EXPECT_LT(rel_diff(got, at_min), 1e-12) << theta;
  }
  const Jones<double> zenith =
      sw_plain_fields(SwCoeffSet<double>{a_d.data()}, 4, sw_direction(0.0, 0.0, 1.0, f));
  const Jones<double> want = sw_pattern(a.data(), 4, 1e-5, -p.alpha_x, 0.5 * kPi - p.alpha_y);
  EXPECT_LT(rel_diff(zenith, want), 1e-12);
}
