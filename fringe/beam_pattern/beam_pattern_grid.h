// Where a beam pattern is evaluated: the pixels of an image or the positions of a sky-model
// file, as directions in the Equatorial frame (RA/Dec) or in each station's Horizon frame
// (azimuth from North through East, elevation), and the WCS of the image axes.
//
// Image pixels (i, j), 0-based, i along FITS axis 1, j along axis 2, pixel index j * W + i,
// are placed as OSKAR 2.13 places them (oskar_evaluate_image_lmn_grid): with s_x = sin(fov_x/2)
// and s_y = sin(fov_y/2),
//   l_i = s_x - i * 2 s_x / (W - 1),   m_j = -s_y + j * 2 s_y / (H - 1)     (0 when N = 1)
// so l grows to the left (East on the left, as seen on the sky) and m upwards. The FITS WCS
// is OSKAR's too: CRPIX = (N + 1) / 2 (the image centre), |CDELT| = asin(2 s / N) (the pixel
// size of fov_to_cellsize). Both agree at the centre; elsewhere the WCS (SIN: intermediate
// coordinate = direction cosine) puts pixel i at l = (CRPIX - 1 - i) sin(cell) = (N-1)/2 - i
// times 2 s / N, a spacing N/(N-1) times smaller than the pixels' own: OSKAR's convention,
// kept so that its users' scripts read fringe's files the same way.
//   Equatorial: about the phase centre (RA0, Dec0); l East, m North; RA---SIN / DEC--SIN,
//     CRVAL = (RA0, Dec0), CDELT1 = -cell_x, CDELT2 = +cell_y (degrees).
//   Horizon: about the zenith of each station; l = cos(el) sin(az) (East),
//     m = cos(el) cos(az) (North): the orthographic view of the whole visible hemisphere,
//     fov = 180 deg, so l, m in [-1, 1]. WCS as OSKAR writes it: WCSNAME AZELGEO, HOLN-SIN /
//     HOLT-SIN, CRVAL = (0, 90) deg, LONPOLE 0, LATPOLE 90, CDELT1 = +cell_x,
//     CDELT2 = +cell_y: the longitude axis is the azimuth (North up, East left) and the
//     latitude axis the elevation.
// Pixels with l^2 + m^2 > 1 are outside the projection (no direction): their lon/lat are NaN
// and every output there is NaN.
// Sky-model positions (OSKAR's rule, private_beam_pattern_generate_coordinates.c): the first
// two numbers of each line, in degrees: RA and Dec in the Equatorial frame, azimuth and
// elevation in the Horizon frame. Lines that do not start with two numbers (comments,
// headers) are skipped; a named-column file ("format" header; docs/conventions.md, "Sky model
// files") gives its RA/Dec columns. Angles in radians unless named _deg.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fringe/beam_pattern/beam_pattern_config.h"
#include "fringe/core/log.h"
#include "fringe/io/fits/fits_image_writer.h"

namespace fringe::beam_pattern {

struct BeamGrid {
  BeamFrame frame = BeamFrame::Equatorial;
  bool is_image = true;
  int width = 0, height = 0;        // image axes 1 and 2 (sky model: count x 1)
  double cell_rad[2] = {0.0, 0.0};  // image pixel size along axes 1 and 2
  double ra0 = 0.0, dec0 = 0.0;     // Equatorial: the phase centre (image centre)
  std::string source_file;          // sky model: the file the positions come from
  std::vector<double> lon, lat;     // per pixel: RA/Dec or azimuth/elevation; NaN outside

  std::size_t size() const { return lon.size(); }
  bool valid(std::size_t p) const { return lon[p] == lon[p]; }  // not NaN
  // Reference pixel (1-based) of image axis 0 or 1: (N + 1) / 2, the image centre.
  double crpix(int axis) const { return 0.5 * double((axis == 0 ? width : height) + 1); }
};

// The field of view (rad) of image axis 0 or 1: image.fov_rad, else from the pixel size.
double image_fov(const BeamImageConfig& image, int axis);

// The pixels of an image (config.image) about (ra0, dec0) or the zenith.
BeamGrid make_image_grid(BeamFrame frame, const BeamImageConfig& image, double ra0_rad,
                         double dec0_rad);

// Positions from a sky-model file. Throws fringe::Error naming the file when it cannot be
// read or holds no position; lines with a latitude outside [-90, 90] deg are skipped with a
// warning naming the file and line (logger may be nullptr).
BeamGrid read_sky_model_grid(const std::string& path, BeamFrame frame, Logger* logger);

// FITS axes 1 and 2 (the WCS above) and the frame's keywords, for images only.
std::vector<io::FitsAxis> image_axes(const BeamGrid& grid);
std::vector<io::FitsKeyword> frame_keywords(const BeamGrid& grid);

}  // namespace fringe::beam_pattern
