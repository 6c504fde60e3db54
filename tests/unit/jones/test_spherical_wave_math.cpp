// The spherical-wave sum (jones/spherical_wave_math.h) against closed forms derived by hand
// from the expansion in docs/station_beams.md, and its use in aa_element_jones.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/jones/aperture_array_math.h"
#include "fringe/jones/numerical_patterns.h"
#include "fringe/jones/spherical_wave_math.h"

using fringe::Complex;
using fringe::Jones;
using fringe::kPi;
using namespace fringe::jones;

namespace {

int mode(int l, int m) { return l * l + l - 1 + m; }

// Coefficients for l_max = 1 (3 modes x 4 parts).
std::vector<Complex<double>> l1(int part, Complex<double> minus, Complex<double> plus) {
  std::vector<Complex<double>> c(4 * 3, Complex<double>{0.0, 0.0});
  c[4 * mode(1, -1) + part] = minus;
  c[4 * mode(1, 1) + part] = plus;
  return c;
}

void expect_near(Complex<double> a, Complex<double> b) {
  EXPECT_NEAR(a.re, b.re, 1e-12);
  EXPECT_NEAR(a.im, b.im, 1e-12);
}

}  // namespace

// a_TM(1, -1) = e^{i phi0}, a_TM(1, +1) = -e^{-i phi0}: with P_1^1 = -sin(theta)
// (Condon-Shortley), P/sin = -1 and sin(theta) dP/dcos(theta) = cos(theta), the sum is
// E_theta = 2 i N cos(phi - phi0), E_phi = 2 i N cos(theta) sin(phi - phi0), N^2 = 3 / (16 pi).
TEST(SphericalWaveMath, L1TmPairClosedForm) {
  const double phi0 = 0.4;
  const auto c = l1(1, {std::cos(phi0), std::sin(phi0)}, {-std::cos(phi0), std::sin(phi0)});
  const double n = std::sqrt(3.0 / (16.0 * kPi));
  for (double theta : {0.1, 0.7, 1.3}) {
    for (double phi : {0.0, 1.0, 2.5, -2.0}) {
      const Jones<double> j = sw_pattern(c.data(), 1, theta, phi, phi);
      // Rows [E_phi, E_theta] (OSKAR's order for spherical waves).
      expect_near(j.b, {0.0, 2.0 * n * std::cos(phi - phi0)});
      expect_near(j.a, {0.0, 2.0 * n * std::cos(theta) * std::sin(phi - phi0)});
    }
  }
}

// a_TE(1, 0) = 1: m = 0, P_1^0 = cos(theta), sin(theta) dP/dcos(theta) = sin(theta):
// E_theta = -N sin(theta), E_phi = 0, N^2 = 3 / (8 pi). The Y feed (slot 2) is separate.
TEST(SphericalWaveMath, L1TeM0ClosedForm) {
  std::vector<Complex<double>> c(12, Complex<double>{0.0, 0.0});
  c[4 * mode(1, 0) + 2] = {1.0, 0.0};  // Y TE
  const double n = std::sqrt(3.0 / (8.0 * kPi));
  const Jones<double> j = sw_pattern(c.data(), 1, 0.9, 0.3, 0.3);
  expect_near(j.d, {-n * std::sin(0.9), 0.0});
  expect_near(j.c, {0.0, 0.0});
  expect_near(j.a, {0.0, 0.0});
  expect_near(j.b, {0.0, 0.0});
}

// Higher orders against P_2^1(x) = -3 x sqrt(1 - x^2): a_TE(2, 1) = 1 alone gives
// E_theta = -N e^{i phi} sin(theta) dP/dcos(theta) with dP/dx = -3 (1 - 2x^2) / sqrt(1 - x^2),
// N^2 = 5 / (24 pi) (1/6).
TEST(SphericalWaveMath, L2TeM1ClosedForm) {
  std::vector<Complex<double>> c(4 * 8, Complex<double>{0.0, 0.0});
  c[4 * mode(2, 1) + 0] = {1.0, 0.0};
  const double theta = 0.8, phi = 1.1, x = std::cos(theta), s = std::sin(theta);
  const double n = std::sqrt(5.0 / (24.0 * kPi) / 6.0);
  const double dp = s * (-3.0 * (1.0 - 2.0 * x * x) / s);
  const Jones<double> j = sw_pattern(c.data(), 2, theta, phi, phi);
  expect_near(j.b, {-n * dp * std::cos(phi), -n * dp * std::sin(phi)});
  // E_phi = -i m a_TE N e^{i phi} P / sin with P = -3 x s.
  const double p_sin = -3.0 * x;
  expect_near(j.a, {n * p_sin * std::sin(phi), -n * p_sin * std::cos(phi)});
}

