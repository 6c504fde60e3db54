// TEC screen cube reading and host evaluation of Z (tec_screen.h; docs/ionosphere.md).
#include "fringe/jones/tec_screen.h"

#include <array>
#include <cmath>
#include <filesystem>
#include <new>
#include <string>

#include "fringe/core/error.h"
#include "fringe/io/fits/fits_file.h"

namespace fringe::jones {
namespace {

std::string num(double x) {
  std::string s = std::to_string(x);
  return s;
}

}  // namespace

TecScreen::TecScreen(const IonosphereConfig& config) : config_(config) {
  const std::string& path = config.fits_file;
  if (path.empty()) {
    throw Error::in_field("IonosphereConfig.fits_file", "",
                          "an External ionosphere needs a TEC screen FITS file");
  }
  if (!std::isfinite(config.height_m) || config.height_m < 0) {
    throw Error::in_field("IonosphereConfig.height_m", num(config.height_m),
                          "expected a screen height >= 0");
  }
  if (!std::isfinite(config.pixel_size_m) || config.pixel_size_m < 0) {
    throw Error::in_field("IonosphereConfig.pixel_size_m", num(config.pixel_size_m),
                          "expected a pixel size > 0 m (or 'file')");
  }
  if (!std::isfinite(config.time_interval_sec)) {
    throw Error::in_field("IonosphereConfig.time_interval_sec", num(config.time_interval_sec),
                          "expected a time interval >= 0 s (or 'file')");
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw Error::in_file(path, 0,
                         "TEC screen not found: expected a FITS cube of TEC values (x, y, time)");
  }
  io::FitsFile f(path, io::FitsOpen::ReadOnlyPlain);
  int status = 0;
  const int naxis = f.image_dim(status);
  f.check(status, "cannot read NAXIS of the TEC screen");
  if (naxis != 2 && naxis != 3) {
    throw Error::in_file(
        path, 0,
        "TEC screen has NAXIS = " + std::to_string(naxis) +
            ": expected a cube of NAXIS = 3 (x, y, time) or one plane (NAXIS = 2)");
  }
  const std::vector<long> size = f.image_size(3, status);
  f.check(status, "cannot read the axis lengths of the TEC screen");
  if (size[0] < 1 || size[1] < 1 || size[2] < 1) {
    throw Error::in_file(path, 0,
                         "TEC screen has an empty axis (NAXIS1 = " + std::to_string(size[0]) +
                             ", NAXIS2 = " + std::to_string(size[1]) +
                             ", NAXIS3 = " + std::to_string(size[2]) + "): expected >= 1 each");
  }
  nx_ = int(size[0]);
  ny_ = int(size[1]);
  nt_ = int(size[2]);

  // Pixel size: the config, or CDELT1 (metres per pixel) as OSKAR 2.13.
  pixel_size_m_ = config.pixel_size_m;
  if (pixel_size_m_ <= 0) {
    const auto cdelt1 = f.try_key_double("CDELT1");
    if (!cdelt1 || !std::isfinite(*cdelt1) || *cdelt1 <= 0) {
      throw Error::in_file(path, 0,
                           "TEC screen has no positive CDELT1 (pixel size, m) and "
                           "screen_pixel_size_m is 'file': expected CDELT1 > 0 or a pixel size");
    }
    pixel_size_m_ = *cdelt1;
  }
  // Time interval: the config (>= 0), or CDELT3 (seconds per plane).
  time_interval_sec_ = config.time_interval_sec;
  if (time_interval_sec_ < 0) {
    const auto cdelt3 = naxis == 3 ? f.try_key_double("CDELT3") : std::optional<double>(0.0);
    if (!cdelt3 || !std::isfinite(*cdelt3) || *cdelt3 < 0) {
      throw Error::in_file(path, 0,
                           "TEC screen has no CDELT3 >= 0 (time between planes, s) and "
                           "screen_time_interval_sec is 'file': expected CDELT3 or an interval");
    }
    time_interval_sec_ = *cdelt3;
  }

  const double values = double(nx_) * double(ny_) * double(nt_);
  const std::string shape = "NAXIS1 = " + std::to_string(nx_) +
                            ", NAXIS2 = " + std::to_string(ny_) +
                            ", NAXIS3 = " + std::to_string(nt_);
  f.check_read_size(values, sizeof(double), shape);
  try {
    data_.resize(std::size_t(nx_) * std::size_t(ny_) * std::size_t(nt_));
  } catch (const std::bad_alloc&) {
    throw Error::in_file(path, 0, "not enough memory for the TEC screen (" + shape + ")");
  }
  const std::array<long, 3> first = {1, 1, 1};
  f.read_pixels(std::span<const long>(first.data(), std::size_t(naxis)), data_, std::nan(""),
                status);
  f.check(status, "cannot read the TEC screen pixels");
  for (std::size_t i = 0; i < data_.size(); ++i) {
    if (!std::isfinite(data_[i])) {
      const std::size_t plane = std::size_t(nx_) * std::size_t(ny_);
      throw Error::in_file(path, 0,
                           "TEC screen value at x = " + std::to_string(i % std::size_t(nx_)) +
                               ", y = " + std::to_string((i % plane) / std::size_t(nx_)) +
                               ", t = " + std::to_string(i / plane) +
                               " (0-based) is blank or not finite: expected finite TEC (TECU)");
    }
  }
}

int TecScreen::plane_index(int time_index, double start_mjd, double interval_sec) const {
  int k = time_index;
  if (time_interval_sec_ > 0) {
    // OSKAR 2.13: the dump centre's MJD as start + dt_days * (i + 0.5), then seconds since
    // the start, divided by the interval and rounded half away from zero. Written with the
    // same operations so that planes exactly half-way between two times round as OSKAR's do.
    const double dt_days = interval_sec / 86400.0;
    const double t_mjd = start_mjd + dt_days * (time_index + 0.5);
    const double obs_sec = 86400.0 * (t_mjd - start_mjd);
    k = int(std::round(obs_sec / time_interval_sec_));
  }
  if (k >= nt_) k = nt_ - 1;
  if (k < 0) k = 0;
  return k;
}

std::span<const double> TecScreen::plane(int k) const {
  const std::size_t n = std::size_t(nx_) * std::size_t(ny_);
  return std::span<const double>(data_).subspan(std::size_t(k) * n, n);
}

template <typename T>
TecPlaneView<T> tec_plane_view(const TecScreen& screen, int plane, std::vector<T>& values) {
  const std::span<const double> p = screen.plane(plane);
  values.assign(p.begin(), p.end());
  TecPlaneView<T> view;
  view.tec = values.data();
  view.nx = screen.nx();
  view.ny = screen.ny();
  view.height_m = T(screen.config().height_m);
  view.inv_pixel_m = T(1.0 / screen.pixel_size_m());
  view.isoplanatic = screen.config().isoplanatic;
  return view;
}

template <typename T>
void apply_tec_screen(const TecPlaneView<T>& plane, const TecPoints& g, double freq_hz,
                      std::span<Complex<T>> jones) {
  const T inv_freq = T(1.0 / freq_hz);
  for (std::size_t p = 0; p < g.num_stations; ++p) {
    for (std::size_t i = 0; i < g.num_points; ++i) {
      const T tec = tec_of_point<T>(plane, g, p, i);
      jones[p * g.num_points + i] *= tec_phase_factor<T>(tec, inv_freq);
    }
  }
}

template <typename T>
void apply_tec_screen(const TecPlaneView<T>& plane, const TecPoints& g, double freq_hz,
                      std::span<Jones<T>> jones) {
  if (g.b_los == nullptr) throw Error("apply_tec_screen: Full mode needs the field (b_los)");
  const T inv_freq = T(1.0 / freq_hz);
  for (std::size_t p = 0; p < g.num_stations; ++p) {
    for (std::size_t i = 0; i < g.num_points; ++i) {
      const std::size_t k = p * g.num_points + i;
      const T tec = tec_of_point<T>(plane, g, p, i);
      jones[k] = jones[k] * tec_faraday_jones<T>(tec, inv_freq, T(g.b_los[k]));
    }
  }
}

template TecPlaneView<float> tec_plane_view(const TecScreen&, int, std::vector<float>&);
template TecPlaneView<double> tec_plane_view(const TecScreen&, int, std::vector<double>&);
template void apply_tec_screen(const TecPlaneView<float>&, const TecPoints&, double,
                               std::span<Complex<float>>);
template void apply_tec_screen(const TecPlaneView<double>&, const TecPoints&, double,
                               std::span<Complex<double>>);
template void apply_tec_screen(const TecPlaneView<float>&, const TecPoints&, double,
                               std::span<Jones<float>>);
template void apply_tec_screen(const TecPlaneView<double>&, const TecPoints&, double,
                               std::span<Jones<double>>);

}  // namespace fringe::jones
