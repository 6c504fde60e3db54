#include "gui/fits_image.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/io/fits/fits_file.h"

namespace fringe::gui {

namespace {

using io::FitsFile;

[[noreturn]] void fail(const QString& path, const std::string& what, int status) {
  throw fringe::Error(path.toStdString() + ": " + what + ": " + io::cfitsio_message(status));
}

// Header keywords; a missing or unreadable one is treated as absent.
std::optional<double> key_double(const FitsFile& f, const std::string& name) {
  return f.try_key_double(name);
}

QString key_string(const FitsFile& f, const std::string& name) {
  const auto v = f.try_key_string(name);
  return v ? QString::fromLatin1(v->c_str()).trimmed() : QString();
}

// The frame of a CTYPE1/CTYPE2 pair (the first four characters name the coordinate).
SkyFrame sky_frame(const QString& c1, const QString& c2) {
  const QString a = c1.left(4), b = c2.left(4);
  if (a == "RA--" && b == "DEC-") return SkyFrame::Equatorial;
  if (a == "HOLN" && b == "HOLT") return SkyFrame::Horizon;
  if ((a == "GLON" && b == "GLAT") || (a == "ELON" && b == "ELAT")) return SkyFrame::Other;
  if (a.size() == 4 && b.size() == 4 && a.endsWith("LN") && b.endsWith("LT") &&
      a.left(2) == b.left(2))
    return SkyFrame::Other;
  return SkyFrame::None;
}

FitsWcs read_wcs(const FitsFile& f) {
  FitsWcs w;
  for (int i = 0; i < 2; ++i) {
    const std::string n = std::to_string(i + 1);
    w.ctype[i] = key_string(f, "CTYPE" + n).toUpper();
    w.crval[i] = key_double(f, "CRVAL" + n).value_or(0.0);
    w.crpix[i] = key_double(f, "CRPIX" + n).value_or(0.0);
  }
  const bool has_cd = key_double(f, "CD1_1") || key_double(f, "CD2_2");
  if (has_cd) {
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        const std::string k = "CD" + std::to_string(i + 1) + "_" + std::to_string(j + 1);
        w.cd[i][j] = key_double(f, k).value_or(0.0);
      }
  } else {
    const double cdelt[2] = {key_double(f, "CDELT1").value_or(1.0),
                             key_double(f, "CDELT2").value_or(1.0)};
    double pc[2][2] = {{1, 0}, {0, 1}};
    const bool has_pc = key_double(f, "PC1_1") || key_double(f, "PC1_2") ||
                        key_double(f, "PC2_1") || key_double(f, "PC2_2");
    if (has_pc) {
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
          const std::string k = "PC" + std::to_string(i + 1) + "_" + std::to_string(j + 1);
          pc[i][j] = key_double(f, k).value_or(i == j ? 1.0 : 0.0);
        }
    } else if (auto rho = key_double(f, "CROTA2")) {
      // Greisen & Calabretta (2002) eq. 186 (the AIPS convention).
      const double c = std::cos(*rho * kDegToRad), s = std::sin(*rho * kDegToRad);
      const double lambda = cdelt[1] / cdelt[0];
      pc[0][0] = c;
      pc[0][1] = -lambda * s;
      pc[1][0] = s / lambda;
      pc[1][1] = c;
    }
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) w.cd[i][j] = pc[i][j] * cdelt[i];
  }
  if (auto lonpole = key_double(f, "LONPOLE")) {
    w.lonpole = *lonpole;
    w.has_lonpole = true;
  }
  w.frame = sky_frame(w.ctype[0], w.ctype[1]);
  if (w.ctype[0].size() >= 8) w.projection = w.ctype[0].mid(5, 3).remove('-');
  return w;
}

}  // namespace

FitsImage load_fits_image(const QString& path, int plane) {
  int status = 0;
  FitsFile f;
  if (!f.open(path.toLocal8Bit().toStdString(), io::FitsOpen::ReadOnlyImage, status))
    fail(path, "cannot open as a FITS image", status);
  const int naxis = f.image_dim(status);
  if (status != 0) fail(path, "cannot read the image dimensions", status);
  if (naxis < 2)
    throw fringe::Error(path.toStdString() + ": not a 2-D image (NAXIS = " + std::to_string(naxis) +
                        ")");
  const std::vector<long> axes = f.image_size(naxis, status);
  if (status != 0) fail(path, "cannot read the axis lengths", status);
  FitsImage img;
  img.path = path;
  img.width = static_cast<int>(axes[0]);
  img.height = static_cast<int>(axes[1]);
  long long planes = 1;
  for (int i = 2; i < naxis; ++i) planes *= axes[i];
  img.num_planes = static_cast<int>(planes);
  if (plane < 0 || plane >= img.num_planes)
    throw fringe::Error(path.toStdString() + ": plane " + std::to_string(plane) +
                        " out of range (the image has " + std::to_string(img.num_planes) + ")");
  img.plane = plane;
  // First pixel of the plane: axes beyond the second count in FITS (column-major) order.
  std::vector<long> first(static_cast<size_t>(naxis), 1);
  long long rest = plane;
  for (int i = 2; i < naxis; ++i) {
    first[i] = rest % axes[i] + 1;
    rest /= axes[i];
  }
  const long long n = static_cast<long long>(img.width) * img.height;
  img.pixels.resize(static_cast<size_t>(n));
  f.read_pixels(first, img.pixels, std::numeric_limits<float>::quiet_NaN(), status);
  if (status != 0) fail(path, "cannot read the pixels", status);
  img.bunit = key_string(f, "BUNIT");
  img.object = key_string(f, "OBJECT");
  img.wcs = read_wcs(f);
  return img;
}

