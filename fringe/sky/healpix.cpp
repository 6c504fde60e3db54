#include "fringe/sky/healpix.h"

#include <erfa.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/io/fits/fits_file.h"
#include "fringe/sky/brightness.h"

namespace fringe::sky {

// Gorski et al. 2005, section 4 (RING scheme): north polar cap, equatorial belt, south cap.
void healpix_pix2ang_ring(std::uint64_t nside, std::uint64_t p, double& theta, double& phi) {
  const double n = static_cast<double>(nside);
  const std::uint64_t npix = healpix_npix(nside);
  const std::uint64_t ncap = 2 * nside * (nside - 1);
  double z = 0;
  if (p < ncap) {
    // Ring i (1-based) holds 4i pixels; pixel j (1-based) within the ring.
    auto i =
        static_cast<std::uint64_t>(0.5 * (1.0 + std::sqrt(1.0 + 2.0 * static_cast<double>(p))));
    while (2 * i * (i - 1) > p) --i;  // guard against rounding
    while (2 * (i + 1) * i <= p) ++i;
    const std::uint64_t j = p + 1 - 2 * i * (i - 1);
    const double di = static_cast<double>(i);
    z = 1.0 - di * di / (3.0 * n * n);
    phi = kPi / (2.0 * di) * (static_cast<double>(j) - 0.5);
  } else if (p < npix - ncap) {
    const std::uint64_t q = p - ncap;
    const std::uint64_t i = q / (4 * nside) + nside;  // ring index, nside..3 nside
    const std::uint64_t j = q % (4 * nside) + 1;
    const double shift = ((i + nside) % 2 == 1) ? 1.0 : 0.5;  // rings alternate half a pixel
    z = 4.0 / 3.0 - 2.0 * static_cast<double>(i) / (3.0 * n);
    phi = kPi / (2.0 * n) * (static_cast<double>(j) - shift);
  } else {
    const std::uint64_t q = npix - p;  // 1-based count from the south pole
    auto i =
        static_cast<std::uint64_t>(0.5 * (1.0 + std::sqrt(2.0 * static_cast<double>(q) - 1.0)));
    while (i > 1 && 2 * i * (i - 1) >= q) --i;
    while (2 * (i + 1) * i < q) ++i;
    const std::uint64_t j = 4 * i + 1 - (q - 2 * i * (i - 1));
    const double di = static_cast<double>(i);
    z = -1.0 + di * di / (3.0 * n * n);
    phi = kPi / (2.0 * di) * (static_cast<double>(j) - 0.5);
  }
  theta = std::acos(std::max(-1.0, std::min(1.0, z)));
}

HealpixReadOptions healpix_read_options(const HealpixFitsConfig& c) {
  HealpixReadOptions o;
  o.default_map_units = c.default_map_units;
  o.override_map_units = c.override_map_units;
  o.spectral_index = c.spectral_index;
  o.coord_sys = c.coord_sys;
  o.min_peak_fraction = c.min_peak_fraction;
  o.min_abs_val = c.min_abs_val;
  o.freq_hz = c.freq_hz;
  return o;
}

SkyModel read_healpix_sky(const std::string& path, const HealpixReadOptions& options) {
  io::FitsFile f(path);
  int status = 0;
  const io::FitsHduType hdu_type = f.move_to_hdu(2, status);
  f.check(status, "HEALPix map needs a binary table in HDU 2");
  if (hdu_type != io::FitsHduType::BinaryTable)
    throw Error::in_file(path, 0, "HDU 2 is not a binary table");
  const std::string ordering = f.key_string("ORDERING").value_or("RING");
  if (ordering != "RING")
    throw Error::in_file(path, 0, "HEALPix ORDERING = '" + ordering + "'; only RING is supported");
  const long nrows = f.num_rows(status);
  const long repeat = f.column_repeat(1, status);
  f.check(status, "cannot read the HEALPix table layout");
  const long long total = static_cast<long long>(nrows) * repeat;
  std::uint64_t nside = 0;
  if (const auto ns = f.key_double("NSIDE")) {
    // HEALPix allows NSIDE up to 2^29 (Gorski et al. 2005); 0 means "from the row count".
    constexpr double kMaxNside = 536870912.0;
    if (!(*ns >= 0 && *ns <= kMaxNside) || *ns != std::floor(*ns)) {
      char written[32];
      std::snprintf(written, sizeof written, "%.10g", *ns);
      throw Error::in_file(
          path, 0,
          std::string("keyword NSIDE = ") + written + ": expected a whole number from 1 to 2^29");
    }
    nside = static_cast<std::uint64_t>(*ns);
  }
  if (nside == 0) nside = static_cast<std::uint64_t>(std::llround(std::sqrt(total / 12.0)));
  if (nside == 0 || static_cast<long long>(healpix_npix(nside)) != total)
    throw Error::in_file(path, 0,
                         "HEALPix table holds " + std::to_string(total) +
                             " values, not 12 NSIDE^2 (NSIDE = " + std::to_string(nside) + ")");
  // The sizes come from the header: check them against the file and the memory first.
  f.check_read_size(
      static_cast<double>(total), sizeof(double) + 1.0,
      "NAXIS2 = " + std::to_string(nrows) + " rows of " + std::to_string(repeat) + " values");
  std::vector<double> values(static_cast<std::size_t>(total));
  f.read_column(1, 1, 1, values, std::nan(""), status);
  f.check(status, "cannot read HEALPix pixel values");
  for (double& v : values)
    if (v < -1e30) v = std::nan("");  // HEALPix UNSEEN (-1.6375e30)

  bool galactic = options.coord_sys == CoordSys::Galactic;
  if (const auto cs = f.key_string("COORDSYS"); cs && !cs->empty()) {
    const char c = (*cs)[0];
    if (c == 'G') {
      galactic = true;
    } else if (c == 'C' || c == 'Q') {
      galactic = false;
    } else {
      throw Error::in_file(
          path, 0,
          "HEALPix COORDSYS = '" + *cs + "' is not supported (only G = Galactic, C = equatorial)");
    }
  }
  MapUnits units = options.default_map_units;
  if (const auto tu = f.key_string("TUNIT1"); tu && !tu->empty() && !options.override_map_units) {
    const auto u = parse_map_units(*tu);
    if (!u)
      throw Error::in_file(path, 0, "unknown TUNIT1 '" + *tu + "' (expected K, mK or Jy/pixel)");
    units = *u;
  }
  if (units == MapUnits::JyPerBeam)
    throw Error::in_file(path, 0, "HEALPix maps in Jy/beam are not supported (no beam size)");
  const double omega = 4.0 * kPi / static_cast<double>(total);
  double scale = 1.0;
  if (units == MapUnits::K || units == MapUnits::mK) {
    if (!(options.freq_hz > 0))
      throw Error::in_file(path, 0, "converting K to Jy needs a frequency (freq_hz > 0)");
    scale = kelvin_to_jy_per_pixel(options.freq_hz, omega) * (units == MapUnits::mK ? 1e-3 : 1.0);
  }
  const auto keep = pixel_selection(values, options.min_peak_fraction, options.min_abs_val);
  SkyModel sky;
  for (std::uint64_t p = 0; p < values.size(); ++p) {
    if (!keep[p]) continue;
    double theta = 0, phi = 0;
    healpix_pix2ang_ring(nside, p, theta, phi);
    const double lon = phi, lat = 0.5 * kPi - theta;
    Source s;
    if (galactic) {
      eraG2icrs(lon, lat, &s.ra, &s.dec);
    } else {
      s.ra = lon;
      s.dec = lat;
    }
    s.I = values[p] * scale;
    if (!(std::fabs(s.I) <= 1e30)) {  // no source comes near 1e30 Jy (as for FITS images)
      char value[32];
      std::snprintf(value, sizeof value, "%.10g", values[p]);
      throw Error::in_file(path, 0,
                           "HEALPix pixel " + std::to_string(p) + " = " + value +
                               " is out of range (|flux| <= 1e30 Jy expected)");
    }
    s.ref_freq = options.freq_hz;
    s.spectral_index = {options.spectral_index};
    sky.push_back(s);
  }
  return sky;
}

}  // namespace fringe::sky
