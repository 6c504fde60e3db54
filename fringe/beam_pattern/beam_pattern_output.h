// Writers of sim_beam_pattern products (beam_pattern_products.h) in OSKAR 2.13's layout, each
// file written under a temporary name (removed on failure, SIGINT and SIGTERM) and committed
// when complete (fringe/core/output_guard.h): only an earlier output of the same kind may be
// replaced (a FITS file; a text file whose first line starts with kTextProductSignature, as
// OSKAR's and fringe's do); anything else at a product's path is refused when its writer is
// opened.
//
// FITS (images only): one file per product, axes (FITS order, axis 1 fastest)
//   1 RA---SIN or HOLN-SIN  (width)     WCS of beam_pattern_grid.h (CRPIX = (N + 1) / 2)
//   2 DEC--SIN or HOLT-SIN  (height)
//   3 FREQ  [Hz]  CRVAL3 = the first channel's frequency, CDELT3 = the channel spacing (as
//                 given, 0 for one channel), CRPIX3 = 1
//   4 UTC   [s]   CRVAL4 = the observation start as seconds since MJD 0 (MJD(UTC) x 86400),
//                 CDELT4 = the dump length, CRPIX4 = 1
// as OSKAR writes them, also for products averaged over times or channels (one plane then;
// the axis keywords stay those of the first channel and time). A cube is [time][channel][y][x]
// in C order. Pixel type: float32 in single precision, float64 in double. Keywords: the
// frame's (beam_pattern_grid.h), CROTA1..4 = 0, TIMESYS, TIMEUNIT, MJD-OBS (start) as OSKAR's;
// fringe's own: PRODUCT (the quantity), POLN (matrix element or Stokes parameter), TESTSRC
// (I or CUSTOM), STATION (telescope index) or NSTATION (cross power), TIMEAVG/CHANAVG, MJDREF,
// DATE-OBS, ORIGIN, DATE; the settings as HISTORY cards. No BUNIT (OSKAR writes none; phases
// are in radians).
//
// Text: one file per product, OSKAR's layout (oskar_beam_pattern_check_init.c): nine '#'
// lines
//   # Beam pixel list for station <telescope index>   (or "for telescope (interferometer)")
//   # Filename is '<root_path as given><suffix>'
//   # Dimension order (slowest to fastest) is:
//   #     [pixel chunk], [time], [channel], [pixel index]   ([channel], [time] when the
//                                                            single-axis average is Time)
//   # Number of pixel chunks: <n>
//   # Number of times (output): <n>
//   # Number of channels (output): <n>
//   # Maximum pixel chunk size: <simulator/max_sources_per_chunk>
//   # Total number of pixels: <n>
// then one line per pixel (or sky-model position) in that order: the value ("% .6e " in
// single precision, "% .14e " in double, each followed by a space), or the re/im pairs of the
// complex response or power matrix (8 numbers in Full mode: X_THETA, X_PHI, Y_THETA, Y_PHI or
// XX, XY, YX, YY; 2 in Scalar mode); "-nan " outside the projection.
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

// The start of the first line of every text product (OSKAR's and fringe's).
inline constexpr const char* kTextProductSignature = "# Beam pixel list for ";

// The output-guard target of a product's file (for the app's check_outputs; key is the
// settings key that names or derives the path).
OutputTarget product_output_target(const std::string& key, const BeamProduct& product);

// Opens the (temporary) file of a product; throws fringe::Error naming the file.
std::unique_ptr<ProductWriter> open_product_writer(const BeamProduct& product,
                                                   const OutputContext& context);

}  // namespace fringe::beam_pattern
