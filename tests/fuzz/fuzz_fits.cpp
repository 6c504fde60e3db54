// libFuzzer target: the FITS readers of sky models and model images. The input is written to
// a scratch .fits file and read by read_fits_image_sky (fringe/sky/fits_image_reader.h),
// read_healpix_sky (fringe/sky/healpix.h) and the imager's read_model_image
// (fringe/imager/model_image.h, asked for the size and cell the header claims so that its
// checks pass on well-formed seeds).
#include <fitsio.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fringe/imager/model_image.h"
#include "fringe/sky/fits_image_reader.h"
#include "fringe/sky/healpix.h"
#include "tests/fuzz/fuzz_support.h"

namespace {
// NAXIS1 and |CDELT2| [rad] of the primary HDU, or size 0 when unreadable.
void model_image_shape(const std::string& path, long& size, double& cell_rad) {
  size = 0;
  cell_rad = 0;
  fitsfile* f = nullptr;
  int status = 0;
  if (fits_open_file(&f, path.c_str(), READONLY, &status)) return;
  long n = 0;
  double cdelt = 0;
  if (!fits_read_key(f, TLONG, "NAXIS1", &n, nullptr, &status) &&
      !fits_read_key(f, TDOUBLE, "CDELT2", &cdelt, nullptr, &status)) {
    size = n;
    cell_rad = std::abs(cdelt) * M_PI / 180.0;
  }
  status = 0;
  fits_close_file(f, &status);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fringe::sky;
  const std::string path =
      fringe::fuzz::scratch().write("sky.fits", fringe::fuzz::as_text(data, size)).string();
  std::vector<std::string> warnings;
  fringe::fuzz::expect_clean_failure("fits image", [&] {
    FitsImageReadOptions options;
    options.default_freq_hz = 100e6;
    options.diagnostics.warnings = &warnings;
    (void)fits_primary_naxis(path);
    (void)read_fits_image_sky(path, options);
  });
  fringe::fuzz::expect_clean_failure("healpix", [&] {
    HealpixReadOptions options;
    options.diagnostics.warnings = &warnings;
    (void)read_healpix_sky(path, options);
  });
  long n = 0;
  double cell = 0;
  model_image_shape(path, n, cell);
  // Sizes the imager would accept from its settings (image/size up to a few thousand).
  if (n > 0 && n <= 4096 && cell > 0) {
    fringe::fuzz::expect_clean_failure("model image", [&] {
      (void)fringe::imager::read_model_image(path, static_cast<int>(n), cell);
    });
  }
  return 0;
}
