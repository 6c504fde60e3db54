#include "fringe/imager/plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "fringe/core/error.h"

namespace fringe::imager {

namespace {

// Bounding box of visibility footprints in grid cells: [lo, hi] per axis.
struct Box {
  double x_lo = std::numeric_limits<double>::max();
  double x_hi = std::numeric_limits<double>::lowest();
  double y_lo = std::numeric_limits<double>::max();
  double y_hi = std::numeric_limits<double>::lowest();
  bool empty() const { return x_lo > x_hi; }
  void add(double x, double y, double h) {
    x_lo = std::min(x_lo, x - h);
    x_hi = std::max(x_hi, x + h);
    y_lo = std::min(y_lo, y - h);
    y_hi = std::max(y_hi, y + h);
  }
  void add(const Box& b) {
    x_lo = std::min(x_lo, b.x_lo);
    x_hi = std::max(x_hi, b.x_hi);
    y_lo = std::min(y_lo, b.y_lo);
    y_hi = std::max(y_hi, b.y_hi);
  }
};

// Cells touched along one axis: [ceil(lo), floor(hi)].
bool fits_axis(double lo, double hi, int subgrid, int grid) {
  const double a = std::ceil(lo), b = std::floor(hi);
  return b - a + 1 <= subgrid && a >= 0 && b <= grid - 1;
}
bool fits(const Box& b, const GridGeometry& g) {
  return fits_axis(b.x_lo, b.x_hi, g.subgrid_size, g.grid_size) &&
         fits_axis(b.y_lo, b.y_hi, g.subgrid_size, g.grid_size);
}
int corner(double lo, double hi, int subgrid, int grid) {
  const int a = static_cast<int>(std::ceil(lo)), b = static_cast<int>(std::floor(hi));
  const int x0 = a - (subgrid - (b - a + 1)) / 2;
  return std::clamp(x0, 0, grid - subgrid);
}

struct Builder {
  const GridGeometry& g;
  const PlanInput& in;
  std::span<float> weight;
  const PlanOptions& opt;
  Plan& plan;
  double spread = g.w_spread_per_lambda();

  double w_lambda(std::size_t row, int c) const {
    return in.uvw_m[row][2] * in.freq_hz[c] / kSpeedOfLight;
  }
  int layer_of(double w) const {
    return g.w_step > 0 ? static_cast<int>(std::lround(w / g.w_step)) : 0;
  }
  // Footprint box of the usable visibilities of `row` in channels [c0, c1) about layer w0.
  Box row_box(std::size_t row, int c0, int c1, int layer, bool* any) const {
    Box b;
    *any = false;
    const double w0 = layer * g.w_step;
    for (int c = c0; c < c1; ++c) {
      if (weight[row * in.num_channels + c] <= 0.0f) continue;
      const double s = in.freq_hz[c] / kSpeedOfLight;
      const auto& uvw = in.uvw_m[row];
      const double h = 0.5 * g.taper_support + std::abs(uvw[2] * s - w0) * spread;
      b.add(g.grid_x(uvw[0] * s), g.grid_y(uvw[1] * s), h);
      *any = true;
    }
    return b;
  }
  // Drops (weight 0, counted) visibilities of row whose own footprint is outside the grid.
  void drop_outside(std::size_t row, int c0, int c1) {
    for (int c = c0; c < c1; ++c) {
      float& wt = weight[row * in.num_channels + c];
      if (wt <= 0.0f) continue;
      const double s = in.freq_hz[c] / kSpeedOfLight;
      const auto& uvw = in.uvw_m[row];
      const double w = uvw[2] * s;
      const double h = 0.5 * g.taper_support + std::abs(w - layer_of(w) * g.w_step) * spread;
      Box b;
      b.add(g.grid_x(uvw[0] * s), g.grid_y(uvw[1] * s), h);
      if (!fits(b, g)) {
        wt = 0.0f;
        ++plan.num_outside;
      }
    }
  }
  // Channels per group on this baseline: the most for which every row's group fits alone.
  int group_size(std::size_t r0, std::size_t r1) {
    int size = in.num_channels;
    if (opt.max_channels_per_group > 0) size = std::min(size, opt.max_channels_per_group);
    for (; size > 1; --size) {
      bool ok = true;
      for (std::size_t r = r0; r < r1 && ok; ++r)
        for (int c0 = 0; c0 < in.num_channels && ok; c0 += size) {
          const int c1 = std::min(c0 + size, in.num_channels);
          bool any = false;
          const int mid = (c0 + c1) / 2;
          const Box b = row_box(r, c0, c1, layer_of(w_lambda(r, mid)), &any);
          if (any && b.x_hi - b.x_lo + 1 > g.subgrid_size) ok = false;
          if (any && b.y_hi - b.y_lo + 1 > g.subgrid_size) ok = false;
        }
      if (ok) break;
    }
    return size;
  }

