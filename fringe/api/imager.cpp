// Dirty images from arrays and from Measurement Sets (imager.h).
#include "fringe/api/imager.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <string>
#include <system_error>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/core/output_guard.h"
#include "fringe/core/precision.h"
#include "fringe/imager/image_output.h"
#include "fringe/imager/run_checks.h"
#include "fringe/imager/vis_buffer.h"
#include "fringe/io/fits/fits_file.h"

namespace fringe::api {
namespace {

void check_size(const char* name, std::size_t have, std::size_t want) {
  if (have != want)
    throw Error("imager: " + std::string(name) + " has " + std::to_string(have) +
                " values, expected " + std::to_string(want));
}

void check_input(const ImagerConfig& cfg, const VisibilityInput& in) {
  if (in.num_rows == 0) throw Error("imager: no visibilities");
  if (in.num_channels < 1) throw Error("imager: no channels");
  if (in.num_pols != 1 && in.num_pols != 4)
    throw Error("imager: " + std::to_string(in.num_pols) +
                " polarisations per visibility, expected 1 (the product imaged) or 4 (XX, XY, "
                "YX, YY)");
  const auto need = imager::product_names(cfg.image_type);
  if (in.num_pols == 1 && need.size() > 1)
    throw Error(std::string("imager: image type ") + imager::to_string(cfg.image_type) +
                " makes four images and needs four polarisations (XX, XY, YX, YY) per "
                "visibility");
  const std::size_t nvis = in.num_rows * std::size_t(in.num_channels);
  check_size("uvw", in.uvw_m.size(), in.num_rows * 3);
  check_size("vis", in.vis.size(), nvis * in.num_pols);
  if (!in.weight.empty()) check_size("weight", in.weight.size(), nvis);
  check_size("freq_hz", in.freq_hz.size(), std::size_t(in.num_channels));
  if (in.antenna1.empty() != in.antenna2.empty())
    throw Error("imager: give both antenna1 and antenna2, or neither");
  if (!in.antenna1.empty()) {
    check_size("antenna1", in.antenna1.size(), in.num_rows);
    check_size("antenna2", in.antenna2.size(), in.num_rows);
  }
  if (!in.time_s.empty()) check_size("time", in.time_s.size(), in.num_rows);
  for (double f : in.freq_hz)
    if (!(f > 0) || !std::isfinite(f))
      throw Error("imager: frequency " + std::to_string(f) + " Hz: expected > 0");
  for (double x : in.uvw_m)
    if (!std::isfinite(x)) throw Error("imager: non-finite uvw");
  for (const auto& z : in.vis)
    if (!std::isfinite(z.re) || !std::isfinite(z.im)) throw Error("imager: non-finite visibility");
  for (double w : in.weight)
    if (!std::isfinite(w) || w < 0) throw Error("imager: weights must be finite and >= 0");
}

// The product values (ms_input.cpp's conventions) of one visibility from 4 linear
// correlations d (XX, XY, YX, YY) or from one value.
void put_products(imager::ImageType type, const Complex<double>* d, int npol,
                  Complex<double>* out) {
  using imager::ImageType;
  if (npol == 1) {
    out[0] = d[0];
    return;
  }
  const auto half = [](Complex<double> a, Complex<double> b, double sign) {
    return Complex<double>{0.5 * (a.re + sign * b.re), 0.5 * (a.im + sign * b.im)};
  };
  // -i (XY - YX) / 2
  const Complex<double> v{0.5 * (d[1].im - d[2].im), -0.5 * (d[1].re - d[2].re)};
  switch (type) {
    case ImageType::XX:
      out[0] = d[0];
      break;
    case ImageType::XY:
      out[0] = d[1];
      break;
    case ImageType::YX:
      out[0] = d[2];
      break;
    case ImageType::YY:
      out[0] = d[3];
      break;
    case ImageType::I:
      out[0] = half(d[0], d[3], 1);
      break;
    case ImageType::Q:
      out[0] = half(d[0], d[3], -1);
      break;
    case ImageType::U:
      out[0] = half(d[1], d[2], 1);
      break;
    case ImageType::V:
      out[0] = v;
      break;
    case ImageType::Linear:
      for (int q = 0; q < 4; ++q) out[q] = d[q];
      break;
    case ImageType::Stokes:
      out[0] = half(d[0], d[3], 1);
      out[1] = half(d[0], d[3], -1);
      out[2] = half(d[1], d[2], 1);
      out[3] = v;
      break;
    case ImageType::Psf:
      break;
  }
}

// The VisBuffer of the arrays: cross-correlations only, rows sorted by (antenna1, antenna2,
// time) as the MS reader sorts them.
template <typename T>
imager::VisBuffer<T> to_buffer(const ImagerConfig& cfg, const VisibilityInput& in) {
  const bool have_ant = !in.antenna1.empty();
  std::vector<std::size_t> order;
  for (std::size_t r = 0; r < in.num_rows; ++r)
    if (!have_ant || in.antenna1[r] != in.antenna2[r]) order.push_back(r);
  if (order.empty()) throw Error("imager: every row is an autocorrelation");
  const auto time = [&](std::size_t r) { return in.time_s.empty() ? 0.0 : in.time_s[r]; };
  if (have_ant)
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      if (in.antenna1[a] != in.antenna1[b]) return in.antenna1[a] < in.antenna1[b];
      if (in.antenna2[a] != in.antenna2[b]) return in.antenna2[a] < in.antenna2[b];
      return time(a) < time(b);
    });
  const int nchan = in.num_channels;
  const bool psf = cfg.image_type == imager::ImageType::Psf;
  const int nprod = int(imager::product_names(cfg.image_type).size());
  imager::VisBuffer<T> v;
  v.resize(order.size(), nchan, nprod);
  v.freq_hz.assign(in.freq_hz.begin(), in.freq_hz.end());
  std::vector<Complex<double>> prod(4);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t r = order[i];
    v.uvw_m[i] = {in.uvw_m[3 * r], in.uvw_m[3 * r + 1], in.uvw_m[3 * r + 2]};
    v.time_s[i] = time(r);
    if (have_ant) {
      if (in.antenna1[r] < 0 || in.antenna2[r] < 0 || in.antenna1[r] >= 65536 ||
          in.antenna2[r] >= 65536)
        throw Error("imager: station index out of range 0..65535 at row " + std::to_string(r));
      v.station1[i] = in.antenna1[r];
      v.station2[i] = in.antenna2[r];
      v.baseline[i] = in.antenna1[r] * 65536 + in.antenna2[r];
    } else {
      v.baseline[i] = int(i);  // each row its own baseline
    }
    for (int c = 0; c < nchan; ++c) {
      const std::size_t k = r * nchan + c;
      double wt = in.weight.empty() ? 1.0 : in.weight[k];
      const double uvlen =
          std::hypot(in.uvw_m[3 * r], in.uvw_m[3 * r + 1]) * in.freq_hz[c] / kSpeedOfLight;
      if (uvlen < cfg.uv_min_lambda || uvlen > cfg.uv_max_lambda) wt = 0;
      v.weight[i * nchan + c] = float(wt);
      Complex<T>* out = &v.vis[(i * nchan + c) * nprod];
      if (psf) {
        out[0] = {T(1), T(0)};
        continue;
      }
      put_products(cfg.image_type, &in.vis[k * in.num_pols], in.num_pols, prod.data());
      for (int q = 0; q < nprod; ++q) out[q] = {T(prod[q].re), T(prod[q].im)};
    }
  }
  return v;
}

