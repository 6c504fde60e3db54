#include "fringe/imager/weighting.h"

#include <cmath>
#include <vector>

namespace fringe::imager {

bool needs_uv_density(const ImagerConfig& cfg) {
  return cfg.weighting == Weighting::Uniform || cfg.weighting == Weighting::Briggs;
}

UvDensity::UvDensity(const ImagerConfig& cfg, const GridGeometry& g)
    : weighting_(cfg.weighting),
      // IDG counts each visibility at (u, v) and at its conjugate (-u, -v), the cells both
      // contribute to; OSKAR's algorithms (FFT, W-projection, DFT) count (u, v) only, as
      // OSKAR's imager does (oskar_grid_weights), so that their uniform images equal OSKAR's.
      conjugates_(cfg.algorithm == Algorithm::Idg),
      robust_(cfg.robust),
      g_(g),
      sums_(std::size_t(g.grid_size) * g.grid_size, 0.0) {}

bool UvDensity::cell(double u, double v, long* index) const {
  const int gs = g_.grid_size;
  const long x = std::lround(g_.grid_x(u)), y = std::lround(g_.grid_y(v));
  if (x < 0 || y < 0 || x >= gs || y >= gs) return false;
  *index = y * gs + x;
  return true;
}

template <typename T>
void UvDensity::add(const VisBuffer<T>& v) {
  for (std::size_t r = 0; r < v.num_rows; ++r)
    for (int c = 0; c < v.num_channels; ++c) {
      const double w = v.weight[r * v.num_channels + c];
      if (!(w > 0)) continue;
      const double s = v.freq_hz[c] / kSpeedOfLight;
      long i;
      if (cell(v.uvw_m[r][0] * s, v.uvw_m[r][1] * s, &i)) sums_[i] += w;
      if (conjugates_ && cell(-v.uvw_m[r][0] * s, -v.uvw_m[r][1] * s, &i)) sums_[i] += w;
    }
}

void UvDensity::finish() {
  f2_ = 1.0;
  if (weighting_ != Weighting::Briggs) return;
  double sum_w2 = 0, sum_w = 0;
  for (double d : sums_) {
    sum_w2 += d * d;
    sum_w += d;
  }
  f2_ = std::pow(5.0 * std::pow(10.0, -robust_), 2) / (sum_w2 / sum_w);
}

double UvDensity::weigh(double w, double u, double v) const {
  long i;
  if (!cell(u, v, &i)) return w;
  return weighting_ == Weighting::Uniform ? w / sums_[i] : w / (1.0 + sums_[i] * f2_);
}

template <typename T>
double apply_weighting(const ImagerConfig& cfg, const UvDensity* density, VisBuffer<T>& v) {
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
  } else if (needs_uv_density(cfg) && density) {
    for (std::size_t r = 0; r < v.num_rows; ++r)
      for (int c = 0; c < v.num_channels; ++c) {
        float& w = v.weight[r * v.num_channels + c];
        if (!(w > 0)) continue;
        const double s = v.freq_hz[c] / kSpeedOfLight;
        w = static_cast<float>(density->weigh(w, v.uvw_m[r][0] * s, v.uvw_m[r][1] * s));
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

template <typename T>
double apply_weighting(const ImagerConfig& cfg, const GridGeometry& g, VisBuffer<T>& v) {
  if (!needs_uv_density(cfg))
    return apply_weighting(cfg, static_cast<const UvDensity*>(nullptr), v);
  UvDensity density(cfg, g);
  density.add(v);
  density.finish();
  return apply_weighting(cfg, &density, v);
}

#define FRINGE_WEIGHTING(T)                                                                 \
  template void UvDensity::add<T>(const VisBuffer<T>&);                                     \
  template double apply_weighting<T>(const ImagerConfig&, const UvDensity*, VisBuffer<T>&); \
  template double apply_weighting<T>(const ImagerConfig&, const GridGeometry&, VisBuffer<T>&);
FRINGE_WEIGHTING(float)
FRINGE_WEIGHTING(double)
#undef FRINGE_WEIGHTING

}  // namespace fringe::imager
