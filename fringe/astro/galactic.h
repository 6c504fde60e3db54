// Galactic (l, b) <-> equatorial (RA, Dec) J2000, for sky readers (HEALPix maps, FITS images in
// Galactic coordinates). Angles in radians; RA and l in [0, 2pi), Dec and b in [-pi/2, pi/2].
// The rotation is the FK5 (J2000) one of Murray (1989, A&A 218, 325), the IAU 1958 Galactic
// system precessed to J2000 (also SLALIB's sla_EQGAL and OSKAR's HEALPix reader, so results
// match OSKAR). The Hipparcos/ICRS definition (ESA 1997, vol. 1 sec. 1.5.3; ERFA eraIcrs2g)
// differs from it by the FK5-ICRS frame offset, < 0.1 arcsec everywhere (measured 0.01 arcsec
// in tests/unit/astro/test_galactic.cpp), far below the pixel size of any sky map we read.
#pragma once

#include <span>

namespace fringe::astro {

void galactic_to_equatorial(double l, double b, double& ra, double& dec);
void equatorial_to_galactic(double ra, double dec, double& l, double& b);

// Array forms; all spans the same length (else fringe::Error). Output may alias input.
void galactic_to_equatorial(std::span<const double> l, std::span<const double> b,
                            std::span<double> ra, std::span<double> dec);
void equatorial_to_galactic(std::span<const double> ra, std::span<const double> dec,
                            std::span<double> l, std::span<double> b);

}  // namespace fringe::astro
