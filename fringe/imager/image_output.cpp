#include "fringe/imager/image_output.h"

#include <vector>

#include "fringe/core/constants.h"
#include "fringe/io/fits/fits_image_writer.h"

namespace fringe::imager {

namespace {

io::FitsImageHeader header(const ImageCube& c) {
  io::FitsImageHeader h;
  h.pixel_type =
      c.precision == Precision::Double ? io::FitsPixelType::Float64 : io::FitsPixelType::Float32;
  const double cell_deg = c.cell_rad * kRadToDeg;
  h.axes.push_back({c.size, "RA---SIN", c.centre_rad[0] * kRadToDeg, -cell_deg, 0.5 * c.size + 1.0,
                    "deg", "Right ascension (SIN projection)"});
  h.axes.push_back({c.size, "DEC--SIN", c.centre_rad[1] * kRadToDeg, cell_deg, 0.5 * c.size + 1.0,
                    "deg", "Declination (SIN projection)"});
  h.axes.push_back({static_cast<long>(c.freq_hz.size()), "FREQ", c.freq_hz.at(0), c.freq_step_hz,
                    1.0, "Hz", "Frequency"});
  h.keywords.push_back({"BUNIT", c.bunit, "Brightness unit"});
  h.keywords.push_back({"EQUINOX", 2000.0, "Epoch of the coordinates"});
  h.keywords.push_back({"RADESYS", std::string("FK5"), "Reference frame"});
  h.keywords.push_back({"OBSRA", c.centre_rad[0] * kRadToDeg, "Phase centre RA [deg]"});
  h.keywords.push_back({"OBSDEC", c.centre_rad[1] * kRadToDeg, "Phase centre Dec [deg]"});
  h.keywords.push_back({"ORIGIN", std::string("fringe imager"), ""});
  h.history = c.history;
  return h;
}

}  // namespace

void write_image_cube(const std::string& path, const ImageCube& c) {
  io::write_fits_image(path, header(c), std::span<const double>(c.pixels));
}

std::unique_ptr<io::FitsImageWriter> write_image_cube_unfinished(const std::string& path,
                                                                 const ImageCube& c) {
  auto w = std::make_unique<io::FitsImageWriter>(path, header(c));
  w->write(0, std::span<const double>(c.pixels));
  return w;
}

}  // namespace fringe::imager