QString FitsWcs::lon_name() const {
  switch (frame) {
    case SkyFrame::Equatorial:
      return "RA";
    case SkyFrame::Horizon:
      return "Az";
    default:
      return ctype[0].left(4).remove('-');
  }
}

QString FitsWcs::lat_name() const {
  switch (frame) {
    case SkyFrame::Equatorial:
      return "Dec";
    case SkyFrame::Horizon:
      return "El";
    default:
      return ctype[1].left(4).remove('-');
  }
}

std::optional<SkyPosition> pixel_to_sky(const FitsWcs& wcs, double x, double y) {
  if (!wcs.supported()) return std::nullopt;
  const double p1 = x + 1.0 - wcs.crpix[0], p2 = y + 1.0 - wcs.crpix[1];
  // Intermediate world coordinates (x, y), radians.
  const double ix = (wcs.cd[0][0] * p1 + wcs.cd[0][1] * p2) * kDegToRad;
  const double iy = (wcs.cd[1][0] * p1 + wcs.cd[1][1] * p2) * kDegToRad;
  // Native spherical coordinates (phi, theta) of a zenithal projection (Calabretta &
  // Greisen 2002, eqs. 14-15): phi = arg(-y, x); SIN: R = cos(theta); TAN: R = cot(theta).
  const double r = std::hypot(ix, iy);
  const double phi = std::atan2(ix, -iy);
  double theta = 0;
  if (wcs.projection == "TAN") {
    theta = std::atan2(1.0, r);
  } else {
    if (r > 1.0) return std::nullopt;  // SIN: outside the circle of the projection
    theta = std::acos(r);
  }
  // Native -> celestial (their eq. 2). For zenithal projections the native pole is the
  // reference point: (alpha_p, delta_p) = CRVAL; phi_p = LONPOLE, by default 180 deg unless
  // delta_0 >= theta_0 = 90 deg (then 0).
  const double alpha_p = wcs.crval[0] * kDegToRad, delta_p = wcs.crval[1] * kDegToRad;
  const double phi_p =
      (wcs.has_lonpole ? wcs.lonpole : (wcs.crval[1] >= 90.0 ? 0.0 : 180.0)) * kDegToRad;
  const double dphi = phi - phi_p;
  const double st = std::sin(theta), ct = std::cos(theta);
  const double sd = std::sin(delta_p), cd = std::cos(delta_p);
  const double lon = alpha_p + std::atan2(-ct * std::sin(dphi), st * cd - ct * sd * std::cos(dphi));
  const double lat = std::asin(std::clamp(st * sd + ct * cd * std::cos(dphi), -1.0, 1.0));
  double lon_deg = std::fmod(lon / kDegToRad, 360.0);
  if (lon_deg < 0) lon_deg += 360.0;
  if (lon_deg >= 360.0) lon_deg -= 360.0;
  return SkyPosition{lon_deg, lat / kDegToRad};
}

QString format_ra(double ra_deg) {
  double h = std::fmod(ra_deg / 15.0, 24.0);
  if (h < 0) h += 24.0;
  // Round once at the last digit shown, then split, so 59.9999 s never shows as 60.
  const long long ms = std::llround(h * 3600.0 * 1000.0) % (24LL * 3600 * 1000);
  return QString("%1:%2:%3")
      .arg(ms / 3600000, 2, 10, QChar('0'))
      .arg(ms / 60000 % 60, 2, 10, QChar('0'))
      .arg(QString::number((ms % 60000) / 1000.0, 'f', 3).rightJustified(6, '0'));
}

QString format_dec(double dec_deg) {
  const QChar sign = dec_deg < 0 ? '-' : '+';
  const long long cs = std::llround(std::abs(dec_deg) * 3600.0 * 100.0);
  return QString("%1%2:%3:%4")
      .arg(sign)
      .arg(cs / 360000, 2, 10, QChar('0'))
      .arg(cs / 6000 % 60, 2, 10, QChar('0'))
      .arg(QString::number((cs % 6000) / 100.0, 'f', 2).rightJustified(5, '0'));
}

}  // namespace fringe::gui