// Galileo convention, m = 0: P_1^0 = cos(theta), dP = -sin(theta) (Galileo sign),
// N^2 = Z0 3 / (8 pi), (-i)^1 = -i for TM, (-i)^2 = -1 for TE, then the conjugate, rows
// [E_theta, E_phi]: a_TE(1, 0) = 1 gives E_phi = -N sin(theta); a_TM(1, 0) = 1 gives
// E_theta = conj(i N sin(theta)) = -i N sin(theta).
TEST(SphericalWaveMath, GalileoL1M0ClosedForm) {
  const double n = std::sqrt(376.730313668 * 3.0 / (8.0 * kPi)), theta = 0.6;
  std::vector<Complex<double>> c(12, Complex<double>{0.0, 0.0});
  c[4 * mode(1, 0) + 0] = {1.0, 0.0};  // X TE
  c[4 * mode(1, 0) + 3] = {1.0, 0.0};  // Y TM
  const Jones<double> j = sw_pattern(c.data(), 1, theta, 0.2, 0.2, true);
  expect_near(j.a, {0.0, 0.0});
  expect_near(j.b, {-n * std::sin(theta), 0.0});
  expect_near(j.c, {0.0, -n * std::sin(theta)});
  expect_near(j.d, {0.0, 0.0});
}

// aa_element_jones: the feed angle rotates phi (phi - alpha_x), swap_xy exchanges the rows,
// normalisation scales, and the theta clamp keeps the zenith finite.
TEST(SphericalWaveMath, ElementJonesUsesFeedAngleAndSwap) {
  const auto c = l1(1, {1.0, 0.0}, {-1.0, 0.0});
  ElementParams<double> p;
  p.sw = c.data();
  p.sw_l_max = 1;
  p.sw_common_phi = true;
  p.alpha_x = 0.3;
  p.sw_norm = 2.0;
  const double e = 0.3, n = 0.4, u = std::sqrt(1.0 - e * e - n * n);
  const Jones<double> j = aa_element_jones(p, e, n, u);
  const Jones<double> ref =
      sw_pattern(c.data(), 1, std::atan2(0.5, u), std::atan2(n, e) - 0.3, std::atan2(n, e) - 0.3);
  expect_near(j.a, ref.a * 2.0);
  expect_near(j.b, ref.b * 2.0);
  p.swap_xy = true;
  const Jones<double> s = aa_element_jones(p, e, n, u);
  expect_near(s.c, j.a);
  expect_near(s.d, j.b);
  const Jones<double> z = aa_element_jones(p, 0.0, 0.0, 1.0);
  EXPECT_TRUE(std::isfinite(z.a.re) && std::isfinite(z.b.im));
}

// Files fringe does not evaluate (HARP, FEKO, Galileo) are refused, not silently replaced by
// the functional pattern, and the message says what to use instead.
TEST(SphericalWaveMath, HarpAndFekoAreRefusedWithAlternative) {
  StationBeamConfig beam;
  beam.station_type = StationType::ApertureArray;
  fringe::telescope::TelescopeModel tel;
  tel.unsupported_files.push_back(
      {"m.tm/HARP_SKALA4_100MHz.h5", "HARP beam coefficients: not supported"});
  try {
    check_numerical_patterns(beam, tel);
    FAIL() << "no error";
  } catch (const fringe::Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("HARP_SKALA4_100MHz.h5"), std::string::npos) << m;
    EXPECT_NE(m.find("does not implement HARP"), std::string::npos) << m;
    EXPECT_NE(m.find("element_pattern_spherical_wave_"), std::string::npos) << m;
    EXPECT_EQ(e.context().field, "ElementPatternConfig.enable_numerical");
  }
  beam.aperture_array.element_pattern.enable_numerical = false;
  EXPECT_NO_THROW(check_numerical_patterns(beam, tel));
}

