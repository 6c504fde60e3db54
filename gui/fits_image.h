// A FITS image for the viewer (CFITSIO): one 2-D plane of the first image HDU as float, and
// its celestial WCS from the header (CRVALi, CRPIXi, CDELTi with PCi_j or CROTA2, or CDi_j,
// LONPOLE; Greisen & Calabretta, A&A 395, 1061, 2002). Pixel -> sky supports the zenithal
// SIN projection (radio interferometry's orthographic l, m; Calabretta & Greisen, A&A 395,
// 1077, 2002, section 5.1.5, without the PVi_j slant terms) and TAN, with the spherical
// rotation of their eq. 2, for RA---/DEC-- axes, the Horizon frame's HOLN-/HOLT- (azimuth and
// elevation, as sim_beam_pattern and OSKAR write them) and other xxLN/xxLT, GLON/GLAT and
// ELON/ELAT pairs. Angles in degrees at this interface.
#pragma once

#include <QString>
#include <optional>
#include <vector>

namespace fringe::gui {

// What the two celestial axes are.
enum class SkyFrame {
  None,        // not a longitude/latitude pair
  Equatorial,  // RA---xxx / DEC--xxx
  Horizon,     // HOLN-xxx / HOLT-xxx: azimuth (from North through East) and elevation
  Other,       // GLON/GLAT, ELON/ELAT, xxLN/xxLT: longitude and latitude
};

struct FitsWcs {
  QString ctype[2];                    // CTYPE1, CTYPE2
  double crval[2] = {0, 0};            // deg
  double crpix[2] = {0, 0};            // 1-based pixel
  double cd[2][2] = {{1, 0}, {0, 1}};  // deg per pixel (CD matrix, or PC x CDELT)
  double lonpole = 0;                  // deg; native longitude of the celestial pole
  bool has_lonpole = false;            // else the default: 180 unless CRVAL2 = 90 (then 0)
  QString projection;                  // "SIN", "TAN", ... (from CTYPE1), "" if none
  SkyFrame frame = SkyFrame::None;
  bool celestial() const { return frame != SkyFrame::None; }
  bool supported() const { return celestial() && (projection == "SIN" || projection == "TAN"); }
  // Names of the two coordinates: "RA"/"Dec", "Az"/"El", else CTYPE's prefixes.
  QString lon_name() const;
  QString lat_name() const;
};

struct FitsImage {
  QString path;
  int width = 0, height = 0;  // NAXIS1, NAXIS2
  int num_planes = 1;         // product of NAXIS3.. (frequency, Stokes)
  int plane = 0;
  std::vector<float> pixels;  // [y][x], FITS order: row 0 is the bottom; NaN for blanks
  QString bunit;
  QString object;
  FitsWcs wcs;
  float value(int x, int y) const { return pixels[static_cast<size_t>(y) * width + x]; }
};

// Reads plane `plane` (0-based over the axes beyond the second). Throws fringe::Error naming
// the file and CFITSIO's message.
FitsImage load_fits_image(const QString& path, int plane = 0);

// Longitude in [0, 360) and latitude (deg) of 0-based pixel position (x, y) (FITS pixel x+1,
// y+1): RA and Dec, or azimuth and elevation in the Horizon frame; nullopt when the WCS is
// not supported or the point lies off the sky (outside the SIN circle).
struct SkyPosition {
  double lon_deg = 0, lat_deg = 0;
};
std::optional<SkyPosition> pixel_to_sky(const FitsWcs& wcs, double x, double y);

// "hh:mm:ss.sss" and "+dd:mm:ss.ss".
QString format_ra(double ra_deg);
QString format_dec(double dec_deg);

}  // namespace fringe::gui
