#include "fringe/imager/idg_stream.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/resources.h"
#include "fringe/imager/imager.h"
#include "fringe/imager/input_columns.h"
#include "fringe/imager/plan.h"
#include "fringe/imager/sort_rows.h"
#include "fringe/io/ms/ms_reader.h"

namespace fringe::imager {

void LayerRange::add_w(double w_m, double s_lo, double s_hi) {
  const double a = w_m * s_lo, b = w_m * s_hi;
  if (!any) w_lo_lambda = w_hi_lambda = a;
  any = true;
  w_lo_lambda = std::min({w_lo_lambda, a, b});
  w_hi_lambda = std::max({w_hi_lambda, a, b});
}

template <typename T>
void LayerRange::add(const VisBuffer<T>& v) {
  if (v.num_channels == 0) return;
  const auto [fmin, fmax] = std::minmax_element(v.freq_hz.begin(), v.freq_hz.end());
  const double s_lo = *fmin / kSpeedOfLight, s_hi = *fmax / kSpeedOfLight;
  const int nchan = v.num_channels;
  for (std::size_t r = 0; r < v.num_rows; ++r) {
    const float* w = v.weight.data() + r * nchan;
    if (std::none_of(w, w + nchan, [](float x) { return x > 0; })) continue;
    add_w(v.uvw_m[r][2], s_lo, s_hi);
  }
}

std::optional<LayerRange> stored_uvw_layer_range(const ImagerConfig& cfg) {
  if (cfg.rephase) return std::nullopt;
  for (const std::string& path : cfg.input_ms)
    if (is_vis_file(path)) return std::nullopt;
  LayerRange range;
  std::vector<std::array<double, 3>> uvw;
  for (const std::string& path : cfg.input_ms) {
    const std::unique_ptr<io::MsReader> ms = open_input_ms(path);
    const std::vector<double> f = ms->channel_frequencies_hz();
    if (f.empty()) continue;
    const auto [fmin, fmax] = std::minmax_element(f.begin(), f.end());
    const double s_lo = *fmin / kSpeedOfLight, s_hi = *fmax / kSpeedOfLight;
    const std::size_t rows = ms->num_rows(), step = std::size_t(1) << 20;
    for (std::size_t start = 0; start < rows; start += step) {
      interrupt::throw_if_requested();
      ms->read_uvw(start, std::min(step, rows - start), uvw);
      for (const auto& x : uvw)
        if (std::isfinite(x[2])) range.add_w(x[2], s_lo, s_hi);
    }
  }
  return range;
}

// The same rounding as the plan's layer_of (plan.cpp).
int LayerRange::first(double w_step) const {
  return w_step > 0 && any ? int(std::lround(w_lo_lambda / w_step)) : 0;
}
int LayerRange::last(double w_step) const {
  return w_step > 0 && any ? int(std::lround(w_hi_lambda / w_step)) : 0;
}

template void LayerRange::add<float>(const VisBuffer<float>&);
template void LayerRange::add<double>(const VisBuffer<double>&);

template <typename T>
IdgLayerGridder<T>::IdgLayerGridder(const GridGeometry& g, const Taper& taper,
                                    const PlanOptions& plan_options, int npol,
                                    std::unique_ptr<IdgBackend<T>> backend, int first_layer,
                                    int last_layer, double max_layer_bytes)
    : g_(g),
      taper_(taper),
      plan_options_(plan_options),
      npol_(npol),
      backend_(std::move(backend)),
      first_(first_layer),
      last_(std::max(first_layer, last_layer)) {
  if (max_layer_bytes <= 0) {
    const double avail = double(available_memory_bytes());
    max_layer_bytes = avail > 0 ? 0.5 * avail : layer_stack_bytes<T>(g, npol, num_layers());
  }
  per_pass_ = int(std::clamp<double>(std::floor(max_layer_bytes / layer_stack_bytes<T>(g, npol, 1)),
                                     1.0, num_layers()));
  for (int l = first_; l <= last_; l += per_pass_) groups_.push_back(l);
  image_.assign(std::size_t(npol) * g.image_size * g.image_size, Complex<double>{0.0, 0.0});
}

template <typename T>
IdgLayerGridder<T>::~IdgLayerGridder() = default;

template <typename T>
void IdgLayerGridder<T>::begin_pass(int p) {
  if (p < 0 || p >= num_passes()) throw Error("imager (IDG): no pass " + std::to_string(p));
  end_pass();
  pass_ = p;
  const int n = std::min(per_pass_, last_ - groups_[p] + 1);
  backend_->begin_layers(g_, npol_, groups_[p], n);
  holding_ = true;
}

template <typename T>
void IdgLayerGridder<T>::end_pass() {
  if (!holding_) return;
  backend_->finish_layers(g_, taper_, image_.data());
  holding_ = false;
}

template <typename T>
GridTotals IdgLayerGridder<T>::add(VisBuffer<T>& vis) {
  if (!holding_) begin_pass(0);
  sort_rows_by_baseline(vis, scratch_);
  const Plan plan = make_plan(g_,
                              {vis.num_rows, vis.num_channels, vis.uvw_m, vis.time_s, vis.baseline,
                               vis.freq_hz, vis.station1, vis.station2},
                              vis.weight, plan_options_);
  if (!plan.layers.empty() && (plan.layers.front() < first_ || plan.layers.back() > last_))
    throw RunFailure(
        "imager (IDG): a subgrid fell on w layer " +
        std::to_string(plan.layers.front() < first_ ? plan.layers.front() : plan.layers.back()) +
        ", outside the layers " + std::to_string(first_) + " to " + std::to_string(last_) +
        " of the first pass; please report");
  backend_->grid_layers(g_, taper_, plan, vis);
  if (pass_ == 0) subgrids_ += plan.subgrids.size();
  GridTotals t;
  t.gridded = plan.num_gridded;
  t.outside = plan.num_outside;
  return t;
}

template <typename T>
std::vector<Complex<double>> IdgLayerGridder<T>::finish(double) {
  end_pass();
  return std::move(image_);
}

template class IdgLayerGridder<float>;
template class IdgLayerGridder<double>;

}  // namespace fringe::imager
