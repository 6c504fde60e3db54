#include "fringe/astro/galactic.h"

#include <cmath>
#include <string>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"

namespace fringe::astro {
namespace {

// Equatorial (FK5 J2000) -> Galactic rotation, g = M e (Murray 1989, eq. 33).
constexpr double kM[3][3] = {{-0.054875539726, -0.873437108010, -0.483834985808},
                             {+0.494109453312, -0.444829589425, +0.746982251810},
                             {-0.867666135858, -0.198076386122, +0.455983795705}};

// Rotates the unit vector of (lon, lat) by M (transpose = false) or M^T (transpose = true).
void rotate(double lon, double lat, bool transpose, double& lon_out, double& lat_out) {
  const double v[3] = {std::cos(lat) * std::cos(lon), std::cos(lat) * std::sin(lon), std::sin(lat)};
  double r[3];
  for (int i = 0; i < 3; ++i) {
    r[i] = 0.0;
    for (int j = 0; j < 3; ++j) r[i] += (transpose ? kM[j][i] : kM[i][j]) * v[j];
  }
  double a = std::atan2(r[1], r[0]);
  if (a < 0.0) a += kTwoPi;
  lon_out = a;
  lat_out = std::atan2(r[2], std::hypot(r[0], r[1]));
}

void check_sizes(const char* what, std::size_t a, std::size_t b, std::size_t c, std::size_t d) {
  if (b != a || c != a || d != a) {
    throw Error(std::string(what) + ": array lengths differ (" + std::to_string(a) + ", " +
                std::to_string(b) + ", " + std::to_string(c) + ", " + std::to_string(d) +
                "); expected one value per point in each");
  }
}

}  // namespace

void galactic_to_equatorial(double l, double b, double& ra, double& dec) {
  rotate(l, b, true, ra, dec);
}

void equatorial_to_galactic(double ra, double dec, double& l, double& b) {
  rotate(ra, dec, false, l, b);
}

void galactic_to_equatorial(std::span<const double> l, std::span<const double> b,
                            std::span<double> ra, std::span<double> dec) {
  check_sizes("galactic_to_equatorial", l.size(), b.size(), ra.size(), dec.size());
  for (std::size_t i = 0; i < l.size(); ++i) {
    double r, d;
    rotate(l[i], b[i], true, r, d);
    ra[i] = r;
    dec[i] = d;
  }
}

void equatorial_to_galactic(std::span<const double> ra, std::span<const double> dec,
                            std::span<double> l, std::span<double> b) {
  check_sizes("equatorial_to_galactic", ra.size(), dec.size(), l.size(), b.size());
  for (std::size_t i = 0; i < ra.size(); ++i) {
    double g_l, g_b;
    rotate(ra[i], dec[i], false, g_l, g_b);
    l[i] = g_l;
    b[i] = g_b;
  }
}

}  // namespace fringe::astro
