#include "fringe/imager/imager_steps.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/imager/image_output.h"
#include "fringe/imager/plan.h"

namespace fringe::imager {

namespace {

// Image plane (channel ci) of every product divided by the average beam; pixels where the
// beam is below min_fraction of its peak are blanked (NaN).
void divide_by_beam(const std::vector<double>& beam, double min_fraction, int npol, int nchan,
                    int ci, std::size_t plane, std::vector<double>& pixels) {
  const double peak = *std::max_element(beam.begin(), beam.end());
  const double floor = min_fraction * peak;
  for (int q = 0; q < npol; ++q)
    for (std::size_t i = 0; i < plane; ++i) {
      double& v = pixels[(std::size_t(q) * nchan + ci) * plane + i];
      v = beam[i] > floor && beam[i] > 0 ? v / beam[i] : std::numeric_limits<double>::quiet_NaN();
    }
}

// The FITS cube of one product, without its pixels: its planes' frequencies, the header.
ImageCube image_cube(const ImagerConfig& cfg, const InputSummary& in,
                     const std::vector<double>& freq_hz, const std::string& device) {
  ImageCube cube;
  cube.size = cfg.size;
  cube.cell_rad = cfg.cell_rad;
  cube.centre_rad = in.phase_centre_rad;
  cube.precision = cfg.precision;
  // CDELT3 is the channel increment (the channel width for one channel) in both cases, as
  // OSKAR's imager writes it, so that scripts reading OSKAR's images read ours the same way.
  const double step = freq_hz.size() > 1 ? freq_hz[1] - freq_hz[0] : in.channel_width_hz.at(0);
  cube.freq_step_hz = step != 0.0 ? step : 1.0;
  if (cfg.channel_snapshots) {
    cube.freq_hz = freq_hz;
  } else {
    double f = 0;
    for (double x : freq_hz) f += x;
    cube.freq_hz = {f / freq_hz.size()};  // MFS: the mean frequency
  }
  if (cfg.image_type == ImageType::Psf) cube.bunit = "";
  cube.history.push_back("fringe imager: " + algorithm_description(cfg.algorithm) + " on " +
                         device);
  return cube;
}

}  // namespace

void report_non_finite(const ImagerConfig& cfg, const InputSummary& in, Logger* log) {
  const std::string dropped = describe(in.non_finite);
  if (dropped.empty()) return;
  const std::string msg = "imager: skipped " + dropped + " in " + cfg.input_ms.front() +
                          (cfg.input_ms.size() > 1 ? " and the other inputs" : "") +
                          " (not imaged; the rest of the image is unaffected)";
  if (cfg.strict) throw Error(msg + " (an error with --strict)");
  log_warning(log, msg);
}

std::string algorithm_description(Algorithm a) {
  switch (a) {
    case Algorithm::Idg:
      return "Image-Domain Gridding";
    case Algorithm::Fft:
      return "FFT (convolutional gridding)";
    case Algorithm::WProjection:
      return "W-projection";
    default:
      return "direct Fourier transform";
  }
}

std::string algorithm_device(const ImagerConfig& cfg) {
  const bool fft = cfg.algorithm == Algorithm::Fft;
  if (fft || cfg.algorithm == Algorithm::WProjection) {
    const bool grid_gpu = fft ? cfg.fft.grid_on_gpu : cfg.wproj.grid_on_gpu;
    // W-projection transforms on the GPU only a grid it made there.
    const bool fft_gpu = fft ? cfg.fft.fft_on_gpu : cfg.wproj.grid_on_gpu && cfg.wproj.fft_on_gpu;
    const std::string gpu = "GPU " + std::to_string(fft ? cfg.fft.device : cfg.wproj.device);
    return std::string(fft ? "FFT gridder" : "W-projection gridder") + " (gridding on " +
           (grid_gpu ? gpu : std::string("CPU")) + ", FFT on " +
           (fft_gpu ? gpu : std::string("CPU")) + ")";
  }
  return "DFT (CPU)";
}

ImagerConfig with_conv_device(const ImagerConfig& cfg, Logger* log) {
  ImagerConfig c = cfg;
  const bool fft = c.algorithm == Algorithm::Fft;
  if (!fft && c.algorithm != Algorithm::WProjection) return c;
  const bool wants = fft ? c.fft.grid_on_gpu || c.fft.fft_on_gpu : c.wproj.grid_on_gpu;
  if (!wants) return c;
  const std::vector<int> gpus = choose_gpus(c.devices, 1, "imager", log);
  if (gpus.empty()) {
    c.fft.grid_on_gpu = c.fft.fft_on_gpu = false;
    c.wproj.grid_on_gpu = c.wproj.fft_on_gpu = false;
  } else {
    c.fft.device = c.wproj.device = gpus.front();
  }
  return c;
}

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

GridGeometry grid_geometry(const ImagerConfig& cfg, const Taper& taper, int grid_size,
                           double max_abs_w_lambda) {
  GridGeometry g;
  g.image_size = cfg.size;
  g.cell_rad = cfg.cell_rad;
  g.grid_size = grid_size;
  g.subgrid_size = cfg.idg.subgrid_size;
  g.kernel_size = cfg.idg.kernel_size;
  g.taper_support = taper.support();
  g.w_step = cfg.idg.w_step_lambda > 0 ? cfg.idg.w_step_lambda : auto_w_step(g, max_abs_w_lambda);
  return g;
}

void warn_long_baselines(const GridGeometry& g, const InputSummary& in, Logger* log) {
  const double max_uv = 0.5 * (g.grid_size - g.subgrid_size) * g.uv_cell();
  if (in.max_uv_lambda > max_uv)
    log_warning(log, "imager: baselines up to " + std::to_string(in.max_uv_lambda) +
                         " wavelengths, but the grid (cell " + std::to_string(g.uv_cell()) +
                         " wavelengths) holds about " + std::to_string(max_uv) +
                         ": longer ones are skipped; use smaller pixels for full resolution");
}

ImagePlanes allocate_planes(const ImagerConfig& cfg, const GridGeometry& g, int npol, int nchan,
                            std::size_t grid_value_bytes, Stage& stage) {
  ImagePlanes p;
  p.npol = npol;
  p.nchan = nchan;
  p.plane = std::size_t(cfg.size) * cfg.size;
  stage.set("allocating the images and the " + std::to_string(g.grid_size) + " x " +
                std::to_string(g.grid_size) + " grid",
            double(npol) * nchan * p.plane * 8 + double(npol) * p.plane * 16 +
                double(npol) * g.grid_size * g.grid_size * grid_value_bytes);
  p.pixels.assign(std::size_t(npol) * nchan * p.plane, 0.0);
  p.empty_reason.resize(nchan);
  return p;
}

std::string plane_name(const ImagerConfig& cfg, const std::vector<double>& freq_hz, int ci) {
  char mhz[32];
  std::snprintf(mhz, sizeof mhz, "%.9g MHz", freq_hz[cfg.channel_snapshots ? ci : 0] / 1e6);
  return cfg.channel_snapshots ? "channel " + std::to_string(ci) + " (" + mhz + ")"
                               : std::string("the selection");
}

std::string nothing_gridded(const std::string& where) {
  return "no visibility of " + where +
         " could be gridded (all flagged, outside ImagerConfig.uv_min_lambda to "
         "ImagerConfig.uv_max_lambda or outside the grid; use smaller pixels)";
}

void check_plane(const ImagerConfig& cfg, const std::string& where, bool any_signal,
                 const PlaneImage& p, int ci, ImagePlanes& planes) {
  if (!any_signal)
    planes.empty_reason[ci] =
        "every visibility imaged in " + where + " is zero (column " + cfg.ms_column + ")";
  for (const auto& z : p.image)
    if (!std::isfinite(z.re))
      throw RunFailure("imager: the image of " + where +
                       " came out non-finite although its input is finite; please report");
}

void store_plane(const ImagerConfig& cfg, const PlaneImage& p, double wimg, int ci,
                 ImagePlanes& planes) {
  // Several inputs: one weighted average (OSKAR's default), or, with
  // scale_norm_with_num_input_files, their sum (inputs holding different parts of the sky).
  if (cfg.scale_norm_with_num_input_files) wimg /= static_cast<double>(cfg.input_ms.size());
  for (int q = 0; q < planes.npol; ++q)
    for (std::size_t i = 0; i < planes.plane; ++i)
      planes.pixels[(std::size_t(q) * planes.nchan + ci) * planes.plane + i] =
          p.image[q * planes.plane + i].re / wimg;
  if (!p.beam.empty())
    divide_by_beam(p.beam, cfg.idg.aterms.min_beam_fraction, planes.npol, planes.nchan, ci,
                   planes.plane, planes.pixels);
}

void check_empty_planes(const ImagerConfig& cfg, const ImagePlanes& planes, ImagerResult& res,
                        Logger* log) {
  for (int ci = 0; ci < planes.nchan; ++ci) {
    std::string why = planes.empty_reason[ci];
    bool zero = true, blank = true;
    for (int q = 0; q < planes.npol; ++q) {
      const double* p = planes.at(q, ci);
      zero = zero && std::all_of(p, p + planes.plane, [](double x) { return x == 0.0; });
      blank = blank && std::none_of(p, p + planes.plane, [](double x) { return std::isfinite(x); });
    }
    if (why.empty() && zero) why = "every pixel is exactly zero";
    if (why.empty() && blank)
      why = std::string("every pixel is blank: the average station beam is below its minimum ") +
            "fraction everywhere" +
            (planes.below_horizon > 0 ? " (station beams below the horizon)" : "");
    if (why.empty()) continue;
    const std::string msg = "imager: ALL-ZERO IMAGE" +
                            (cfg.channel_snapshots ? " PLANE " + std::to_string(ci) : "") +
                            " written to " + cfg.root_path + "_*.fits: " + why;
    if (cfg.strict) throw Error(msg + " (an error with --strict)");
    log_warning(log, msg);
    res.empty_images.push_back(
        cfg.root_path + (cfg.channel_snapshots ? " plane " + std::to_string(ci) : std::string()));
  }
}

void write_images(const ImagerConfig& cfg, const InputSummary& in,
                  const std::vector<double>& freq_hz, const ImagePlanes& planes, ImagerResult& res,
                  Stage& stage) {
  stage.set("writing the FITS images", double(planes.nchan) * planes.plane * 8);
  const auto names = product_names(cfg.image_type);
  const std::size_t cube_pixels = std::size_t(planes.nchan) * planes.plane;
  std::vector<std::unique_ptr<io::FitsImageWriter>> writers;
  for (int q = 0; q < planes.npol; ++q) {
    interrupt::throw_if_requested();
    ImageCube cube = image_cube(cfg, in, freq_hz, res.device);
    cube.pixels.assign(planes.pixels.begin() + std::size_t(q) * cube_pixels,
                       planes.pixels.begin() + std::size_t(q + 1) * cube_pixels);
    const std::string path = cfg.root_path + "_" + names[q] + ".fits";
    try {
      writers.push_back(write_image_cube_unfinished(path, cube));
    } catch (const interrupt::Cancelled&) {
      throw;
    } catch (const Error& e) {
      throw RunFailure(e.message(), e.context());
    }
    res.files.push_back(path);
  }
  interrupt::throw_if_requested();
  try {
    for (auto& w : writers) w->finish();
  } catch (const Error& e) {
    throw RunFailure(e.message(), e.context());
  }
}

}  // namespace fringe::imager
