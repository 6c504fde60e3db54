#include "fringe/imager/run_checks.h"

#include <cmath>
#include <filesystem>
#include <sstream>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/imager/imager.h"
#include "fringe/imager/ms_input.h"
#include "fringe/io/fits/fits_image_writer.h"
#include "fringe/io/ms/ms_reader.h"

namespace fringe::imager {

namespace {

std::string num(double x) {
  std::ostringstream s;
  s.precision(10);
  s << x;
  return s.str();
}

// The largest grid side: its cells are counted in int (plan, FFT) and 2^20 cells per side are
// already 16 TB per product in double precision.
constexpr double kMaxGridSide = 1 << 20;

}  // namespace

void validate(const ImagerConfig& c) {
  if (c.size <= 0 || c.size % 2)
    throw Error::in_field("ImagerConfig.size", std::to_string(c.size),
                          "expected an even, positive number of pixels");
  // Angles are given in the units the user writes them in: the pixel size in arcsec, the
  // centre in degrees.
  if (!(c.cell_rad > 0) || !std::isfinite(c.cell_rad) || c.cell_rad * c.size / 2 >= 1.0)
    throw Error::in_field("ImagerConfig.cell_rad", num(c.cell_rad * kRadToDeg * 3600.0),
                          "expected a positive pixel size with which the image "
                          "(ImagerConfig.size " +
                              std::to_string(c.size) + " pixels) lies inside the sky hemisphere");
  if (c.rephase) {
    if (!std::isfinite(c.centre_ra_rad))
      throw Error::in_field("ImagerConfig.centre_ra_rad", num(c.centre_ra_rad * kRadToDeg),
                            "expected a finite right ascension in degrees");
    if (!(std::abs(c.centre_dec_rad) <= kPi / 2))
      throw Error::in_field("ImagerConfig.centre_dec_rad", num(c.centre_dec_rad * kRadToDeg),
                            "expected a declination in [-90, 90] degrees");
  }
  if (c.algorithm == Algorithm::Fft) {
    // The kernel's 2 support + 1 cells must fit on the grid (the image size) with a margin.
    if (c.size < 2 * c.fft.support + 2)
      throw Error::in_field("ImagerConfig.size", std::to_string(c.size),
                            "too small for the FFT kernel (FftConfig.support " +
                                std::to_string(c.fft.support) + " needs at least " +
                                std::to_string(2 * c.fft.support + 2) + " pixels)");
    // At most a 129 x 129 kernel (memo 086's 128 x 128 case fits) and 1e4 samples per cell: the
    // table holds oversample x (support + 1) values.
    if (c.fft.support < 1 || c.fft.support > 64)
      throw Error::in_field("FftConfig.support", std::to_string(c.fft.support),
                            "expected a kernel half-width of 1 to 64 grid cells");
    if (c.fft.oversample < 1 || c.fft.oversample > 10000)
      throw Error::in_field("FftConfig.oversample", std::to_string(c.fft.oversample),
                            "expected 1 to 10000 kernel samples per grid cell");
  }
  if (c.algorithm == Algorithm::WProjection) {
    if (c.wproj.num_w_planes > 10000)
      throw Error::in_field("WProjConfig.num_w_planes", std::to_string(c.wproj.num_w_planes),
                            "expected at most 10000 w planes (or 0: automatic)");
    if (!(c.wproj.padding >= 1.0 && c.wproj.padding <= 4.0))
      throw Error("imager: the W-projection grid padding " + num(c.wproj.padding) +
                  " is out of range: expected 1 to 4");
  }
  if (c.algorithm != Algorithm::Idg) return;
  const IdgConfig& g = c.idg;
  if (!(g.padding >= 1.0) || !std::isfinite(g.padding))
    throw Error::in_field("IdgConfig.padding", num(g.padding), "expected a finite number >= 1");
  if (double(c.size) * g.padding > kMaxGridSide)
    throw Error::in_field("ImagerConfig.size", std::to_string(c.size),
                          "the grid (ImagerConfig.size x IdgConfig.padding " + num(g.padding) +
                              ") must be at most " + num(kMaxGridSide) + " cells per side");
  if (g.subgrid_size <= 0 || g.subgrid_size % 2)
    throw Error::in_field("IdgConfig.subgrid_size", std::to_string(g.subgrid_size),
                          "expected an even, positive number of cells");
  const int grid = padded_grid_size(c.size, g.padding);
  if (grid < g.subgrid_size)
    throw Error::in_field("ImagerConfig.size", std::to_string(c.size),
                          "the grid (ImagerConfig.size x IdgConfig.padding " + num(g.padding) +
                              ", rounded up to even: " + std::to_string(grid) +
                              " cells) must hold at least one subgrid (IdgConfig.subgrid_size " +
                              std::to_string(g.subgrid_size) +
                              "): use a larger ImagerConfig.size or a smaller "
                              "IdgConfig.subgrid_size");
  if (g.kernel_size <= 0 || g.kernel_size >= g.subgrid_size)
    throw Error::in_field("IdgConfig.kernel_size", std::to_string(g.kernel_size),
                          "expected a positive size less than IdgConfig.subgrid_size (" +
                              std::to_string(g.subgrid_size) + ")");
  if (!(g.w_step_lambda >= 0) || !std::isfinite(g.w_step_lambda))
    throw Error::in_field("IdgConfig.w_step_lambda", num(g.w_step_lambda),
                          "expected 'auto' or a finite number >= 0");
  if (!(g.aterm_interval_s >= 0) || !std::isfinite(g.aterm_interval_s))
    throw Error::in_field("IdgConfig.aterm_interval_s", num(g.aterm_interval_s),
                          "expected a finite number of seconds >= 0");
}

std::vector<OutputTarget> output_targets(const ImagerConfig& c) {
  std::vector<OutputTarget> t;
  if (!c.model_image.empty()) return t;  // prediction: a column of the inputs
  for (const std::string& p : product_names(c.image_type))
    t.push_back(io::fits_target("ImagerConfig.root_path", c.root_path + "_" + p + ".fits"));
  return t;
}

std::vector<std::string> run_inputs(const ImagerConfig& c) {
  std::vector<std::string> in = c.input_ms;
  if (!c.model_image.empty()) in.push_back(c.model_image);
  return in;
}

RunEstimate estimate_run(const ImagerConfig& c) {
  double rows = 0, ms_bytes = 0;
  int nchan = 1;
  for (const std::string& path : c.input_ms) {
    try {
      if (!std::filesystem::exists(path)) continue;
      const io::MsReader ms(path);
      const double r = double(ms.num_rows());
      const int nc = std::max(1, ms.num_channels()), np = std::max(1, ms.num_pols());
      nchan = std::max(nchan, nc);
      rows += r;
      // Columns held while the buffer is filled: UVW, TIME, ANTENNA1/2, the data column
      // (complex float), FLAG (bool), WEIGHT (float per correlation), the row list.
      ms_bytes += r * (24.0 + 8 + 8 + 32 + 4.0 * np + double(nc) * np * (8 + 1));
    } catch (const std::exception&) {
      // The read names what is wrong with this input.
    }
  }
  const bool dbl = c.precision == Precision::Double;
  const double elem = dbl ? 16 : 8;  // complex grid value
  const double npol = num_product_pols(c.image_type);
  const double n = c.size;
  const double g = imaging_grid_size(c);
  const double planes = c.channel_snapshots ? nchan : 1;
  // The visibility buffer [row][channel][product] with its weights, per-row metadata (UVW,
  // time, baseline, stations, file and row index); one more channel's copy for snapshots.
  const double vis = rows * (24.0 + 8 + 12 + 12) + rows * nchan * (npol * elem + 4.0) +
                     (c.channel_snapshots ? rows * (npol * elem + 4.0 + 56) : 0.0);
  const double grid = npol * g * g * elem + (c.weighting != Weighting::Natural ? g * g * 8 : 0);
  // The complex image of a plane, the real planes of every product, one cube's copy to write.
  const double images = npol * n * n * 16 + npol * planes * n * n * 8 + planes * n * n * 8;
  // The plan: at most one subgrid per row and channel group of 128 (40 bytes each).
  const double plan = rows * std::ceil(nchan / 128.0) * 40;
  RunEstimate e;
  e.memory_bytes = ms_bytes + vis + grid + images + plan;
  if (c.model_image.empty()) {
    const double pixel = dbl ? 8 : 4;
    e.output_bytes = npol * (planes * n * n * pixel + 2880 * 4);
    const std::filesystem::path root(c.root_path);
    e.output_dir = root.has_parent_path() ? root.parent_path().string() : ".";
  } else {
    e.output_dir = c.input_ms.empty() ? "." : c.input_ms.front();
  }
  e.what = "imager run (" + num(rows) + " rows x " + std::to_string(nchan) + " channels into " +
           std::to_string(int(npol)) + " image(s) of " + std::to_string(c.size) + " x " +
           std::to_string(c.size) + " pixels" +
           (c.channel_snapshots ? " x " + std::to_string(nchan) + " channels" : "") +
           (g != n ? ", grid " + num(g) + " x " + num(g) : "") + ")";
  e.setting_hint =
      "ImagerConfig.size, IdgConfig.padding, ImagerConfig.channel_snapshots, "
      "ImagerConfig.precision";
  return e;
}

}  // namespace fringe::imager
