#include "fringe/imager/taper.h"
#include "fringe/core/constants.h"

#include <cmath>
#include <string>

#include "fringe/core/error.h"

namespace fringe::imager {

TaperType parse_taper_type(std::string_view text) {
  if (text == "Kaiser-Bessel") return TaperType::KaiserBessel;
  if (text == "Spheroidal") return TaperType::Spheroidal;
  throw Error("unknown taper '" + std::string(text) + "' (expected Kaiser-Bessel or Spheroidal)");
}

namespace {

// sinh(z)/z for z = sqrt(q), continued as sin(|z|)/|z| for q < 0.
double sinhc_sqrt(double q) {
  if (q > 1e-12) {
    const double z = std::sqrt(q);
    return std::sinh(z) / z;
  }
  if (q < -1e-12) {
    const double z = std::sqrt(-q);
    return std::sin(z) / z;
  }
  return 1.0;
}

}  // namespace

Taper::Taper(TaperType type, int support_cells) : type_(type), support_(support_cells) {
  if (type == TaperType::Spheroidal) {
    support_ = 6;
    return;
  }
  if (support_cells < 2) throw Error("Kaiser-Bessel taper: support must be >= 2 cells");
  // beta: chosen so that the taper reaches its first zero just past the subgrid edge
  // (|x| = 1/2, where the subgrid image is cut off): pi W / 2 = sqrt(beta^2 + pi^2 (0.5)^2)...
  // in practice beta = pi W / 2 * 0.95 minimises the worst edge-to-centre error for the
  // inner 80 % of the field (measured, docs/imager.md section "Accuracy").
  beta_ = 0.95 * kPi * support_cells / 2.0;
  norm_ = 1.0 / sinhc_sqrt(beta_ * beta_);
}

double Taper::operator()(double x) const {
  if (type_ == TaperType::Spheroidal) return spheroidal(2.0 * std::abs(x));
  const double a = kPi * support_ * x;
  return norm_ * sinhc_sqrt(beta_ * beta_ - a * a);
}

double spheroidal(double nu) {
  // Rational approximation of Schwab (1984), m = 6, alpha = 1, two intervals of nu.
  static constexpr double p[2][5] = {
      {8.203343e-2, -3.644705e-1, 6.278660e-1, -5.335581e-1, 2.312756e-1},
      {4.028559e-3, -3.697768e-2, 1.021332e-1, -1.201436e-1, 6.412774e-2}};
  static constexpr double q[2][3] = {{1.0, 8.212018e-1, 2.078043e-1},
                                     {1.0, 9.599102e-1, 2.918724e-1}};
  nu = std::abs(nu);
  if (nu > 1.0) return 0.0;
  const int part = nu < 0.75 ? 0 : 1;
  const double end = part == 0 ? 0.75 : 1.0;
  const double d = nu * nu - end * end;
  double top = p[part][0], dk = d;
  for (int k = 1; k < 5; ++k, dk *= d) top += p[part][k] * dk;
  const double bot = q[part][0] + q[part][1] * d + q[part][2] * d * d;
  // psi(0) of this approximation: normalise so that the taper is 1 at the centre.
  static const double psi0 = [] {
    const double d0 = -0.75 * 0.75;
    double t = p[0][0], dk0 = d0;
    for (int k = 1; k < 5; ++k, dk0 *= d0) t += p[0][k] * dk0;
    return t / (q[0][0] + q[0][1] * d0 + q[0][2] * d0 * d0);
  }();
  return top / bot / psi0;
}

}  // namespace fringe::imager
