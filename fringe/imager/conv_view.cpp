#include "fringe/imager/conv_view.h"

#include <omp.h>

#include "fringe/core/constants.h"

namespace fringe::imager {

template <typename T>
ConvVisView<T> conv_view(VisBuffer<T>& vis, int num_threads, std::vector<double>& uu,
                         std::vector<double>& vv, std::vector<double>* ww) {
  const std::size_t n = vis.num_visibilities();
  uu.resize(n);
  vv.resize(n);
  if (ww) ww->resize(n);
  double* w = ww ? ww->data() : nullptr;
#pragma omp parallel for num_threads(num_threads) schedule(static)
  for (std::size_t r = 0; r < vis.num_rows; ++r)
    for (int c = 0; c < vis.num_channels; ++c) {
      const double inv_wl = vis.freq_hz[c] / kSpeedOfLight;
      const std::size_t k = r * vis.num_channels + c;
      uu[k] = vis.uvw_m[r][0] * inv_wl;
      vv[k] = vis.uvw_m[r][1] * inv_wl;
      if (w) w[k] = vis.uvw_m[r][2] * inv_wl;
    }
  ConvVisView<T> view;
  view.num_vis = n;
  view.num_pols = vis.num_pols;
  view.uu = uu.data();
  view.vv = vv.data();
  view.ww = w;
  view.vis = vis.vis.data();
  view.weight = vis.weight.data();
  return view;
}

template <typename T>
std::vector<Complex<double>> image_all(ConvGridder<T>& gridder, VisBuffer<T>& vis,
                                       GridTotals& totals) {
  totals = gridder.add(vis);
  double sum_w = 0.0;
  for (float w : vis.weight)
    if (w > 0.0f) sum_w += w;
  return gridder.finish(sum_w);
}

#define FRINGE_CONV_VIEW(T)                                                         \
  template ConvVisView<T> conv_view<T>(VisBuffer<T>&, int, std::vector<double>&,    \
                                       std::vector<double>&, std::vector<double>*); \
  template std::vector<Complex<double>> image_all<T>(ConvGridder<T>&, VisBuffer<T>&, GridTotals&);
FRINGE_CONV_VIEW(float)
FRINGE_CONV_VIEW(double)
#undef FRINGE_CONV_VIEW

}  // namespace fringe::imager
