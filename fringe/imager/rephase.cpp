#include "fringe/imager/rephase.h"
#include "fringe/core/constants.h"

#include <cmath>

#include "fringe/imager/geometry.h"

namespace fringe::imager {

namespace {

using Vec = std::array<double, 3>;
struct Frame {
  Vec e, n, s;
};
Frame frame(std::array<double, 2> c) {
  const double sa = std::sin(c[0]), ca = std::cos(c[0]), sd = std::sin(c[1]), cd = std::cos(c[1]);
  return {{-sa, ca, 0.0}, {-sd * ca, -sd * sa, cd}, {cd * ca, cd * sa, sd}};
}
double dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

}  // namespace

template <typename T>
void rephase(VisBuffer<T>& v, std::array<double, 2> old_centre, std::array<double, 2> new_centre,
             bool rotate_uvw_only) {
  const Frame f0 = frame(old_centre), f1 = frame(new_centre);
  const int npol = v.num_pols;
  for (std::size_t r = 0; r < v.num_rows; ++r) {
    const auto& uvw = v.uvw_m[r];
    Vec b{};
    for (int k = 0; k < 3; ++k) b[k] = uvw[0] * f0.e[k] + uvw[1] * f0.n[k] + uvw[2] * f0.s[k];
    const std::array<double, 3> nu{dot(b, f1.e), dot(b, f1.n), dot(b, f1.s)};
    const double dw = uvw[2] - nu[2];  // metres
    v.uvw_m[r] = nu;
    if (rotate_uvw_only) continue;
    for (int c = 0; c < v.num_channels; ++c) {
      const double ph = kTwoPi * dw * v.freq_hz[c] / kSpeedOfLight;
      const double cs = std::cos(ph), sn = std::sin(ph);
      for (int q = 0; q < npol; ++q) {
        Complex<T>& x = v.vis[(r * v.num_channels + c) * npol + q];
        const double re = x.re * cs - x.im * sn, im = x.re * sn + x.im * cs;
        x = {T(re), T(im)};
      }
    }
  }
}

template void rephase<float>(VisBuffer<float>&, std::array<double, 2>, std::array<double, 2>, bool);
template void rephase<double>(VisBuffer<double>&, std::array<double, 2>, std::array<double, 2>,
                              bool);

}  // namespace fringe::imager
