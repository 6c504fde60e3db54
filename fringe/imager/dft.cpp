#include "fringe/imager/dft.h"
#include "fringe/core/constants.h"

#include <cmath>

#include "fringe/core/interrupt.h"
#include "fringe/imager/geometry.h"

namespace fringe::imager {

template <typename T>
std::vector<Complex<double>> dft_image(const VisBuffer<T>& vis, int n, double cell_rad,
                                       bool with_w) {
  const int npol = vis.num_pols;
  const std::size_t plane = std::size_t(n) * n;
  std::vector<Complex<double>> image(npol * plane, Complex<double>{0.0, 0.0});
  const double two_pi = kTwoPi;
#pragma omp parallel for schedule(dynamic)
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      if (interrupt::requested()) continue;  // SIGINT/SIGTERM: no throw inside OpenMP
      double l, m, nm1;
      pixel_lmn<double>(x, y, n, n * cell_rad, &l, &m, &nm1);
      if (!with_w) nm1 = 0.0;
      for (std::size_t r = 0; r < vis.num_rows; ++r)
        for (int c = 0; c < vis.num_channels; ++c) {
          const std::size_t k = r * vis.num_channels + c;
          const double wt = vis.weight[k];
          if (!(wt > 0.0)) continue;
          const double s = vis.freq_hz[c] / kSpeedOfLight;
          const auto& uvw = vis.uvw_m[r];
          const double ph = -two_pi * s * (uvw[0] * l + uvw[1] * m + uvw[2] * nm1);
          const double cs = std::cos(ph), sn = std::sin(ph);
          for (int q = 0; q < npol; ++q) {
            const Complex<T> v = vis.vis[k * npol + q];
            Complex<double>& o = image[q * plane + std::size_t(y) * n + x];
            o.re += wt * (v.re * cs - v.im * sn);
            o.im += wt * (v.re * sn + v.im * cs);
          }
        }
    }
  interrupt::throw_if_requested();
  return image;
}

template <typename T>
void dft_predict(std::span<const Complex<double>> model, int n, double cell_rad, VisBuffer<T>& vis,
                 bool with_w) {
  const int npol = vis.num_pols;
  const std::size_t plane = std::size_t(n) * n;
  const double two_pi = kTwoPi;
  std::vector<double> l(plane), m(plane), nm1(plane);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const std::size_t i = std::size_t(y) * n + x;
      pixel_lmn<double>(x, y, n, n * cell_rad, &l[i], &m[i], &nm1[i]);
      if (!with_w) nm1[i] = 0.0;
    }
#pragma omp parallel for schedule(dynamic)
  for (std::size_t r = 0; r < vis.num_rows; ++r)
    for (int c = 0; c < vis.num_channels; ++c) {
      const std::size_t k = r * vis.num_channels + c;
      if (!(vis.weight[k] > 0.0f) || interrupt::requested()) continue;
      const double s = vis.freq_hz[c] / kSpeedOfLight;
      const auto& uvw = vis.uvw_m[r];
      for (int q = 0; q < npol; ++q) {
        double vr = 0, vi = 0;
        for (std::size_t i = 0; i < plane; ++i) {
          const Complex<double> mv = model[q * plane + i];
          if (mv.re == 0.0 && mv.im == 0.0) continue;
          const double ph = two_pi * s * (uvw[0] * l[i] + uvw[1] * m[i] + uvw[2] * nm1[i]);
          const double cs = std::cos(ph), sn = std::sin(ph);
          vr += mv.re * cs - mv.im * sn;
          vi += mv.re * sn + mv.im * cs;
        }
        vis.vis[k * npol + q] = {T(vr), T(vi)};
      }
    }
  interrupt::throw_if_requested();
}

template std::vector<Complex<double>> dft_image<float>(const VisBuffer<float>&, int, double, bool);
template std::vector<Complex<double>> dft_image<double>(const VisBuffer<double>&, int, double,
                                                        bool);
template void dft_predict<float>(std::span<const Complex<double>>, int, double, VisBuffer<float>&,
                                 bool);
template void dft_predict<double>(std::span<const Complex<double>>, int, double, VisBuffer<double>&,
                                  bool);

}  // namespace fringe::imager
