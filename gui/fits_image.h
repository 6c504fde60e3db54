// A FITS image for the viewer (CFITSIO): one 2-D plane of the first image HDU as float, and
// its celestial WCS from the header (CRVALi, CRPIXi, CDELTi with PCi_j or CROTA2, or CDi_j;
// Greisen & Calabretta, A&A 395, 1061, 2002). Pixel -> sky supports the SIN projection
// (radio interferometry's orthographic l, m; Calabretta & Greisen, A&A 395, 1077, 2002,
// section 5.1.5, without the PVi_j slant terms) and TAN. Angles in degrees at this interface.
#pragma once

#include <QString>
#include <optional>
#include <vector>

namespace fringe::gui {

struct FitsWcs {
  QString ctype[2];                    // CTYPE1, CTYPE2
  double crval[2] = {0, 0};            // deg
  double crpix[2] = {0, 0};            // 1-based pixel
  double cd[2][2] = {{1, 0}, {0, 1}};  // deg per pixel (CD matrix, or PC x CDELT)
  QString projection;                  // "SIN", "TAN", ... (from CTYPE1), "" if none
  bool celestial = false;              // axis 1 is RA---xxx and axis 2 DEC--xxx
  bool supported() const { return celestial && (projection == "SIN" || projection == "TAN"); }
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

// Right ascension and declination (deg) of 0-based pixel position (x, y) (FITS pixel x+1,
// y+1); nullopt when the WCS is not supported or the point lies off the sky.
struct SkyPosition {
  double ra_deg = 0, dec_deg = 0;
};
std::optional<SkyPosition> pixel_to_sky(const FitsWcs& wcs, double x, double y);

// "hh:mm:ss.sss" and "+dd:mm:ss.ss".
QString format_ra(double ra_deg);
QString format_dec(double dec_deg);

}  // namespace fringe::gui
