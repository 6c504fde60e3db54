// The imager through the public API (docs/cpp_api.md, docs/python.md "Beams, imaging and
// calibration"): dirty images (or the PSF) as arrays, from visibility arrays in memory or from
// Measurement Sets (the imager app's pipeline, imager::run, optionally writing its FITS
// images). The config is the imager's own typed config (fringe/imager/imager_config.h: image
// size in pixels, cell_rad in radians (direction cosines), weighting, algorithm IDG / DFT 2D /
// DFT 3D, image type, channel snapshots, GPU or CPU).
// Pixel convention (imager/geometry.h, the FITS SIN projection of the written images): pixel
// (x, y) of an n x n image, 0-based, has l = -(x - n/2) cell, m = (y - n/2) cell; the phase
// centre is pixel (n/2, n/2); x runs along RA decreasing (FITS axis 1, CDELT1 < 0).
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/core/log.h"
#include "fringe/imager/imager.h"
#include "fringe/imager/imager_config.h"

namespace fringe::api {

using imager::ImagerConfig;

// Visibilities in memory (C-contiguous, row-major):
//   uvw_m:    [row][3] baseline coordinates u, v, w in metres (station 2 minus station 1,
//             the Measurement Set's UVW);
//   vis:      complex [row][channel][pol], pol 1 (the product imaged, e.g. Stokes I) or 4
//             (XX, XY, YX, YY: any ImagerConfig.image_type is formed from them, as from an MS);
//   weight:   [row][channel] (0 = not used), or empty: every weight 1;
//   freq_hz:  [channel] Hz;
//   antenna1, antenna2: [row] station indices, or empty (each row then counts as its own
//             baseline: right for IDG, only slower; station-beam A-terms need them);
//   time_s:   [row] seconds (MJD(UTC) x 86400), or empty (all 0).
// phase_centre_rad: RA, Dec of the phase centre (station-beam A-terms only).
struct VisibilityInput {
  std::size_t num_rows = 0;
  int num_channels = 1;
  int num_pols = 1;
  std::span<const double> uvw_m;
  std::span<const Complex<double>> vis;
  std::span<const double> weight;
  std::span<const double> freq_hz;
  std::span<const int> antenna1;
  std::span<const int> antenna2;
  std::span<const double> time_s;
  std::array<double, 2> phase_centre_rad{0.0, 0.0};
};

// Images [product][plane][y][x] (x fastest), products as imager::product_names(image_type)
// (e.g. {"I"} or {"XX", "XY", "YX", "YY"}), planes one per channel with channel snapshots,
// else one (all channels together). Jy/beam (the PSF: 1 at its peak for natural weighting of
// a single channel plane; in general the sum of the weights normalised, as OSKAR's).
struct Image {
  int num_products = 0;
  int num_planes = 0;
  int size = 0;
  std::vector<std::string> products;
  std::vector<double> pixels;
  imager::ImagerResult result;  // counts, device, and files (the MS path's FITS)
};

// Images visibility arrays with `config` (its input_ms and its time and frequency ranges are
// ignored; uv_min_lambda and uv_max_lambda are applied). With config.root_path set, the images
// are also written as FITS <root_path>_<product>.fits (imager/image_output.h, the imager app's
// writer: checked first with fringe::check_outputs, renamed into place when all are complete;
// the reference pixel at phase_centre_rad, the mean frequency or one plane per channel).
// config.precision picks the precision of the gridding. fringe::Error for arrays of the wrong size,
// pols other than 1 or 4, or a config out of range.
Image make_image(const ImagerConfig& config, const VisibilityInput& input, Logger* log = nullptr);

// Images config.input_ms with imager::run (the imager app's pipeline, its checks included)
// and returns the images. With config.root_path set, the FITS images
// <root_path>_<product>.fits stay; with it empty they are written to a temporary folder, read
// back and removed.
Image image_ms(const ImagerConfig& config, Logger* log = nullptr);

// A FITS image read whole: axis lengths (NAXIS1 first) and pixels (axis 1 fastest); blank
// pixels NaN.
struct FitsImage {
  std::vector<long> axes;
  std::vector<double> pixels;
};
FitsImage read_fits_image(const std::string& path);

// The pixel size (rad, direction cosines) of `size` pixels across a field of view fov_rad, as
// the imager app computes it from image/fov_deg (OSKAR's relation): asin(2 sin(fov / 2) / size).
// fringe::Error unless 0 < fov < pi and size > 0.
double fov_to_cell_rad(double fov_rad, int size);

}  // namespace fringe::api
