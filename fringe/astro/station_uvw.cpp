#include "fringe/astro/station_uvw.h"

#include <cmath>
#include <string>

#include "fringe/astro/station_uvw_math.h"
#include "fringe/core/error.h"

namespace fringe::astro {

void station_uvw(std::span<const double> x, std::span<const double> y, std::span<const double> z,
                 double ra0, double dec0, double gast, std::span<double> u, std::span<double> v,
                 std::span<double> w) {
  const std::size_t n = x.size();
  if (y.size() != n || z.size() != n || u.size() != n || v.size() != n || w.size() != n) {
    throw Error("station_uvw: array lengths differ (x " + std::to_string(n) + ", y " +
                std::to_string(y.size()) + ", z " + std::to_string(z.size()) + ", u " +
                std::to_string(u.size()) + ", v " + std::to_string(v.size()) + ", w " +
                std::to_string(w.size()) + "); expected one value per station in each");
  }
  const double ha0 = gast - ra0;
  const double sin_ha0 = std::sin(ha0), cos_ha0 = std::cos(ha0);
  const double sin_dec0 = std::sin(dec0), cos_dec0 = std::cos(dec0);
  for (std::size_t i = 0; i < n; ++i) {
    station_uvw_rotated(x[i], y[i], z[i], sin_ha0, cos_ha0, sin_dec0, cos_dec0, u[i], v[i], w[i]);
  }
}

}  // namespace fringe::astro
