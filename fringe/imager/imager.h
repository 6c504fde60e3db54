// The imager pipeline (`imager settings.ini`, and sim_interferometer's optional imaging
// step): read the Measurement Set(s), weight, plan, grid with IDG on a GPU or the CPU (or
// the DFT), FFT, correct, and write one FITS image per product (<root>_<product>.fits,
// a cube over channels with channel_snapshots). docs/imager.md.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/core/log.h"
#include "fringe/core/progress.h"
#include "fringe/imager/imager_config.h"
#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

struct ImagerResult {
  std::vector<std::string> files;    // FITS images written
  std::size_t num_visibilities = 0;  // selected (rows x channels)
  std::size_t num_gridded = 0;
  std::size_t num_flagged = 0;            // flagged or zero weight
  std::size_t num_outside = 0;            // outside the uv range or the grid
  std::size_t num_non_finite = 0;         // dropped visibilities: NaN/Inf value, weight or UVW
  std::vector<std::string> empty_images;  // files with an all-zero plane (warned about)
  std::size_t num_subgrids = 0;
  int num_w_layers = 0;
  int grid_size = 0;
  double sum_weights = 0.0;
  std::string device;  // "CPU (n threads)", "GPU 0 (...)", "DFT"
  double seconds_read = 0, seconds_grid = 0, seconds_write = 0;
  // The streamed path's stages (stream_imager.h) in order, seconds each: "first pass",
  // "kernels", "read wait", "convert", "weight", "grid", "transform", "write" (empty on the
  // other paths).
  std::vector<std::pair<std::string, double>> stages;
};

// A failure of the run itself, not of its input (memory exhausted while allocating, a FITS
// file that cannot be written, an image that came out non-finite): apps exit 1, not 2.
class RunFailure : public Error {
 public:
  using Error::Error;
};

// Before any work: validates the config (run_checks.h: ranges named by config field), checks
// the FITS outputs (fringe::check_outputs, the inputs may never be written) and the run size
// (fringe::check_run_size; config.force overrides). Throws fringe::Error for bad input
// (missing Measurement Set or column, empty selection, an image too large for memory,
// unsupported options, an output path that holds something else), RunFailure (above) and
// interrupt::Cancelled (SIGINT/SIGTERM, polled per file, channel and w layer). Non-finite
// visibilities are dropped and counted (a warning; an error with config.strict), and so is an
// all-zero image plane. The images are written under temporary names and renamed into place
// only when all of them are complete.
ImagerResult run(const ImagerConfig& config, const ProgressCallback& progress = {},
                 Logger* log = nullptr);

// The images of visibilities already in memory (the public API's array path, fringe/api/
// imager.h): the steps of run() between its read and its write (weighting, IDG or DFT per
// channel plane, normalisation by the imaged weight, the all-zero checks), no file read or
// written. vis: as read_visibilities makes it (rows of a baseline consecutive, in time order;
// uvw in metres; weight 0 = not used); its weights become the imaging weights.
// phase_centre_rad (RA, Dec): the A-terms' phase centre. ImagerConfig.input_ms, root_path,
// the uv range and the time and frequency ranges are not used (the caller selects).
// Pixels [product][channel plane][y][x], x fastest (geometry.h), Jy/beam.
struct ImageArrays {
  int num_products = 0;
  int num_planes = 0;
  int size = 0;
  std::vector<double> pixels;
  ImagerResult result;
};
template <typename T>
ImageArrays image_in_memory(const ImagerConfig& config, VisBuffer<T>& vis,
                            std::array<double, 2> phase_centre_rad, Logger* log = nullptr);

// Bytes of host memory a run of this config needs for its grids and images (not the
// visibilities).
std::size_t estimated_grid_bytes(const ImagerConfig& config);

// The grid side for an image side and padding factor (even, >= image size).
int padded_grid_size(int image_size, double padding);
// The uv grid side of a run: IDG's padded grid, W-projection's (wproj_grid_size), or the image
// size (FFT, and the DFTs' notional grid used by uniform weighting).
int imaging_grid_size(const ImagerConfig& config);

}  // namespace fringe::imager
