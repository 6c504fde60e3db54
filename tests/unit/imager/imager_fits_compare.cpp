// imager_fits_compare: a test helper for the imager's safety tests. Reads the pixels of FITS
// images (CFITSIO) and checks them:
//   imager_fits_compare A.fits            exit 0 when every pixel is finite
//   imager_fits_compare A.fits B.fits     ... and A equals B to 1e-6 of B's peak
// Prints the counts and the largest difference; exit 1 otherwise.
#include <fitsio.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

bool read(const char* path, std::vector<double>& px) {
  fitsfile* f = nullptr;
  int status = 0, naxis = 0, anynul = 0;
  long dims[4] = {1, 1, 1, 1};
  if (fits_open_diskfile(&f, path, READONLY, &status) || fits_get_img_dim(f, &naxis, &status) ||
      fits_get_img_size(f, 4, dims, &status)) {
    std::fprintf(stderr, "imager_fits_compare: cannot read %s (CFITSIO status %d)\n", path, status);
    return false;
  }
  px.assign(std::size_t(dims[0]) * dims[1] * dims[2] * dims[3], 0.0);
  long first[4] = {1, 1, 1, 1};
  double nul = 0;
  fits_read_pix(f, TDOUBLE, first, static_cast<LONGLONG>(px.size()), &nul, px.data(), &anynul,
                &status);
  int s2 = 0;
  fits_close_file(f, &s2);
  return status == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: imager_fits_compare A.fits [B.fits]\n");
    return 1;
  }
  std::vector<double> a, b;
  if (!read(argv[1], a)) return 1;
  const auto bad = std::count_if(a.begin(), a.end(), [](double x) { return !std::isfinite(x); });
  std::printf("%s: %zu pixels, %ld non-finite\n", argv[1], a.size(), long(bad));
  if (bad > 0) return 1;
  if (argc == 2) return 0;
  if (!read(argv[2], b) || b.size() != a.size()) {
    std::fprintf(stderr, "imager_fits_compare: %s differs in size\n", argv[2]);
    return 1;
  }
  double peak = 0, diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    peak = std::max(peak, std::abs(b[i]));
    diff = std::max(diff, std::abs(a[i] - b[i]));
  }
  std::printf("peak %.9g, largest difference %.3g\n", peak, diff);
  return diff <= 1e-6 * peak && peak > 0 ? 0 : 1;
}
