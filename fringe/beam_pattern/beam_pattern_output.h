// Writers of sim_beam_pattern products (beam_pattern_products.h), each file written under a
// temporary name (removed on failure, SIGINT and SIGTERM) and committed when complete
// (fringe/core/output_guard.h): only an earlier output of the same kind may be replaced (a
// FITS file; a text file whose first line starts with kTextProductSignature); anything
// else at a product's path is refused when its writer is opened.
//
// FITS (images only): one file per product, axes (FITS order, axis 1 fastest)
//   1 RA---SIN or HOLN-SIN  (width)     WCS of beam_pattern_grid.h
//   2 DEC--SIN or HOLT-SIN  (height)
//   3 FREQ  [Hz]  channels: CRVAL3 = first channel centre, CDELT3 = channel spacing (1 Hz when
//                 the spacing is 0); averaged over channels: 1 plane at the mean frequency,
//                 CDELT3 = the covered band (number x spacing, or 1 Hz)
//   4 UTC   [s]   times: CRVAL4 = centre of the first dump as seconds since MJD 0
//                 (MJD(UTC) x 86400, MJDREF = 0), CDELT4 = dump length; averaged over times:
//                 1 plane at the centre of the observation, CDELT4 = its length
// so a cube is [time][channel][y][x] in C order. Pixel type: float32 in single precision,
// float64 in double. Keywords: the frame's (beam_pattern_grid.h), PRODUCT (the quantity),
// POLN (matrix element or Stokes parameter), TESTSRC (I or CUSTOM), STATION (telescope index)
// or NSTATION (cross power), TIMEAVG/CHANAVG, BUNIT = 'rad' for phases, TIMESYS, TIMEUNIT,
// MJDREF, MJD-OBS and DATE-OBS (start of the observation), ORIGIN, DATE; the settings as
// HISTORY cards. (OSKAR writes the start time, not the first dump centre, as CRVAL4, and
// CRPIX (N+1)/2 for images; see docs/beam_pattern.md.)
//
// Text: one file per product; '#' header lines (the first "# <application>: <what>", see
// kTextProductSignature; then which station, frame, times, channels, row order, column
// names), then one row per pixel (or sky-model source), time and channel:
//   time_index channel_index pixel_index lon_deg lat_deg value...
// lon/lat are RA/Dec (Equatorial) or azimuth/elevation (Horizon) in degrees; values: one
// number (amp, phase in rad, real, imag) or re/im pairs of the complex response or power
// matrix (XX, XY, YX, YY in Full mode). Pixels outside the projection give "nan". Rows come
// in the order they are computed: by pixel chunk, then time and channel (channel then time
// when averaging over time only), then pixel.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fringe/beam_pattern/beam_pattern_config.h"
#include "fringe/beam_pattern/beam_pattern_grid.h"
#include "fringe/beam_pattern/beam_pattern_products.h"
#include "fringe/core/output_guard.h"

namespace fringe::beam_pattern {

struct OutputContext {
  const BeamPatternConfig* config = nullptr;
  const BeamGrid* grid = nullptr;
  std::vector<std::size_t> station_ids;  // telescope indices of the selected stations
  std::vector<std::string> history;      // settings lines (FITS HISTORY)
  std::string application = "sim_beam_pattern";
  bool keep_open = true;  // false: close each file between writes (many files)
};

class ProductWriter {
 public:
  virtual ~ProductWriter() = default;
  // Pixels [first, first + n) of output time t and channel c (0 when averaged over that
  // axis); values holds n x product.num_values() numbers, pixel-major.
  virtual void write(int t, int c, std::size_t first, std::span<const double> values) = 0;
  virtual void finish() = 0;  // renames the complete file over its final name
};

// The start of the first line of every text product: "# <application>: <what>" when the
// application name starts with "fringe sim_beam_pattern" (as the app's does), else
// "# fringe sim_beam_pattern (<application>): <what>".
inline constexpr const char* kTextProductSignature = "# fringe sim_beam_pattern";

// The output-guard target of a product's file (for the app's check_outputs; key is the
// settings key that names or derives the path).
OutputTarget product_output_target(const std::string& key, const BeamProduct& product);

// Opens the (temporary) file of a product; throws fringe::Error naming the file.
std::unique_ptr<ProductWriter> open_product_writer(const BeamProduct& product,
                                                   const OutputContext& context);

}  // namespace fringe::beam_pattern
