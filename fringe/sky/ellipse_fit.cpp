#include "fringe/sky/ellipse_fit.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "fringe/core/constants.h"

namespace fringe::sky {

namespace {

// Solves A p = r (5x5) by Gaussian elimination with partial pivoting; false if singular.
bool solve5(std::array<std::array<double, 5>, 5> A, std::array<double, 5> r,
            std::array<double, 5>& p) {
  double scale = 0.0;
  for (const auto& row : A)
    for (double v : row) scale = std::max(scale, std::fabs(v));
  if (!(scale > 0.0)) return false;
  for (int k = 0; k < 5; ++k) {
    int piv = k;
    for (int i = k + 1; i < 5; ++i)
      if (std::fabs(A[i][k]) > std::fabs(A[piv][k])) piv = i;
    if (std::fabs(A[piv][k]) < 1e-13 * scale) return false;
    std::swap(A[k], A[piv]);
    std::swap(r[k], r[piv]);
    for (int i = k + 1; i < 5; ++i) {
      const double f = A[i][k] / A[k][k];
      for (int j = k; j < 5; ++j) A[i][j] -= f * A[k][j];
      r[i] -= f * r[k];
    }
  }
  for (int k = 4; k >= 0; --k) {
    double s = r[k];
    for (int j = k + 1; j < 5; ++j) s -= A[k][j] * p[j];
    p[k] = s / A[k][k];
  }
  return true;
}

}  // namespace

std::optional<EllipseFit> fit_ellipse(std::span<const double> x, std::span<const double> y) {
  const std::size_t n = x.size();
  if (n < 5 || y.size() != n) return std::nullopt;
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mx += x[i];
    my += y[i];
  }
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double rms = 0;
  for (std::size_t i = 0; i < n; ++i) rms += (x[i] - mx) * (x[i] - mx) + (y[i] - my) * (y[i] - my);
  rms = std::sqrt(rms / static_cast<double>(n));
  if (!(rms > 0) || !std::isfinite(rms)) return std::nullopt;

  // Normal equations for the design rows (u^2, u v, v^2, u, v) with target 1.
  std::array<std::array<double, 5>, 5> A{};
  std::array<double, 5> r{};
  for (std::size_t i = 0; i < n; ++i) {
    const double u = (x[i] - mx) / rms, v = (y[i] - my) / rms;
    const std::array<double, 5> t = {u * u, u * v, v * v, u, v};
    for (int j = 0; j < 5; ++j) {
      r[j] += t[j];
      for (int k = 0; k < 5; ++k) A[j][k] += t[j] * t[k];
    }
  }
  std::array<double, 5> p{};
  if (!solve5(A, r, p)) return std::nullopt;
  // Conic in the centred, scaled coordinates: a u^2 + b uv + c v^2 + d u + e v = 1.
  double a = p[0], b = p[1], c = p[2];
  const double d = p[3], e = p[4];
  const double h = 0.5 * b;
  const double det = a * c - h * h;
  if (!(det > 0)) return std::nullopt;
  // Centre u0 = -1/2 M^-1 g; quadratic form at the centre: r^T M r = F.
  const double gMg = (c * d * d - 2 * h * d * e + a * e * e) / det;  // g^T M^-1 g
  double F = 1.0 + 0.25 * gMg;
  if (a < 0) {
    a = -a;
    c = -c;
    b = -b;
    F = -F;
  }
  if (!(F > 0)) return std::nullopt;
  const double hh = 0.5 * b;
  const double mean = 0.5 * (a + c);
  const double rad = std::hypot(0.5 * (a - c), hh);
  const double lam_small = mean - rad, lam_large = mean + rad;
  if (!(lam_small > 0)) return std::nullopt;
  EllipseFit fit;
  fit.major = 2.0 * std::sqrt(F / lam_small) * rms;
  fit.minor = 2.0 * std::sqrt(F / lam_large) * rms;
  // Major axis = eigenvector of the smaller eigenvalue.
  const double v1x = hh, v1y = lam_small - a;
  const double v2x = lam_small - c, v2y = hh;
  double vx = v1x, vy = v1y;
  if (std::hypot(v2x, v2y) > std::hypot(v1x, v1y)) vx = v2x, vy = v2y;
  double pa = (vx == 0 && vy == 0) ? 0.0 : std::atan2(vx, vy);
  while (pa > kPi / 2) pa -= kPi;
  while (pa <= -kPi / 2) pa += kPi;
  fit.position_angle = pa;
  if (!std::isfinite(fit.major) || !std::isfinite(fit.minor)) return std::nullopt;
  return fit;
}

}  // namespace fringe::sky
