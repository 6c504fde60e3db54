// Gaussian sources (docs/conventions.md, "Gaussian sources"). A source is Gaussian when both FWHM
// are > 0. Its ellipse (FWHM major/minor, position angle East of North) is sampled at six points in
// the source's own tangent plane, the points are carried onto the sphere and projected onto
// the phase-centre (l, m) plane, and an ellipse is fitted there (ellipse_fit.h). The result
// gives the visibility taper exp(-(a u^2 + 2 b u v + c v^2)), u, v in wavelengths, with
// sigma'^2 = pi^2 FWHM^2 / (4 ln 2) (FWHM in direction cosines):
//   a = cos^2(pa) s_min + sin^2(pa) s_maj,  b = sin(2 pa) (s_maj - s_min) / 2,
//   c = sin^2(pa) s_min + cos^2(pa) s_maj,  s_x = sigma'_x^2.
// A failed fit is reported per source (warning naming its index) and the source is treated as
// a point source (a = b = c = 0), or its flux is zeroed with zero_failed_gaussians.
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <vector>

#include "fringe/core/hd.h"
#include "fringe/sky/diagnostics.h"
#include "fringe/sky/ellipse_fit.h"
#include "fringe/sky/sky_model.h"

namespace fringe::sky {

// (a, b, c) from a FWHM ellipse in direction cosines and its position angle [rad].
template <typename T>
FRINGE_HD_INLINE void gaussian_uv_coefficients(T fwhm_major, T fwhm_minor, T pa, T& a, T& b, T& c) {
  // pi^2 / (4 ln 2)
  const T k = T(3.559707331246876);
  const T s_maj = k * fwhm_major * fwhm_major;
  const T s_min = k * fwhm_minor * fwhm_minor;
  const T cp = cos(pa), sp = sin(pa);
  a = cp * cp * s_min + sp * sp * s_maj;
  b = T(0.5) * sin(T(2) * pa) * (s_maj - s_min);
  c = sp * sp * s_min + cp * cp * s_maj;
}

// The ellipse of a source at (ra, dec) as seen on the tangent plane of (ra0, dec0).
// Returns nullopt if the fit fails. All angles in radians.
std::optional<EllipseFit> project_gaussian(double ra, double dec, double fwhm_major,
                                           double fwhm_minor, double position_angle, double ra0,
                                           double dec0);

struct GaussianCoefficients {
  std::vector<double> a, b, c;      // one per source; 0 for point sources
  std::vector<std::size_t> failed;  // indices of Gaussian sources whose fit failed
};

// Coefficients for every source of `sky` about the phase centre (ra0, dec0). With
// zero_failed_gaussians, the Stokes values of failed sources are set to zero in `sky`.
GaussianCoefficients evaluate_gaussian_coefficients(SkyModel& sky, double ra0, double dec0,
                                                    bool zero_failed_gaussians,
                                                    const Diagnostics& diagnostics = {});

}  // namespace fringe::sky
