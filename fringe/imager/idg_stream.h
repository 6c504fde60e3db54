// IDG through the streamed imaging path (stream_imager.h): a ConvGridder that plans each slice
// of rows on its own (rows sorted by baseline within the slice, so subgrids do not span
// slices) and grids it onto the w layers the back end holds (IdgBackend::begin_layers: on the
// GPU when they fit there). The layers are transformed once, at finish(). When the layers of a
// run do not fit in the memory allowed at once, they are held in groups and the inputs are
// read once per group: a pass. Without A-terms (station beams need the whole plan).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fringe/imager/conv_imager.h"
#include "fringe/imager/idg.h"
#include "fringe/imager/imager_config.h"
#include "fringe/imager/plan.h"
#include "fringe/imager/taper.h"
#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

// The range of w layers [first, last] the subgrids of the visibilities seen can fall on: each
// row with weight > 0 is planned about w at one of its channels, so its |w| in metres times
// the lowest and highest frequency bounds it.
struct LayerRange {
  double w_lo_lambda = 0.0, w_hi_lambda = 0.0;  // extremes of w (wavelengths) seen
  bool any = false;
  template <typename T>
  void add(const VisBuffer<T>& vis);
  // A row of w_m metres (w) at frequencies / c from s_lo to s_hi (1/m).
  void add_w(double w_m, double s_lo, double s_hi);
  // The layers of w step w_step (0: the single layer 0).
  int first(double w_step) const;
  int last(double w_step) const;
};

// The same bound, and the largest |w|, from the inputs' UVW columns alone: every row, flagged
// or not, at the lowest and highest frequency of each input; no flags, weights or data read.
// A superset of what LayerRange::add gives for the selection, so its layers hold every
// subgrid, and as the automatic w step is either 0 or a constant (auto_w_step), a superset
// maximum |w| gives the same plan as the exact one (only |w| of exactly half a step could
// round to another layer). Used when the UVW are imaged as stored: nullopt for OSKAR .vis
// inputs and with re-phasing (ImagerConfig.rephase).
std::optional<LayerRange> stored_uvw_layer_range(const ImagerConfig& cfg);

template <typename T>
class IdgLayerGridder final : public ConvGridder<T> {
 public:
  // Layers [first_layer, last_layer] of geometry g held in groups of at most
  // max_layer_bytes (0: half the memory available now).
  IdgLayerGridder(const GridGeometry& g, const Taper& taper, const PlanOptions& plan_options,
                  int npol, std::unique_ptr<IdgBackend<T>> backend, int first_layer, int last_layer,
                  double max_layer_bytes);
  ~IdgLayerGridder() override;

  int num_passes() const { return int(groups_.size()); }
  // Holds the layers of pass p (0 .. num_passes() - 1); the previous pass's are transformed.
  void begin_pass(int p);
  // Sorts the rows of vis by baseline, plans them (weights of visibilities outside the grid
  // set to 0, counted) and grids the subgrids on the pass's layers.
  GridTotals add(VisBuffer<T>& vis) override;
  // The images (not normalised: the caller divides by the sum of the weights).
  std::vector<Complex<double>> finish(double sum_weights) override;

  std::size_t num_subgrids() const { return subgrids_; }  // over the first pass's slices
  int num_layers() const { return last_ - first_ + 1; }
  int layers_per_pass() const { return per_pass_; }
  std::string layers_location() const { return backend_->layers_location(); }
  std::string backend_name() const { return backend_->name(); }

 private:
  void end_pass();

  GridGeometry g_;
  Taper taper_;
  PlanOptions plan_options_;
  int npol_;
  std::unique_ptr<IdgBackend<T>> backend_;
  int first_, last_, per_pass_;
  std::vector<int> groups_;  // first layer of each pass
  int pass_ = -1;
  bool holding_ = false;
  std::size_t subgrids_ = 0;
  std::vector<Complex<double>> image_;
  VisBuffer<T> scratch_;
};

}  // namespace fringe::imager