// Several element types sharing feed angles, weighted by complex feed factors (SwWeightedSets):
// one pass equals the sum over types of diag(fx, fy) times each type's own pattern, also when
// the types' orders differ (3 and 5 here) and with the feeds exchanged (swap_xy) through
// aa_sw_jones. Coefficients are arbitrary (a fixed pseudo-random sequence).
TEST(SphericalWaveMath, WeightedSetsEqualTheSumOfPatterns) {
  const auto coeffs = [](int l_max, double seed) {
    std::vector<Complex<double>> c(4 * std::size_t(l_max * (l_max + 2)));
    for (std::size_t i = 0; i < c.size(); ++i)
      c[i] = {std::sin(seed + 1.7 * double(i)), std::cos(seed * 0.3 + 0.9 * double(i))};
    return c;
  };
  const auto a0 = coeffs(3, 0.2), a1 = coeffs(5, 1.1);
  const Complex<double> fx[2] = {{0.7, -0.2}, {-0.4, 1.3}}, fy[2] = {{0.1, 0.5}, {2.0, -0.6}};
  SwWeightedSets<double, 4> w{};
  w.count = 2;
  w.a[0] = a0.data();
  w.a[1] = a1.data();
  w.num_modes[0] = 3 * 5;
  w.num_modes[1] = 5 * 7;
  for (int g = 0; g < 2; ++g) {
    w.fx[g] = fx[g];
    w.fy[g] = fy[g];
  }
  for (double theta : {0.0, 0.3, 1.2, 1.55}) {
    for (double phi : {-2.0, 0.4, 2.9}) {
      const Jones<double> got = sw_expand(w, 5, theta, phi, phi + 0.5 * kPi);
      const Jones<double> p0 = sw_pattern(a0.data(), 3, theta, phi, phi + 0.5 * kPi);
      const Jones<double> p1 = sw_pattern(a1.data(), 5, theta, phi, phi + 0.5 * kPi);
      expect_near(got.a, fx[0] * p0.a + fx[1] * p1.a);
      expect_near(got.b, fx[0] * p0.b + fx[1] * p1.b);
      expect_near(got.c, fy[0] * p0.c + fy[1] * p1.c);
      expect_near(got.d, fy[0] * p0.d + fy[1] * p1.d);
    }
  }
  // Through aa_sw_jones with swap_xy and two normalisations: the X row of each type's swapped
  // pattern is its Y row, so its Y coefficients carry the X factor.
  ElementParams<double> p0{}, p1{};
  p0.sw = a0.data();
  p0.sw_l_max = 3;
  p0.sw_norm = 0.8;
  p1.sw = a1.data();
  p1.sw_l_max = 5;
  p1.sw_norm = 1.3;
  p0.swap_xy = p1.swap_xy = true;
  p0.alpha_x = p1.alpha_x = 0.2;
  p0.alpha_y = p1.alpha_y = 0.2;
  ASSERT_TRUE(aa_sw_mergeable(p0, p1));
  for (int g = 0; g < 2; ++g) {
    const double norm = g == 0 ? p0.sw_norm : p1.sw_norm;
    w.fx[g] = fy[g] * norm;  // exchanged, as the kernels do for swap_xy
    w.fy[g] = fx[g] * norm;
  }
  const double e = 0.3, n = -0.5, u = std::sqrt(1.0 - e * e - n * n);
  const Jones<double> got = aa_sw_jones(p0, w, 5, 1.0, e, n, u);
  const Jones<double> j0 = aa_element_jones(p0, e, n, u), j1 = aa_element_jones(p1, e, n, u);
  expect_near(got.a, fx[0] * j0.a + fx[1] * j1.a);
  expect_near(got.b, fx[0] * j0.b + fx[1] * j1.b);
  expect_near(got.c, fy[0] * j0.c + fy[1] * j1.c);
  expect_near(got.d, fy[0] * j0.d + fy[1] * j1.d);
  p1.alpha_y = 0.3;  // different feed angles: not one pass
  EXPECT_FALSE(aa_sw_mergeable(p0, p1));
}
