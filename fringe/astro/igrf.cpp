// IGRF-14 main-field synthesis, written from the published algorithm (IAGA V-MOD; Alken et al.
// 2021, "International Geomagnetic Reference Field: the thirteenth generation", Earth Planets
// Space 73:49, and the IGRF-14 release of December 2024). Coefficients: igrf14_coefficients.inc
// (provenance in docs/geomagnetic_field.md and tests/data/igrf/README.md).
#include "fringe/astro/igrf.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "fringe/astro/igrf_synthesis.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"

namespace fringe::astro {
namespace {

constexpr int kEpochCount = 26;         // 1900.0, 1905.0, ..., 2025.0
constexpr double kFirstEpoch = 1900.0;  // decimal year
constexpr double kLastEpoch = 2025.0;   // last main-field epoch; secular variation after it
constexpr double kEndYear = 2035.0;     // IGRF-14 validity ends (inclusive, as the reference code)

struct TableRow {
  char kind;  // 'g' or 'h'
  int n, m;
  double value[kEpochCount + 1];  // nT per epoch, then the secular variation in nT/year
};
constexpr TableRow kTable[] = {
#include "fringe/astro/igrf14_coefficients.inc"
};
static_assert(sizeof(kTable) / sizeof(kTable[0]) == igrf::kMaxDegree * (igrf::kMaxDegree + 2));

// Constants of the IAGA reference synthesis program (igrf14.f), kept so that the field equals
// that program's (and OSKAR 2.13's) to rounding: degrees to radians with a 9-digit factor, and
// the WGS84 axes squared in km^2 as written there (a = 6378.137 km, b ~ 6356.752 km). With the
// exact pi/180 instead the field moves by up to 0.005 nT (1.4e-7 of |B|, measured on
// tests/data/igrf), far below the model's own accuracy (~10 nT).
constexpr double kRadPerDegReference = 0.017453292;
constexpr double kA2 = 40680631.6;  // km^2
constexpr double kB2 = 40408296.0;  // km^2

void check_year(double year) {
  if (!(year >= kFirstEpoch && year <= kEndYear)) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "IGRF-14 geomagnetic field: decimal year %.10g is outside the model's validity "
                  "range 1900.0 to 2035.0",
                  year);
    throw Error(text);
  }
}

}  // namespace

namespace igrf {

GaussCoefficients coefficients_at(double decimal_year) {
  check_year(decimal_year);
  // Weights of two table columns: epochs i and i+1 (linear in time), or the 2025.0 epoch and
  // the secular-variation column (nT/year) at and after 2025.0.
  int i0 = 0, i1 = 0;
  double w0 = 0, w1 = 0;
  if (decimal_year >= kLastEpoch) {
    i0 = kEpochCount - 1;
    i1 = kEpochCount;
    w0 = 1.0;
    w1 = decimal_year - kLastEpoch;
  } else {
    const double s = 0.2 * (decimal_year - kFirstEpoch);  // in 5-year steps
    i0 = static_cast<int>(s);
    i1 = i0 + 1;
    w1 = s - i0;
    w0 = 1.0 - w1;
  }
  GaussCoefficients c;
  for (const TableRow& row : kTable) {
    const double v = w0 * row.value[i0] + w1 * row.value[i1];
    (row.kind == 'g' ? c.g : c.h)[row.n][row.m] = v;
  }
  return c;
}

SphericalField synthesise(const GaussCoefficients& c, double r_km, double theta, double phi) {
  constexpr int N = kMaxDegree;
  const double ct = std::cos(theta), st = std::sin(theta);
  // Schmidt semi-normalised P_n^m(cos theta) and dP_n^m/dtheta by the standard recurrences:
  //   P_n^n = sqrt((2n-1)/(2n)) sin(theta) P_{n-1}^{n-1}                       (n >= 2)
  //   P_n^m = ((2n-1) cos(theta) P_{n-1}^m - sqrt((n-1)^2-m^2) P_{n-2}^m) / sqrt(n^2-m^2)
  // and their theta-derivatives term by term.
  double p[N + 1][N + 1] = {}, dp[N + 1][N + 1] = {};
  p[0][0] = 1.0;
  p[1][1] = st;
  dp[1][1] = ct;
  for (int n = 2; n <= N; ++n) {
    const double k = std::sqrt((2.0 * n - 1.0) / (2.0 * n));
    p[n][n] = k * st * p[n - 1][n - 1];
    dp[n][n] = k * (ct * p[n - 1][n - 1] + st * dp[n - 1][n - 1]);
  }
  for (int m = 0; m < N; ++m) {
    for (int n = m + 1; n <= N; ++n) {
      const double norm = std::sqrt(double(n) * n - double(m) * m);
      const double back = n >= m + 2 ? std::sqrt(double(n - 1) * (n - 1) - double(m) * m) : 0.0;
      const double pm2 = n >= m + 2 ? p[n - 2][m] : 0.0;
      const double dpm2 = n >= m + 2 ? dp[n - 2][m] : 0.0;
      p[n][m] = ((2.0 * n - 1.0) * ct * p[n - 1][m] - back * pm2) / norm;
      dp[n][m] = ((2.0 * n - 1.0) * (ct * dp[n - 1][m] - st * p[n - 1][m]) - back * dpm2) / norm;
    }
  }
  const double ratio = kReferenceRadiusKm / r_km;
  double radial_power = ratio * ratio;  // (a/r)^(n+2) after the update at the top of each n
  SphericalField f;
  for (int n = 1; n <= N; ++n) {
    radial_power *= ratio;
    for (int m = 0; m <= n; ++m) {
      const double cm = std::cos(m * phi), sm = std::sin(m * phi);
      const double gn = c.g[n][m] * radial_power, hn = c.h[n][m] * radial_power;
      const double along = gn * cm + hn * sm;  // d/dtheta and radial terms
      f.north += along * dp[n][m];
      f.down -= (n + 1.0) * along * p[n][m];
      if (m > 0) {
        // m P_n^m / sin(theta); on the axis its limit m dP_n^m/dtheta cos(theta) (non-zero for
        // m = 1 only).
        const double p_over_sin = st != 0.0 ? p[n][m] / st : dp[n][m] * ct;
        f.east += m * (gn * sm - hn * cm) * p_over_sin;
      }
    }
  }
  return f;
}

}  // namespace igrf

