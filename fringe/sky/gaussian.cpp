#include "fringe/sky/gaussian.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "fringe/astro/direction.h"
#include "fringe/core/constants.h"

namespace fringe::sky {

std::optional<EllipseFit> project_gaussian(double ra, double dec, double fwhm_major,
                                           double fwhm_minor, double position_angle, double ra0,
                                           double dec0) {
  constexpr int kPoints = 6;
  const double A = 0.5 * fwhm_major, B = 0.5 * fwhm_minor;
  const double cp = std::cos(position_angle), sp = std::sin(position_angle);
  double l[kPoints], m[kPoints];
  for (int j = 0; j < kPoints; ++j) {
    const double t = j * kPi / 3.0;
    // Point on the ellipse in the source's tangent plane (l East, m North); t = 0 is the
    // major-axis end at position angle pa.
    const double ls = A * std::cos(t) * sp + B * std::sin(t) * cp;
    const double ms = A * std::cos(t) * cp - B * std::sin(t) * sp;
    double pr = 0, pd = 0;
    astro::lm_to_radec(ls, ms, ra, dec, pr, pd);
    double n = 0;
    astro::radec_to_lmn(pr, pd, ra0, dec0, l[j], m[j], n);
  }
  return fit_ellipse(l, m);
}

GaussianCoefficients evaluate_gaussian_coefficients(SkyModel& sky, double ra0, double dec0,
                                                    bool zero_failed_gaussians,
                                                    const Diagnostics& diagnostics) {
  GaussianCoefficients out;
  const std::size_t n = sky.size();
  out.a.assign(n, 0.0);
  out.b.assign(n, 0.0);
  out.c.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    if (!sky.is_gaussian(i)) continue;
    const auto fit = project_gaussian(sky.ra[i], sky.dec[i], sky.fwhm_major[i], sky.fwhm_minor[i],
                                      sky.position_angle[i], ra0, dec0);
    if (!fit) {
      out.failed.push_back(i);
      std::string msg = "Gaussian source " + std::to_string(i) +
                        ": ellipse fit on the phase-centre plane failed; ";
      if (zero_failed_gaussians) {
        sky.I[i] = sky.Q[i] = sky.U[i] = sky.V[i] = 0.0;
        for (Ragged* r : {&sky.chan_i, &sky.chan_q, &sky.chan_u, &sky.chan_v})
          for (double& v : r->row(i)) v = 0.0;
        msg += "its flux is set to zero (zero_failed_gaussians)";
      } else {
        msg += "simulated as a point source";
      }
      diagnostics.warn(msg);
      continue;
    }
    gaussian_uv_coefficients(fit->major, fit->minor, fit->position_angle, out.a[i], out.b[i],
                             out.c[i]);
  }
  return out;
}

}  // namespace fringe::sky