Image from_arrays(const ImagerConfig& cfg, imager::ImageArrays&& a) {
  Image im;
  im.num_products = a.num_products;
  im.num_planes = a.num_planes;
  im.size = a.size;
  im.products = imager::product_names(cfg.image_type);
  im.pixels = std::move(a.pixels);
  im.result = std::move(a.result);
  return im;
}

// A new, empty, private folder under the system's temporary directory.
std::filesystem::path make_temp_dir() {
  std::string templ = (std::filesystem::temp_directory_path() / "fringe-image-XXXXXX").string();
  if (!::mkdtemp(templ.data()))
    throw Error("imager: cannot create a temporary folder under " +
                std::filesystem::temp_directory_path().string());
  return templ;
}

// The FITS images of an array run (image_output.h: one file per product, written under
// temporary names and renamed when all are complete).
void write_fits(const ImagerConfig& cfg, const VisibilityInput& in, Image& im) {
  const std::size_t plane = std::size_t(im.size) * im.size;
  const std::size_t cube = plane * im.num_planes;
  std::vector<std::unique_ptr<io::FitsImageWriter>> writers;
  std::vector<std::string> paths;
  for (int q = 0; q < im.num_products; ++q) {
    imager::ImageCube c;
    c.size = im.size;
    c.cell_rad = cfg.cell_rad;
    c.centre_rad = in.phase_centre_rad;
    c.precision = cfg.precision;
    if (cfg.channel_snapshots) {
      c.freq_hz.assign(in.freq_hz.begin(), in.freq_hz.end());
    } else {
      double f = 0;
      for (double x : in.freq_hz) f += x;
      c.freq_hz = {f / double(in.freq_hz.size())};
    }
    c.freq_step_hz = in.freq_hz.size() > 1 ? in.freq_hz[1] - in.freq_hz[0] : 1.0;
    if (c.freq_step_hz == 0) c.freq_step_hz = 1.0;
    if (cfg.image_type == imager::ImageType::Psf) c.bunit = "";
    c.history.push_back("fringe imager (visibility arrays): " + im.result.device);
    c.pixels.assign(im.pixels.begin() + q * cube, im.pixels.begin() + (q + 1) * cube);
    const std::string path = cfg.root_path + "_" + im.products[q] + ".fits";
    writers.push_back(imager::write_image_cube_unfinished(path, c));
    paths.push_back(path);
  }
  for (auto& w : writers) w->finish();
  im.result.files = paths;
}

}  // namespace