GeomagneticField igrf_field(double lat_rad, double lon_rad, double height_m, double decimal_year) {
  check_year(decimal_year);
  if (!std::isfinite(lat_rad) || !std::isfinite(lon_rad) || !std::isfinite(height_m) ||
      std::fabs(lat_rad) > kPi / 2) {
    throw Error("IGRF-14 geomagnetic field: position (latitude " + std::to_string(lat_rad) +
                " rad, longitude " + std::to_string(lon_rad) + " rad, height " +
                std::to_string(height_m) + " m) must be finite with |latitude| <= pi/2");
  }
  const igrf::GaussCoefficients c = igrf::coefficients_at(decimal_year);
  // Geodetic colatitude and longitude in radians, through degrees as the reference program.
  const double theta_geodetic = (90.0 - lat_rad * 180.0 / kPi) * kRadPerDegReference;
  const double phi = lon_rad * 180.0 / kPi * kRadPerDegReference;
  const double h = height_m / 1000.0;  // km
  // Geodetic -> geocentric on the ellipsoid (a^2 = kA2, b^2 = kB2): rho^2 = a^2 sin^2 + b^2 cos^2
  // of the geodetic colatitude; r is the geocentric distance of the point, and (cos d, sin d)
  // the rotation from the geodetic to the geocentric colatitude (theta_c = theta_geodetic + d).
  const double st = std::sin(theta_geodetic), ct = std::cos(theta_geodetic);
  const double a2s2 = kA2 * st * st, b2c2 = kB2 * ct * ct;
  const double rho2 = a2s2 + b2c2, rho = std::sqrt(rho2);
  const double r = std::sqrt(h * (h + 2.0 * rho) + (kA2 * a2s2 + kB2 * b2c2) / rho2);
  const double cos_d = (h + rho) / r;
  const double sin_d = (kA2 - kB2) / rho * ct * st / r;
  const double theta_c = std::atan2(st * cos_d + ct * sin_d, ct * cos_d - st * sin_d);
  const igrf::SphericalField s = igrf::synthesise(c, r, theta_c, phi);
  // Back to the geodetic horizon: rotate (north, down) by -d.
  GeomagneticField out;
  const double north = s.north * cos_d + s.down * sin_d;
  const double down = s.down * cos_d - s.north * sin_d;
  out.east_nT = s.east;
  out.north_nT = north;
  out.up_nT = -down;
  out.total_nT = std::sqrt(north * north + s.east * s.east + down * down);
  return out;
}

double decimal_year_from_mjd(double mjd_utc) { return mjd_utc / 365.25 + 1858.87945205; }

}  // namespace fringe::astro
