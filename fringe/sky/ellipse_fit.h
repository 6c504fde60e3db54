// Least-squares ellipse fit: the conic a x^2 + b x y + c y^2 + d x + e y = 1 is fitted to the
// points (after removing their mean and scaling them to unit RMS radius, which leaves the
// least-squares solution unchanged but keeps the normal equations well conditioned), then
// reduced to its centre, axes and orientation (e.g. Fitzgibbon, Pilu & Fisher 1999 for conic
// fitting; the reduction is the eigen-decomposition of the quadratic form).
// This is the fit OSKAR applies to re-projected Gaussian sources (docs/conventions.md, "Gaussian
// sources").
#pragma once

#include <optional>
#include <span>

namespace fringe::sky {

struct EllipseFit {
  double major = 0.0;           // full length of the major axis (same unit as x, y)
  double minor = 0.0;           // full length of the minor axis
  double position_angle = 0.0;  // rad, of the major axis from +y towards +x, in (-pi/2, pi/2]
};

// nullopt if fewer than 5 points, the system is singular, or the conic is not an ellipse.
std::optional<EllipseFit> fit_ellipse(std::span<const double> x, std::span<const double> y);

}  // namespace fringe::sky
