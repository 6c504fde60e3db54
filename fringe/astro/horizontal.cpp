#include "fringe/astro/horizontal.h"

#include <cmath>
#include <string>

#include "fringe/astro/horizontal_math.h"
#include "fringe/astro/parallactic_math.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"

namespace fringe::astro {
namespace {

void check_sizes(const char* what, std::size_t n, std::initializer_list<std::size_t> others) {
  for (const std::size_t m : others) {
    if (m != n) {
      throw Error(std::string(what) + ": array lengths differ (" + std::to_string(n) + " and " +
                  std::to_string(m) + "); expected one value per source in each");
    }
  }
}

}  // namespace

double local_hour_angle(double ra, double gast, double lon) {
  const double h = std::fmod(gast + lon - ra + kPi, 2.0 * kPi);
  return (h < 0.0 ? h + 2.0 * kPi : h) - kPi;
}

AzEl radec_to_azel(double ra, double dec, double gast, double lon, double lat) {
  AzEl out;
  hadec_to_azel(gast + lon - ra, dec, lat, out.az, out.el);
  return out;
}

Vec3 radec_to_enu(double ra, double dec, double gast, double lon, double lat) {
  Vec3 out;
  hadec_to_enu(gast + lon - ra, dec, lat, out.x, out.y, out.z);
  return out;
}

double parallactic_angle(double ra, double dec, double gast, double lon, double lat) {
  return hadec_to_parallactic_angle(gast + lon - ra, dec, lat);
}

void radec_to_enu(std::span<const double> ra, std::span<const double> dec, double gast, double lon,
                  double lat, std::span<double> x, std::span<double> y, std::span<double> z) {
  check_sizes("radec_to_enu", ra.size(), {dec.size(), x.size(), y.size(), z.size()});
  const double lst = gast + lon;
  for (std::size_t i = 0; i < ra.size(); ++i) {
    hadec_to_enu(lst - ra[i], dec[i], lat, x[i], y[i], z[i]);
  }
}

void parallactic_angles(std::span<const double> ra, std::span<const double> dec, double gast,
                        double lon, double lat, std::span<double> psi) {
  check_sizes("parallactic_angles", ra.size(), {dec.size(), psi.size()});
  const double lst = gast + lon;
  for (std::size_t i = 0; i < ra.size(); ++i) {
    psi[i] = hadec_to_parallactic_angle(lst - ra[i], dec[i], lat);
  }
}

}  // namespace fringe::astro
