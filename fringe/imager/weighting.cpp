#include "fringe/imager/weighting.h"

#include <cmath>
#include <vector>

namespace fringe::imager {

template <typename T>
double apply_weighting(const ImagerConfig& cfg, const GridGeometry& g, VisBuffer<T>& v) {
  const int gs = g.grid_size;
  auto cell = [&](double u, double vv, long* index) {
    const long x = std::lround(g.grid_x(u)), y = std::lround(g.grid_y(vv));
    if (x < 0 || y < 0 || x >= gs || y >= gs) return false;
    *index = y * gs + x;
    return true;
  };
  if (cfg.weighting == Weighting::Radial) {
    // OSKAR's radial weighting: w x |(u, v)| in wavelengths (a crude uniform weighting for
    // arrays whose uv density falls as 1/|uv|). The centre of the uv plane gets weight 0.
    for (std::size_t r = 0; r < v.num_rows; ++r)
      for (int c = 0; c < v.num_channels; ++c) {
        float& w = v.weight[r * v.num_channels + c];
        if (!(w > 0)) continue;
        const double s = v.freq_hz[c] / kSpeedOfLight;
        w = static_cast<float>(w * std::hypot(v.uvw_m[r][0] * s, v.uvw_m[r][1] * s));
      }
  } else if (cfg.weighting != Weighting::Natural) {
    std::vector<double> density(std::size_t(gs) * gs, 0.0);
    // IDG counts each visibility at (u, v) and at its conjugate (-u, -v), the cells both
    // contribute to; OSKAR's algorithms (FFT, W-projection, DFT) count (u, v) only, as OSKAR's
    // imager does (oskar_grid_weights), so that their uniform images equal OSKAR's.
    const bool conjugates = cfg.algorithm == Algorithm::Idg;
    for (std::size_t r = 0; r < v.num_rows; ++r)
      for (int c = 0; c < v.num_channels; ++c) {
        const double w = v.weight[r * v.num_channels + c];
        if (!(w > 0)) continue;
        const double s = v.freq_hz[c] / kSpeedOfLight;
        long i;
        if (cell(v.uvw_m[r][0] * s, v.uvw_m[r][1] * s, &i)) density[i] += w;
        if (conjugates && cell(-v.uvw_m[r][0] * s, -v.uvw_m[r][1] * s, &i)) density[i] += w;
      }
    double f2 = 1.0;
    if (cfg.weighting == Weighting::Briggs) {
      double sum_w2 = 0, sum_w = 0;
      for (double d : density) {
        sum_w2 += d * d;
        sum_w += d;
      }
      f2 = std::pow(5.0 * std::pow(10.0, -cfg.robust), 2) / (sum_w2 / sum_w);
    }
    for (std::size_t r = 0; r < v.num_rows; ++r)
      for (int c = 0; c < v.num_channels; ++c) {
        float& w = v.weight[r * v.num_channels + c];
        if (!(w > 0)) continue;
        const double s = v.freq_hz[c] / kSpeedOfLight;
        long i;
        if (!cell(v.uvw_m[r][0] * s, v.uvw_m[r][1] * s, &i)) continue;
        w = static_cast<float>(cfg.weighting == Weighting::Uniform ? w / density[i]
                                                                   : w / (1.0 + density[i] * f2));
      }
  }
  double total = 0;
  const double ln03 = std::log(0.3);
  for (std::size_t r = 0; r < v.num_rows; ++r)
    for (int c = 0; c < v.num_channels; ++c) {
      float& w = v.weight[r * v.num_channels + c];
      if (!(w > 0)) continue;
      const double s = v.freq_hz[c] / kSpeedOfLight;
      double e = 0;
      if (cfg.taper_u_lambda > 0) e += std::pow(v.uvw_m[r][0] * s / cfg.taper_u_lambda, 2);
      if (cfg.taper_v_lambda > 0) e += std::pow(v.uvw_m[r][1] * s / cfg.taper_v_lambda, 2);
      if (e > 0) w = static_cast<float>(w * std::exp(ln03 * e));
      total += w;
    }
  return total;
}

template double apply_weighting<float>(const ImagerConfig&, const GridGeometry&, VisBuffer<float>&);
template double apply_weighting<double>(const ImagerConfig&, const GridGeometry&,
                                        VisBuffer<double>&);

}  // namespace fringe::imager
