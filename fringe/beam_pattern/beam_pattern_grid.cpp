#include "fringe/beam_pattern/beam_pattern_grid.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "fringe/astro/direction.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/sky/sky_text_reader.h"

namespace fringe::beam_pattern {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double wrap_two_pi(double a) {
  a = std::fmod(a, 2.0 * kPi);
  return a < 0.0 ? a + 2.0 * kPi : a;
}

// The first two numbers of a line (separators: white space, commas; '#' ends the line).
bool two_numbers(std::string line, double& a, double& b) {
  line = line.substr(0, line.find('#'));
  for (char& ch : line) {
    if (ch == ',') ch = ' ';
  }
  std::istringstream words(line);
  std::string w[2];
  if (!(words >> w[0] >> w[1])) return false;
  double v[2] = {0.0, 0.0};
  for (int k = 0; k < 2; ++k) {
    char* end = nullptr;
    v[k] = std::strtod(w[k].c_str(), &end);
    if (end != w[k].c_str() + w[k].size() || !std::isfinite(v[k])) return false;
  }
  a = v[0];
  b = v[1];
  return true;
}

// n values from -sign * h to +sign * h, spaced as OSKAR's oskar_linspace_d: a + k (b - a) / (n - 1)
// (the mid-point for n = 1).
std::vector<double> oskar_axis(int n, double h, double sign) {
  const double a = -sign * h, b = sign * h;
  std::vector<double> v(std::size_t(std::max(n, 1)));
  if (n <= 1) {
    v[0] = 0.5 * (a + b);
    return v;
  }
  const double inc = (b - a) / double(n - 1);
  for (int k = 0; k < n; ++k) v[std::size_t(k)] = a + double(k) * inc;
  return v;
}

}  // namespace

double image_fov(const BeamImageConfig& image, int axis) {
  if (image.fov_rad[axis] > 0.0) return image.fov_rad[axis];
  const int n = axis == 0 ? image.width : image.height;
  return cellsize_to_fov(image.cell_rad[axis], n);
}

BeamGrid make_image_grid(BeamFrame frame, const BeamImageConfig& image, double ra0_rad,
                         double dec0_rad) {
  BeamGrid g;
  g.frame = frame;
  g.is_image = true;
  g.width = image.width;
  g.height = image.height;
  g.cell_rad[0] = image.cell_rad[0];
  g.cell_rad[1] = image.cell_rad[1];
  g.ra0 = ra0_rad;
  g.dec0 = dec0_rad;
  const std::size_t n = std::size_t(g.width) * std::size_t(g.height);
  g.lon.assign(n, kNaN);
  g.lat.assign(n, kNaN);
  // OSKAR's pixel directions (oskar_evaluate_image_lmn_grid, centred): n points evenly from
  // +sin(fov/2) to -sin(fov/2) in l (East on the left) and from -sin(fov/2) to +sin(fov/2)
  // in m, each as a + k (b - a) / (n - 1); one pixel sits at 0.
  const std::vector<double> ls = oskar_axis(g.width, std::sin(0.5 * image_fov(image, 0)), -1.0);
  const std::vector<double> ms = oskar_axis(g.height, std::sin(0.5 * image_fov(image, 1)), 1.0);
  for (int j = 0; j < g.height; ++j) {
    const double m = ms[std::size_t(j)];
    for (int i = 0; i < g.width; ++i) {
      const double l = ls[std::size_t(i)];
      const double r2 = l * l + m * m;
      if (!(std::sqrt(r2) <= 1.0)) continue;  // outside the projection
      const std::size_t p = std::size_t(j) * std::size_t(g.width) + std::size_t(i);
      if (frame == BeamFrame::Equatorial) {
        double ra = 0.0, dec = 0.0;
        astro::lm_to_radec(l, m, ra0_rad, dec0_rad, ra, dec);
        g.lon[p] = wrap_two_pi(ra);
        g.lat[p] = dec;
      } else {
        // Azimuth from North (m) through East (l); elevation from cos(el) = sqrt(l^2 + m^2).
        g.lon[p] = wrap_two_pi(std::atan2(l, m));
        g.lat[p] = std::atan2(std::sqrt(std::max(0.0, 1.0 - r2)), std::sqrt(r2));
      }
    }
  }
  return g;
}

BeamGrid read_sky_model_grid(const std::string& path, BeamFrame frame, Logger* logger) {
  BeamGrid g;
  g.frame = frame;
  g.is_image = false;
  g.source_file = path;
  if (sky::detect_text_sky_format(path) == sky::TextSkyFormat::NamedColumns) {
    sky::TextReadOptions options;
    options.diagnostics.logger = logger;
    const sky::SkyModel sky = sky::read_sky_named_columns(path, options);
    g.lon.assign(sky.ra.begin(), sky.ra.end());
    g.lat.assign(sky.dec.begin(), sky.dec.end());
    for (double& a : g.lon) a = wrap_two_pi(a);
  } else {
    std::ifstream in(path);
    if (!in) throw Error::in_file(path, 0, "cannot open the sky model file");
    std::string line;
    for (long n = 1; std::getline(in, line); ++n) {
      double lon = 0.0, lat = 0.0;
      if (!two_numbers(line, lon, lat)) continue;
      if (lat < -90.0 || lat > 90.0) {
        log_warning(logger, path + ":" + std::to_string(n) + ": " +
                                (frame == BeamFrame::Horizon ? "elevation " : "declination ") +
                                std::to_string(lat) + " deg is outside [-90, 90]: line skipped");
        continue;
      }
      g.lon.push_back(wrap_two_pi(lon * kDegToRad));
      g.lat.push_back(lat * kDegToRad);
    }
    if (in.bad()) throw Error::in_file(path, 0, "cannot read the sky model file");
  }
  if (g.lon.empty()) {
    throw Error::in_file(path, 0,
                         "the sky model file holds no positions (each line should start with "
                         "two numbers in degrees)");
  }
  g.width = int(g.lon.size());
  g.height = 1;
  return g;
}

std::vector<io::FitsAxis> image_axes(const BeamGrid& g) {
  const double cx = g.cell_rad[0] / kDegToRad, cy = g.cell_rad[1] / kDegToRad;
  if (g.frame == BeamFrame::Horizon) {
    return {{g.width, "HOLN-SIN", 0.0, cx, g.crpix(0), "deg", "Azimuth"},
            {g.height, "HOLT-SIN", 90.0, cy, g.crpix(1), "deg", "Elevation"}};
  }
  return {{g.width, "RA---SIN", wrap_two_pi(g.ra0) / kDegToRad, -cx, g.crpix(0), "deg",
           "Right Ascension"},
          {g.height, "DEC--SIN", g.dec0 / kDegToRad, cy, g.crpix(1), "deg", "Declination"}};
}

std::vector<io::FitsKeyword> frame_keywords(const BeamGrid& g) {
  if (g.frame == BeamFrame::Horizon) {
    return {{"WCSNAME", std::string("AZELGEO"), "azimuth and elevation at the station"},
            {"LONPOLE", 0.0, ""},
            {"LATPOLE", 90.0, ""}};
  }
  return {{"OBSRA", wrap_two_pi(g.ra0) / kDegToRad, "phase centre RA [deg]"},
          {"OBSDEC", g.dec0 / kDegToRad, "phase centre Dec [deg]"}};
}

}  // namespace fringe::beam_pattern
