#include "fringe/sky/fits_image_reader.h"

#include <erfa.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "fringe/astro/direction.h"
#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/io/fits/fits_file.h"
#include "fringe/sky/brightness.h"
#include "fringe/sky/text_parse.h"

namespace fringe::sky {

namespace {

using io::FitsFile;

// No source comes near 1e30 Jy; larger pixel values only turn into Inf in products.
constexpr double kMaxFluxJy = 1e30;

enum class Frame { Equatorial, Galactic };
enum class Projection { Sin, Tan };

struct CelestialAxes {
  Frame frame = Frame::Equatorial;
  Projection projection = Projection::Sin;
};

std::string key_i(const char* base, int i) { return base + std::to_string(i); }
std::string key_ij(const char* base, int i, int j) {
  return base + std::to_string(i) + "_" + std::to_string(j);
}

CelestialAxes celestial_axes(const FitsFile& f) {
  const std::string& path = f.path();
  const std::string c1 = f.key_string("CTYPE1").value_or("");
  const std::string c2 = f.key_string("CTYPE2").value_or("");
  auto refuse = [&](const std::string& why) {
    throw Error::in_file(
        path, 0,
        "unsupported image coordinates (CTYPE1 = '" + c1 + "', CTYPE2 = '" + c2 + "'): " + why);
  };
  if (c1.size() < 8 || c2.size() < 8)
    refuse(
        "axes 1 and 2 must be celestial with a projection code, e.g. 'RA---SIN' and "
        "'DEC--SIN'");
  const std::string lon = c1.substr(0, 4), lat = c2.substr(0, 4);
  CelestialAxes axes;
  if (lon == "RA--" && lat == "DEC-") {
    axes.frame = Frame::Equatorial;
  } else if (lon == "GLON" && lat == "GLAT") {
    axes.frame = Frame::Galactic;
  } else if (lon == "DEC-" || lat == "RA--" || lon == "GLAT") {
    refuse("latitude on axis 1 is not supported; longitude must be axis 1");
  } else {
    refuse("only RA/DEC and GLON/GLAT axes are supported");
  }
  const std::string p1 = c1.substr(5, 3), p2 = c2.substr(5, 3);
  if (p1 != p2) refuse("the two axes use different projections");
  if (p1 == "SIN") {
    axes.projection = Projection::Sin;
    for (int m = 1; m <= 2; ++m) {
      const auto pv = f.key_double("PV2_" + std::to_string(m));
      if (pv && *pv != 0.0)
        refuse("slant orthographic SIN (PV2_" + std::to_string(m) + " != 0) is not supported");
    }
  } else if (p1 == "TAN") {
    axes.projection = Projection::Tan;
  } else {
    refuse("projection '" + p1 + "' is not supported (only SIN and TAN)");
  }
  const auto lonpole = f.key_double("LONPOLE");
  const double crval2 = f.key_double("CRVAL2").value_or(0.0);
  if (lonpole && crval2 < 90.0 && std::fabs(*lonpole - 180.0) > 1e-9)
    refuse("LONPOLE = " + std::to_string(*lonpole) + " (only the default 180) is supported");
  if (axes.frame == Frame::Equatorial) {
    const auto radesys = f.key_string("RADESYS").value_or(f.key_string("RADECSYS").value_or(""));
    const auto equinox = f.key_double("EQUINOX").value_or(f.key_double("EPOCH").value_or(2000.0));
    if (radesys == "FK4" || radesys == "FK4-NO-E" || std::fabs(equinox - 2000.0) > 1e-6)
      refuse("only J2000 (FK5/ICRS) equatorial coordinates are supported (RADESYS = '" + radesys +
             "', EQUINOX = " + std::to_string(equinox) + ")");
  }
  return axes;
}

// CD matrix [deg/pixel] from CDi_j, PCi_j + CDELTi, or CROTA2 + CDELTi.
std::array<double, 4> cd_matrix(const FitsFile& f) {
  std::array<double, 4> cd{};
  bool have_cd = false;
  for (int i = 1; i <= 2; ++i)
    for (int j = 1; j <= 2; ++j) {
      const auto v = f.key_double(key_ij("CD", i, j));
      if (v) have_cd = true;
      cd[(i - 1) * 2 + (j - 1)] = v.value_or(0.0);
    }
  if (have_cd) return cd;
  const auto cdelt1 = f.key_double("CDELT1"), cdelt2 = f.key_double("CDELT2");
  if (!cdelt1 || !cdelt2 || *cdelt1 == 0.0 || *cdelt2 == 0.0)
    throw Error::in_file(f.path(), 0,
                         "no pixel scale: need CDELT1 and CDELT2 (non-zero) or a CD matrix");
  std::array<double, 4> pc = {1, 0, 0, 1};
  bool have_pc = false;
  for (int i = 1; i <= 2; ++i)
    for (int j = 1; j <= 2; ++j) {
      const auto v = f.key_double(key_ij("PC", i, j));
      if (v) {
        have_pc = true;
        pc[(i - 1) * 2 + (j - 1)] = *v;
      }
    }
  if (!have_pc) {
    const auto crota = f.key_double("CROTA2");
    if (crota && *crota != 0.0) {
      const double r = *crota * kDegToRad;
      pc = {std::cos(r), -std::sin(r) * (*cdelt2 / *cdelt1), std::sin(r) * (*cdelt1 / *cdelt2),
            std::cos(r)};
    }
  }
  const double d[2] = {*cdelt1, *cdelt2};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) cd[i * 2 + j] = d[i] * pc[i * 2 + j];
  return cd;
}

// BMAJ/BMIN [deg] from keywords or an AIPS "CLEAN BMAJ=... BMIN=..." history card.
bool beam_size(const FitsFile& f, double& bmaj, double& bmin) {
  const auto a = f.key_double("BMAJ"), b = f.key_double("BMIN");
  if (a && b) {
    bmaj = *a;
    bmin = *b;
    return true;
  }
  for (const std::string& h : f.history()) {
    const auto p = h.find("BMAJ=");
    const auto q = h.find("BMIN=");
    if (h.find("AIPS") == std::string::npos || p == std::string::npos || q == std::string::npos)
      continue;
    auto number_after = [&](std::size_t pos) {
      std::size_t s = pos;
      while (s < h.size() && h[s] == ' ') ++s;
      std::size_t e = s;
      while (e < h.size() && h[e] != ' ') ++e;
      return text::parse_number(std::string_view(h).substr(s, e - s));
    };
    const auto x = number_after(p + 5), y = number_after(q + 5);
    if (x && y) {
      bmaj = *x;
      bmin = *y;
      return true;
    }
  }
  return false;
}

// The reference point must be a direction on the sky and the pixel grid finite: CRVAL2 is a
// latitude (within [-90, 90] deg), CRVAL1 a longitude (within [-360, 360] deg).
void check_reference(const std::string& path, double crval1, double crval2, double crpix1,
                     double crpix2, const std::array<double, 4>& cd) {
  auto refuse = [&](const std::string& key, double value, const std::string& expected) {
    char written[32];
    std::snprintf(written, sizeof written, "%.10g", value);
    throw Error::in_file(path, 0, "keyword " + key + " = " + written + ": " + expected);
  };
  if (!(std::fabs(crval2) <= 90.0))
    refuse("CRVAL2", crval2, "the reference latitude must be within [-90, 90] degrees");
  if (!(std::fabs(crval1) <= 360.0))
    refuse("CRVAL1", crval1, "the reference longitude must be within [-360, 360] degrees");
  if (!std::isfinite(crpix1)) refuse("CRPIX1", crpix1, "expected a finite reference pixel");
  if (!std::isfinite(crpix2)) refuse("CRPIX2", crpix2, "expected a finite reference pixel");
  for (double v : cd)
    if (!std::isfinite(v))
      throw Error::in_file(path, 0, "the pixel scale (CDELTi, CDi_j or PCi_j) is not finite");
}

// FITS Stokes codes (Greisen & Calabretta 2002, A&A 395, 1061, table 7).
std::string stokes_name(long code) {
  static const char* const kPositive[] = {"I", "Q", "U", "V"};
  static const char* const kNegative[] = {"RR", "LL", "RL", "LR", "XX", "YY", "XY", "YX"};
  if (code >= 1 && code <= 4) return kPositive[code - 1];
  if (code <= -1 && code >= -8) return kNegative[-code - 1];
  return "code " + std::to_string(code);
}

// The 1-based pixel of STOKES axis `a` that holds Stokes I (value 1); refuses an axis
// without one, naming what it holds (a Q plane must never be read as I).
long stokes_i_pixel(const FitsFile& f, int a, long n) {
  const double crval = f.key_double(key_i("CRVAL", a)).value_or(1.0);
  const double cdelt = f.key_double(key_i("CDELT", a)).value_or(1.0);
  const double crpix = f.key_double(key_i("CRPIX", a)).value_or(1.0);
  std::string found;
  for (long p = 1; p <= n && p <= 16; ++p) {
    const double value = crval + cdelt * (static_cast<double>(p) - crpix);
    const long code = std::lround(value);
    if (code == 1 && std::fabs(value - 1.0) < 1e-6) return p;
    found += (found.empty() ? "" : ", ") + stokes_name(code);
  }
  throw Error::in_file(f.path(), 0,
                       "the STOKES axis (CTYPE" + std::to_string(a) + ") holds " + found +
                           " but no Stokes I plane; a sky model image must be Stokes I");
}

}  // namespace

