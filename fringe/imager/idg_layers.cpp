// The host defaults of IdgBackend's w-layer stack (idg.h): the streamed IDG path grids slice
// after slice into grids of every w layer held at once, and transforms them at the end.
#include <algorithm>
#include <span>

#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/imager/idg.h"

namespace fringe::imager {

template <typename T>
void IdgBackend<T>::begin_layers(const GridGeometry& g, int npol, int first_layer, int num_layers) {
  if (num_layers < 1) throw Error("imager (IDG): at least one w layer to hold expected");
  first_layer_ = first_layer;
  num_layers_ = num_layers;
  layer_pols_ = npol;
  layer_used_.assign(num_layers, 0);
  host_layers_.assign(std::size_t(num_layers) * npol * g.grid_size * g.grid_size,
                      Complex<T>{T(0), T(0)});
}

template <typename T>
std::span<const Subgrid> IdgBackend<T>::held_subgrids(const Plan& plan) {
  const auto lo = std::partition_point(plan.subgrids.begin(), plan.subgrids.end(),
                                       [&](const Subgrid& s) { return s.layer < first_layer_; });
  const auto hi = std::partition_point(lo, plan.subgrids.end(), [&](const Subgrid& s) {
    return s.layer < first_layer_ + num_layers_;
  });
  for (auto it = lo; it != hi; ++it) layer_used_[it->layer - first_layer_] = 1;
  return {lo, hi};
}

template <typename T>
void IdgBackend<T>::grid_layers(const GridGeometry& g, const Taper& taper, const Plan& plan,
                                const VisBuffer<T>& vis) {
  const std::size_t stride = std::size_t(layer_pols_) * g.grid_size * g.grid_size;
  const std::span<const Subgrid> held = held_subgrids(plan);
  for (std::size_t i = 0; i < held.size();) {  // one grid() per layer
    std::size_t j = i;
    while (j < held.size() && held[j].layer == held[i].layer) ++j;
    grid(g, taper, held.subspan(i, j - i), vis,
         host_layers_.data() + (held[i].layer - first_layer_) * stride);
    i = j;
  }
}

template <typename T>
void IdgBackend<T>::finish_layers(const GridGeometry& g, const Taper& taper,
                                  Complex<double>* image) {
  const std::size_t stride = std::size_t(layer_pols_) * g.grid_size * g.grid_size;
  const std::vector<double> corr = taper_correction(g, taper);
  for (int k = 0; k < num_layers_; ++k) {
    interrupt::throw_if_requested();  // SIGINT/SIGTERM: stop between w layers
    if (!layer_used_[k]) continue;    // no subgrid reached it: zero, nothing to add
    Complex<T>* grid = host_layers_.data() + k * stride;
    fft_grid(grid, g.grid_size, layer_pols_, true);
    add_layer_to_image(g, corr, first_layer_ + k, layer_pols_, grid, image);
  }
  host_layers_.clear();
  host_layers_.shrink_to_fit();
  num_layers_ = 0;
}

template class IdgBackend<float>;
template class IdgBackend<double>;

}  // namespace fringe::imager
