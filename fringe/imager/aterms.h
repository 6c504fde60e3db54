// A-terms of Image-Domain Gridding (van der Tol et al. 2018, section 2): per station and
// A-term interval, a 2x2 Jones matrix at every subgrid pixel (direction), applied on the
// subgrids: the degridder predicts V_pq = sum_pixels A_p M A_q^H exp(+i phi), the gridder
// applies the adjoint A_p^H X A_q. Matrices are row-major [J00 J01; J10 J11] in the
// correlation order XX, XY, YX, YY; with one polarisation (Stokes I) J00 is used as a scalar.
// No A-terms (the default) means identity. The image is not divided by an average beam.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/core/error.h"
#include "fringe/core/hd.h"
#include "fringe/imager/plan.h"

namespace fringe::imager {

template <typename T>
struct ATerms {
  int num_stations = 0;
  int num_intervals = 0;
  int subgrid_size = 0;            // the values are on this subgrid's pixels
  std::vector<Complex<T>> values;  // [interval][station][y][x][4]

  std::size_t pixels() const { return std::size_t(subgrid_size) * subgrid_size; }
  const Complex<T>* at(int interval, int station) const {
    return values.data() + (std::size_t(interval) * num_stations + station) * pixels() * 4;
  }
};

// Throws fringe::Error unless `a` covers the subgrids (size, stations, intervals, values).
template <typename T>
void check_aterms(const ATerms<T>& a, int subgrid_size, std::span<const Subgrid> subgrids) {
  if (a.subgrid_size != subgrid_size ||
      a.values.size() != std::size_t(a.num_intervals) * a.num_stations * a.pixels() * 4)
    throw Error("imager: A-terms of " + std::to_string(a.subgrid_size) +
                "-pixel subgrids do not match the subgrid size " + std::to_string(subgrid_size) +
                " or their value count");
  for (const Subgrid& s : subgrids)
    if (s.station1 < 0 || s.station2 < 0 || s.station1 >= a.num_stations ||
        s.station2 >= a.num_stations || s.aterm_index < 0 || s.aterm_index >= a.num_intervals)
      throw Error("imager: A-terms of " + std::to_string(a.num_stations) + " stations and " +
                  std::to_string(a.num_intervals) + " intervals do not cover stations " +
                  std::to_string(s.station1) + ", " + std::to_string(s.station2) + " at interval " +
                  std::to_string(s.aterm_index));
}

// x := A_p^H x A_q (gridder, adjoint), x = [XX, XY, YX, YY].
template <typename T>
FRINGE_HD_INLINE void aterm_adjoint(const Complex<T>* ap, const Complex<T>* aq, Complex<T>* x) {
  // y = A_p^H x: (A_p^H)_ij = conj(A_p)_ji.
  const Complex<T> y0 = conj(ap[0]) * x[0] + conj(ap[2]) * x[2];
  const Complex<T> y1 = conj(ap[0]) * x[1] + conj(ap[2]) * x[3];
  const Complex<T> y2 = conj(ap[1]) * x[0] + conj(ap[3]) * x[2];
  const Complex<T> y3 = conj(ap[1]) * x[1] + conj(ap[3]) * x[3];
  x[0] = y0 * aq[0] + y1 * aq[2];
  x[1] = y0 * aq[1] + y1 * aq[3];
  x[2] = y2 * aq[0] + y3 * aq[2];
  x[3] = y2 * aq[1] + y3 * aq[3];
}

// x := A_p x A_q^H (degridder).
template <typename T>
FRINGE_HD_INLINE void aterm_apply(const Complex<T>* ap, const Complex<T>* aq, Complex<T>* x) {
  const Complex<T> y0 = ap[0] * x[0] + ap[1] * x[2];
  const Complex<T> y1 = ap[0] * x[1] + ap[1] * x[3];
  const Complex<T> y2 = ap[2] * x[0] + ap[3] * x[2];
  const Complex<T> y3 = ap[2] * x[1] + ap[3] * x[3];
  // (A_q^H)_ij = conj(A_q)_ji.
  x[0] = y0 * conj(aq[0]) + y1 * conj(aq[1]);
  x[1] = y0 * conj(aq[2]) + y1 * conj(aq[3]);
  x[2] = y2 * conj(aq[0]) + y3 * conj(aq[1]);
  x[3] = y2 * conj(aq[2]) + y3 * conj(aq[3]);
}

}  // namespace fringe::imager
