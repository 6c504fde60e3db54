// Image-domain tapers of Image-Domain Gridding (van der Tol, Veenboer & Offringa 2018, A&A 616,
// A27, section 3.3). The taper t(x) multiplies every subgrid image; x in [-1/2, 1/2] is the
// position across the whole field (image width 1). Its Fourier transform is the effective
// gridding kernel (support `support()` grid cells), and the final image is divided by the
// same t (the grid correction). t(0) = 1.
//  - Kaiser-Bessel: t is the Fourier transform of the uv kernel I0(beta sqrt(1 - (2u/W)^2)),
//    |u| <= W/2 (Jackson et al. 1991, IEEE TMI 10, 473, eq. 9):
//    t(x) = sinh(sqrt(beta^2 - (pi W x)^2)) / sqrt(beta^2 - (pi W x)^2) (sin past the root),
//    normalised. Its uv support is exactly W cells, so no visibility leaks out of a subgrid.
//  - Spheroidal: the prolate spheroidal wave function of Schwab (1984, "Optimal gridding of
//    visibility data in radio interferometry", in Indirect Imaging, p. 333), m = 6, alpha = 1,
//    in the rational approximation used by AIPS/casacore (grdsf): uv support 6 cells.
#pragma once

#include <string_view>

namespace fringe::imager {

enum class TaperType { KaiserBessel, Spheroidal };

TaperType parse_taper_type(std::string_view text);  // "Kaiser-Bessel" | "Spheroidal"

class Taper {
 public:
  // support_cells: W of the Kaiser-Bessel kernel (ignored for Spheroidal, always 6).
  Taper(TaperType type, int support_cells);
  TaperType type() const { return type_; }
  int support() const { return support_; }  // uv support in grid cells
  double beta() const { return beta_; }
  double operator()(double x) const;  // x in [-1/2, 1/2] (image width 1)

 private:
  TaperType type_;
  int support_;
  double beta_ = 0.0;
  double norm_ = 1.0;
};

// Schwab's spheroidal function psi(nu), |nu| <= 1 (0 outside), psi(0) = 1.
double spheroidal(double nu);

}  // namespace fringe::imager