Image make_image(const ImagerConfig& cfg, const VisibilityInput& in, Logger* log) {
  imager::validate(cfg);
  check_input(cfg, in);
  if (!cfg.root_path.empty()) check_outputs(imager::output_targets(cfg), {});
  Image im = dispatch_precision(cfg.precision, [&]<typename T>() {
    imager::VisBuffer<T> v = to_buffer<T>(cfg, in);
    return from_arrays(cfg, imager::image_in_memory<T>(cfg, v, in.phase_centre_rad, log));
  });
  if (!cfg.root_path.empty()) write_fits(cfg, in, im);
  return im;
}

FitsImage read_fits_image(const std::string& path) {
  io::FitsFile f(path, io::FitsOpen::ReadOnlyImage);
  int status = 0;
  const int ndim = f.image_dim(status);
  FitsImage im;
  im.axes = f.image_size(std::max(ndim, 1), status);
  f.check(status, "reading the image size");
  double n = 1;
  std::string keys;
  for (std::size_t i = 0; i < im.axes.size(); ++i) {
    n *= double(im.axes[i]);
    keys += (i ? ", NAXIS" : "NAXIS") + std::to_string(i + 1) + " = " + std::to_string(im.axes[i]);
  }
  f.check_read_size(n, sizeof(double), keys);
  im.pixels.resize(std::size_t(n));
  const std::vector<long> first(im.axes.size(), 1);
  f.read_pixels(first, im.pixels, std::nan(""), status);
  f.check(status, "reading the pixels");
  return im;
}

Image image_ms(const ImagerConfig& config, Logger* log) {
  ImagerConfig cfg = config;
  std::filesystem::path temp;
  if (cfg.root_path.empty() && cfg.model_image.empty()) {
    temp = make_temp_dir();
    cfg.root_path = (temp / "image").string();
  }
  // The temporary folder and the images in it are ours: removed on every way out.
  struct RemoveTemp {
    std::filesystem::path dir;
    ~RemoveTemp() {
      std::error_code ec;
      if (!dir.empty()) std::filesystem::remove_all(dir, ec);
    }
  } remove_temp{temp};
  Image im;
  im.result = imager::run(cfg, {}, log);
  im.products = imager::product_names(cfg.image_type);
  im.num_products = int(im.products.size());
  im.size = cfg.size;
  for (std::size_t q = 0; q < im.result.files.size(); ++q) {
    FitsImage f = read_fits_image(im.result.files[q]);
    const std::size_t plane = std::size_t(cfg.size) * cfg.size;
    if (plane == 0 || f.pixels.size() % plane != 0)
      throw Error("imager: " + im.result.files[q] + " does not hold " + std::to_string(cfg.size) +
                  " x " + std::to_string(cfg.size) + " planes");
    im.num_planes = int(f.pixels.size() / plane);
    im.pixels.insert(im.pixels.end(), f.pixels.begin(), f.pixels.end());
  }
  if (!temp.empty()) im.result.files.clear();  // removed with the folder
  return im;
}

double fov_to_cell_rad(double fov_rad, int size) {
  if (!(fov_rad > 0) || !(fov_rad < kPi) || size <= 0)
    throw Error("imager: field of view " + std::to_string(fov_rad * kRadToDeg) + " deg and " +
                std::to_string(size) + " pixels: expected 0 < fov < 180 deg and size > 0");
  return std::asin(2.0 * std::sin(0.5 * fov_rad) / size);
}

}  // namespace fringe::api