  void close(Subgrid& s, const Box& box, std::size_t nvis) {
    s.x0 = corner(box.x_lo, box.x_hi, g.subgrid_size, g.grid_size);
    s.y0 = corner(box.y_lo, box.y_hi, g.subgrid_size, g.grid_size);
    plan.subgrids.push_back(s);
    plan.num_gridded += nvis;
    plan.max_visibilities_per_subgrid =
        std::max(plan.max_visibilities_per_subgrid, std::size_t(s.num_rows) * s.num_channels);
    plan.max_rows_per_subgrid = std::max<std::size_t>(plan.max_rows_per_subgrid, s.num_rows);
  }

  std::size_t usable(std::size_t row, int c0, int c1) const {
    std::size_t n = 0;
    for (int c = c0; c < c1; ++c) n += weight[row * in.num_channels + c] > 0.0f;
    return n;
  }

  void baseline(std::size_t r0, std::size_t r1) {
    for (std::size_t r = r0; r < r1; ++r) drop_outside(r, 0, in.num_channels);
    const int gsize = group_size(r0, r1);
    for (int c0 = 0; c0 < in.num_channels; c0 += gsize) {
      const int c1 = std::min(c0 + gsize, in.num_channels);
      const int mid = (c0 + c1) / 2;
      bool open = false;
      Subgrid s;
      Box box;
      std::size_t nvis = 0;
      long interval = 0;
      for (std::size_t r = r0; r < r1; ++r) {
        const std::size_t n = usable(r, c0, c1);
        if (n == 0) continue;
        const long iv = opt.aterm_interval_s > 0
                            ? static_cast<long>(
                                  std::floor((in.time_s[r] - in.time_s[r0]) / opt.aterm_interval_s))
                            : 0;
        bool any = false;
        if (open) {
          const std::uint32_t rows = static_cast<std::uint32_t>(r - s.row_begin + 1);
          Box merged = box;
          merged.add(row_box(r, c0, c1, s.layer, &any));
          const bool ok = iv == interval && fits(merged, g) &&
                          (opt.max_times_per_subgrid <= 0 ||
                           rows <= static_cast<std::uint32_t>(opt.max_times_per_subgrid));
          if (ok) {
            box = merged;
            s.num_rows = rows;
            nvis += n;
            continue;
          }
          close(s, box, nvis);
        }
        s = Subgrid{};
        s.row_begin = static_cast<std::uint32_t>(r);
        s.num_rows = 1;
        s.chan_begin = static_cast<std::uint32_t>(c0);
        s.num_channels = static_cast<std::uint32_t>(c1 - c0);
        s.layer = layer_of(w_lambda(r, mid));
        s.station1 = in.station1.empty() ? 0 : in.station1[r];
        s.station2 = in.station2.empty() ? 0 : in.station2[r];
        s.aterm_index = static_cast<std::int32_t>(iv);
        box = row_box(r, c0, c1, s.layer, &any);
        interval = iv;
        if (!fits(box, g)) {
          // The group does not fit about this layer: such visibilities cannot be gridded.
          for (int c = c0; c < c1; ++c) {
            float& wt = weight[r * in.num_channels + c];
            if (wt > 0.0f) {
              wt = 0.0f;
              ++plan.num_outside;
            }
          }
          open = false;
          continue;
        }
        nvis = n;
        open = true;
      }
      if (open) close(s, box, nvis);
    }
  }
};

}  // namespace

std::span<const Subgrid> Plan::layer_subgrids(int layer) const {
  auto lo = std::lower_bound(subgrids.begin(), subgrids.end(), layer,
                             [](const Subgrid& s, int l) { return s.layer < l; });
  auto hi = std::upper_bound(subgrids.begin(), subgrids.end(), layer,
                             [](int l, const Subgrid& s) { return l < s.layer; });
  return {lo, hi};
}

double auto_w_step(const GridGeometry& g, double max_abs_w_lambda) {
  const double budget = 0.5 * (g.kernel_size - g.taper_support);  // cells each side
  const double spread = g.w_spread_per_lambda();
  if (max_abs_w_lambda * spread <= budget) return 0.0;
  return 2.0 * budget / spread;  // |w - w0| <= step / 2 keeps the spread within the budget
}

Plan make_plan(const GridGeometry& g, const PlanInput& in, std::span<float> weight,
               const PlanOptions& opt) {
  if (g.grid_size < g.subgrid_size || g.grid_size % 2 || g.subgrid_size % 2)
    throw Error("imager: grid size " + std::to_string(g.grid_size) +
                " (ImagerConfig.size x IdgConfig.padding) and subgrid size " +
                std::to_string(g.subgrid_size) +
                " (IdgConfig.subgrid_size) must be even, the grid at least the subgrid");
  if (g.taper_support > g.kernel_size || g.kernel_size >= g.subgrid_size)
    throw Error("imager: kernel size " + std::to_string(g.kernel_size) +
                " (IdgConfig.kernel_size) must be at least the taper support (" +
                std::to_string(g.taper_support) +
                ", IdgConfig.taper_support) and less than the subgrid size (" +
                std::to_string(g.subgrid_size) + ", IdgConfig.subgrid_size)");
  if (weight.size() != in.num_rows * in.num_channels)
    throw Error("imager: plan weights do not match the visibilities");
  Plan plan;
  for (float w : weight) plan.num_flagged += !(w > 0.0f);
  // Baselines are planned independently (each touches only its own rows' weights): blocks of
  // them on OpenMP threads, each into its own plan, joined in baseline order, so the plan is
  // the same whatever the number of threads.
  std::vector<std::size_t> starts;  // first row of each baseline, then num_rows
  for (std::size_t r = 0; r < in.num_rows; ++r)
    if (r == 0 || in.baseline[r] != in.baseline[r - 1]) starts.push_back(r);
  starts.push_back(in.num_rows);
  const std::size_t nbl = starts.size() - 1;
  const std::size_t nblocks = std::min<std::size_t>(nbl, 256);
  std::vector<Plan> parts(nblocks);
#pragma omp parallel for schedule(dynamic)
  for (std::size_t k = 0; k < nblocks; ++k) {
    Builder b{g, in, weight, opt, parts[k]};
    for (std::size_t i = nbl * k / nblocks; i < nbl * (k + 1) / nblocks; ++i)
      b.baseline(starts[i], starts[i + 1]);
  }
  std::size_t total = 0;
  for (const Plan& p : parts) total += p.subgrids.size();
  plan.subgrids.reserve(total);
  for (const Plan& p : parts) {
    plan.subgrids.insert(plan.subgrids.end(), p.subgrids.begin(), p.subgrids.end());
    plan.num_gridded += p.num_gridded;
    plan.num_outside += p.num_outside;
    plan.max_visibilities_per_subgrid =
        std::max(plan.max_visibilities_per_subgrid, p.max_visibilities_per_subgrid);
    plan.max_rows_per_subgrid = std::max(plan.max_rows_per_subgrid, p.max_rows_per_subgrid);
  }
  std::stable_sort(plan.subgrids.begin(), plan.subgrids.end(),
                   [](const Subgrid& a, const Subgrid& c) { return a.layer < c.layer; });
  for (const auto& s : plan.subgrids)
    if (plan.layers.empty() || plan.layers.back() != s.layer) plan.layers.push_back(s.layer);
  return plan;
}

}  // namespace fringe::imager