FitsImageReadOptions fits_image_read_options(const FitsImageConfig& c) {
  FitsImageReadOptions o;
  o.default_map_units = c.default_map_units;
  o.override_map_units = c.override_map_units;
  o.spectral_index = c.spectral_index;
  o.min_peak_fraction = c.min_peak_fraction;
  o.min_abs_val = c.min_abs_val;
  return o;
}

int fits_primary_naxis(const std::string& path) {
  FitsFile f(path);
  int status = 0;
  const int naxis = f.image_dim(status);
  f.check(status, "cannot read NAXIS");
  return naxis;
}

SkyModel read_fits_image_sky(const std::string& path, const FitsImageReadOptions& options) {
  FitsFile f(path);
  int status = 0;
  const int naxis = f.image_dim(status);
  f.check(status, "cannot read NAXIS");
  if (naxis < 2)
    throw Error::in_file(path, 0,
                         "not an image (NAXIS = " + std::to_string(naxis) +
                             "); HEALPix maps are read with the HEALPix reader");
  const std::vector<long> naxes = f.image_size(naxis, status);
  f.check(status, "cannot read image size");
  const CelestialAxes axes = celestial_axes(f);
  const std::array<double, 4> cd = cd_matrix(f);
  const double crpix1 = f.key_double("CRPIX1").value_or(0.0);
  const double crpix2 = f.key_double("CRPIX2").value_or(0.0);
  const double crval1 = f.key_double("CRVAL1").value_or(0.0);
  const double crval2 = f.key_double("CRVAL2").value_or(0.0);
  check_reference(path, crval1, crval2, crpix1, crpix2, cd);
  const double lon0 = crval1 * kDegToRad;
  const double lat0 = crval2 * kDegToRad;

  // The plane read: the Stokes I pixel of a STOKES axis, pixel 1 of every other axis.
  std::vector<long> first(static_cast<std::size_t>(naxis), 1);
  // Reference frequency: FREQ axis at pixel 1; extra planes are ignored (warned).
  double freq = options.default_freq_hz;
  bool extra_planes = false;
  for (int a = 3; a <= naxis; ++a) {
    const std::string ctype = f.key_string(key_i("CTYPE", a)).value_or("");
    if (ctype.rfind("STOKES", 0) == 0) {
      first[a - 1] = stokes_i_pixel(f, a, naxes[a - 1]);
      if (naxes[a - 1] > 1)
        options.diagnostics.warn(path + ": image has " + std::to_string(naxes[a - 1]) +
                                 " Stokes planes; only Stokes I (STOKES pixel " +
                                 std::to_string(first[a - 1]) + ") is read");
      continue;
    }
    if (naxes[a - 1] > 1) extra_planes = true;
    if (ctype.rfind("FREQ", 0) == 0) {
      const double crval = f.key_double(key_i("CRVAL", a)).value_or(0.0);
      const double cdelt = f.key_double(key_i("CDELT", a)).value_or(0.0);
      const double crpix = f.key_double(key_i("CRPIX", a)).value_or(1.0);
      freq = crval + cdelt * (1.0 - crpix);
    }
  }
  if (extra_planes)
    options.diagnostics.warn(path + ": image has more than one plane; only the first is read");

  // Units.
  const auto bunit = f.key_string("BUNIT");
  MapUnits units = options.default_map_units;
  if (bunit && !options.override_map_units) {
    const auto u = parse_map_units(*bunit);
    if (!u)
      throw Error::in_file(path, 0,
                           "unknown BUNIT '" + *bunit +
                               "' (expected Jy/beam, Jy/pixel, K or mK; or override the units)");
    units = *u;
  }
  const double pixel_area_deg2 = std::fabs(cd[0] * cd[3] - cd[1] * cd[2]);
  double scale = 1.0;
  if (units == MapUnits::JyPerBeam) {
    double bmaj = 0, bmin = 0;
    if (!beam_size(f, bmaj, bmin) || !(bmaj > 0) || !(bmin > 0))
      throw Error::in_file(path, 0,
                           "map is in Jy/beam but has no beam size (BMAJ/BMIN keywords or an "
                           "AIPS CLEAN BMAJ= history card)");
    scale = 1.0 / beam_area_pixels(bmaj, bmin, pixel_area_deg2);
  } else if (units == MapUnits::K || units == MapUnits::mK) {
    if (!(freq > 0))
      throw Error::in_file(
          path, 0,
          "map is in " + to_string(units) + " but its frequency is unknown (no FREQ axis)");
    scale = kelvin_to_jy_per_pixel(freq, pixel_area_deg2 * kDegToRad * kDegToRad) *
            (units == MapUnits::mK ? 1e-3 : 1.0);
  }

  // The selected plane. Sizes come from the header: check them against the file and the
  // memory before allocating (NAXIS1 = 1e9 in a 3 kB file).
  const long nx = naxes[0], ny = naxes[1];
  const double plane_values = static_cast<double>(nx) * static_cast<double>(ny);
  // Per pixel: the value and its selection flag (the sources kept come on top).
  constexpr double kBytesPerPixel = sizeof(double) + 1.0;
  f.check_read_size(plane_values, kBytesPerPixel,
                    "NAXIS1 = " + std::to_string(nx) + ", NAXIS2 = " + std::to_string(ny));
  std::vector<double> pixels;
  try {
    pixels.resize(static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny));
  } catch (const std::bad_alloc&) {
    throw Error::in_file(path, 0,
                         "not enough memory for an image plane of NAXIS1 = " + std::to_string(nx) +
                             " x NAXIS2 = " + std::to_string(ny) + " pixels");
  }
  f.read_pixels(first, pixels, std::nan(""), status);
  f.check(status, "cannot read image pixels");
  const auto keep = pixel_selection(pixels, options.min_peak_fraction, options.min_abs_val);

  SkyModel sky;
  std::size_t off_sphere = 0;
  for (long y = 0; y < ny; ++y) {
    for (long x = 0; x < nx; ++x) {
      const std::size_t k = static_cast<std::size_t>(y * nx + x);
      if (!keep[k]) continue;
      const double dx = static_cast<double>(x + 1) - crpix1;
      const double dy = static_cast<double>(y + 1) - crpix2;
      const double xi = (cd[0] * dx + cd[1] * dy) * kDegToRad;
      const double eta = (cd[2] * dx + cd[3] * dy) * kDegToRad;
      double l = xi, m = eta;
      if (axes.projection == Projection::Tan) {
        const double r = std::sqrt(1.0 + xi * xi + eta * eta);
        l = xi / r;
        m = eta / r;
      }
      if (l * l + m * m > 1.0) {
        ++off_sphere;
        continue;
      }
      double lon = 0, lat = 0;
      astro::lm_to_radec(l, m, lon0, lat0, lon, lat);
      Source s;
      if (axes.frame == Frame::Galactic) {
        eraG2icrs(lon, lat, &s.ra, &s.dec);
      } else {
        s.ra = eraAnp(lon);
        s.dec = lat;
      }
      s.I = pixels[k] * scale;
      if (!(std::fabs(s.I) <= kMaxFluxJy)) {
        char value[32];
        std::snprintf(value, sizeof value, "%.10g", pixels[k]);
        throw Error::in_file(path, 0,
                             "pixel (" + std::to_string(x + 1) + ", " + std::to_string(y + 1) +
                                 ") = " + value + " is out of range (|flux| <= 1e30 Jy expected)");
      }
      s.ref_freq = freq;
      s.spectral_index = {options.spectral_index};
      sky.push_back(s);
    }
  }
  if (off_sphere > 0)
    options.diagnostics.warn(path + ": " + std::to_string(off_sphere) +
                             " pixels lie outside the projection's valid region and were dropped");
  return sky;
}

}  // namespace fringe::sky
