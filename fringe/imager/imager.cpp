#include "fringe/imager/imager.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <new>
#include <numbers>
#include <optional>

#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/output_guard.h"
#include "fringe/core/resources.h"
#include "fringe/core/timer.h"
#include "fringe/imager/aterm_beam.h"
#include "fringe/imager/dft.h"
#include "fringe/imager/idg.h"
#include "fringe/imager/image_output.h"
#include "fringe/imager/model_image.h"
#include "fringe/imager/ms_input.h"
#include "fringe/imager/plan.h"
#include "fringe/imager/run_checks.h"
#include "fringe/imager/weighting.h"
#include "fringe/io/ms/ms_column_writer.h"
#include "fringe/io/ms/ms_reader.h"
#ifdef FRINGE_IMAGER_CUDA
#include "fringe/imager/idg_cuda.h"
#endif

namespace fringe::imager {

const char* to_string(ImageType t) {
  switch (t) {
    case ImageType::Linear:
      return "Linear (XX,XY,YX,YY)";
    case ImageType::XX:
      return "XX";
    case ImageType::XY:
      return "XY";
    case ImageType::YX:
      return "YX";
    case ImageType::YY:
      return "YY";
    case ImageType::Stokes:
      return "Stokes (I,Q,U,V)";
    case ImageType::I:
      return "I";
    case ImageType::Q:
      return "Q";
    case ImageType::U:
      return "U";
    case ImageType::V:
      return "V";
    case ImageType::Psf:
      return "PSF";
  }
  return "?";
}

std::vector<std::string> product_names(ImageType t) {
  if (t == ImageType::Linear) return {"XX", "XY", "YX", "YY"};
  if (t == ImageType::Stokes) return {"I", "Q", "U", "V"};
  return {to_string(t)};
}

int padded_grid_size(int image_size, double padding) {
  const int g = static_cast<int>(std::ceil(image_size * std::max(1.0, padding)));
  return g + (g & 1);
}

std::size_t estimated_grid_bytes(const ImagerConfig& c) {
  const std::size_t g = padded_grid_size(c.size, c.algorithm == Algorithm::Idg ? c.idg.padding : 1);
  const std::size_t npol = num_product_pols(c.image_type);
  const std::size_t elem = c.precision == Precision::Double ? 16 : 8;
  return npol * g * g * elem + 2 * npol * std::size_t(c.size) * c.size * 16;
}

std::size_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) : 0;
}

namespace {

// What the run is doing, for the message when memory runs out (std::bad_alloc alone says
// nothing): the stage and about how many bytes it allocates (0: not known).
struct Stage {
  std::string what = "preparing the run";
  double bytes = 0;
  void set(std::string w, double b = 0) {
    what = std::move(w);
    bytes = b;
  }
};

// Non-finite input: dropped and counted by the read (non_finite.h); a warning, or an error
// under --strict.
void report_non_finite(const ImagerConfig& cfg, const InputSummary& in, Logger* log) {
  const std::string dropped = describe(in.non_finite);
  if (dropped.empty()) return;
  const std::string msg = "imager: skipped " + dropped + " in " + cfg.input_ms.front() +
                          (cfg.input_ms.size() > 1 ? " and the other inputs" : "") +
                          " (not imaged; the rest of the image is unaffected)";
  if (cfg.strict) throw Error(msg + " (an error with --strict)");
  log_warning(log, msg);
}

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

template <typename T>
std::unique_ptr<IdgBackend<T>> make_backend(const ImagerConfig& cfg, Logger* log) {
  if (cfg.use_gpus) {
#ifdef FRINGE_IMAGER_CUDA
    const auto gpus = cuda_devices();
    if (!gpus.empty()) {
      const int id = cfg.cuda_device_ids.empty() ? gpus.front().index : cfg.cuda_device_ids.front();
      if (cfg.cuda_device_ids.size() > 1)
        log_warning(log, "imager: uses one GPU; GPU " + std::to_string(id) + " of those listed");
      return make_cuda_backend<T>(id);
    }
#endif
    log_warning(log, "imager: image/use_gpus is true but no CUDA GPU is available; using the CPU");
  }
  return make_cpu_backend<T>(cfg.num_threads);
}

// Copies channel c of v (all rows) into a one-channel buffer.
template <typename T>
VisBuffer<T> one_channel(const VisBuffer<T>& v, int c) {
  VisBuffer<T> o;
  o.resize(v.num_rows, 1, v.num_pols);
  o.freq_hz = {v.freq_hz[c]};
  o.uvw_m = v.uvw_m;
  o.time_s = v.time_s;
  o.baseline = v.baseline;
  o.station1 = v.station1;
  o.station2 = v.station2;
  for (std::size_t r = 0; r < v.num_rows; ++r) {
    o.weight[r] = v.weight[r * v.num_channels + c];
    for (int q = 0; q < v.num_pols; ++q)
      o.vis[r * v.num_pols + q] = v.vis[(r * v.num_channels + c) * v.num_pols + q];
  }
  return o;
}

// Where the station beams point: the phase centre of the observation (the first input's,
// before any re-phasing to image/direction).
std::array<double, 2> beam_centre(const ImagerConfig& cfg, const InputSummary& in) {
  return cfg.rephase ? io::MsReader(cfg.input_ms.front()).phase_centre_rad() : in.phase_centre_rad;
}

// Complex images [XX, XY, YX, YY][y][x] -> [I, Q, U, V], the products' definitions
// (ms_input.h): I = (XX + YY)/2, Q = (XX - YY)/2, U = (XY + YX)/2, V = -i (XY - YX)/2.
void linear_to_stokes(std::vector<Complex<double>>& im, std::size_t plane) {
  for (std::size_t i = 0; i < plane; ++i) {
    const Complex<double> xx = im[i], xy = im[plane + i], yx = im[2 * plane + i],
                          yy = im[3 * plane + i];
    const Complex<double> d = xy - yx;
    im[i] = (xx + yy) * 0.5;
    im[plane + i] = (xx - yy) * 0.5;
    im[2 * plane + i] = (xy + yx) * 0.5;
    im[3 * plane + i] = Complex<double>{d.im, -d.re} * 0.5;  // -i d / 2
  }
}

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

template <typename T>
ImagerResult run_typed(const ImagerConfig& cfg, const ProgressCallback& progress, Logger* log,
                       Stage& stage) {
  ImagerResult res;
  Timer timer;
  timer.start();
  InputSummary in;
  // Station-beam A-terms act on the linear correlations (A_p^H X A_q): Stokes (I,Q,U,V) is
  // then gridded as XX, XY, YX, YY and converted after gridding (the image is linear in V).
  const bool stokes_via_linear = cfg.algorithm == Algorithm::Idg &&
                                 cfg.idg.aterms.mode == ATermMode::StationBeams &&
                                 cfg.image_type == ImageType::Stokes;
  ImagerConfig read_cfg = cfg;
  if (stokes_via_linear) read_cfg.image_type = ImageType::Linear;
  VisBuffer<T> all;
  stage.set("reading the visibilities of " + std::to_string(cfg.input_ms.size()) + " input(s)");
  try {
    all = read_visibilities<T>(read_cfg, in, log);
  } catch (const Error& e) {
    if (!stokes_via_linear) throw;
    throw Error(
        "Stokes (I,Q,U,V) with station-beam A-terms is imaged from the linear correlations: " +
            e.message(),
        e.context());
  }
  res.num_visibilities = in.visibilities;
  res.num_non_finite =
      in.non_finite.visibilities + in.non_finite.uvw_rows * std::size_t(all.num_channels);
  report_non_finite(cfg, in, log);
  res.seconds_read = timer.seconds();
  report_progress(progress, 0.1, "read");

  GridGeometry g;
  g.image_size = cfg.size;
  g.cell_rad = cfg.cell_rad;
  g.grid_size =
      cfg.algorithm == Algorithm::Idg ? padded_grid_size(cfg.size, cfg.idg.padding) : cfg.size;
  g.subgrid_size = cfg.idg.subgrid_size;
  g.kernel_size = cfg.idg.kernel_size;
  const Taper taper(cfg.idg.taper, cfg.idg.taper_support);
  g.taper_support = taper.support();
  g.w_step =
      cfg.idg.w_step_lambda > 0 ? cfg.idg.w_step_lambda : auto_w_step(g, in.max_abs_w_lambda);
  res.grid_size = g.grid_size;
  const double max_uv = 0.5 * (g.grid_size - g.subgrid_size) * g.uv_cell();
  if (in.max_uv_lambda > max_uv)
    log_warning(log, "imager: baselines up to " + std::to_string(in.max_uv_lambda) +
                         " wavelengths, but the grid (cell " + std::to_string(g.uv_cell()) +
                         " wavelengths) holds about " + std::to_string(max_uv) +
                         ": longer ones are skipped; use smaller pixels for full resolution");

  std::unique_ptr<IdgBackend<T>> backend;
  if (cfg.algorithm == Algorithm::Idg) {
    backend = make_backend<T>(cfg, log);
    res.device = backend->name();
  } else {
    res.device = "DFT (CPU)";
  }
  const int nchan_img = cfg.channel_snapshots ? all.num_channels : 1;
  const int npol = all.num_pols;
  const std::size_t plane = std::size_t(cfg.size) * cfg.size;
  stage.set("allocating the images and the " + std::to_string(g.grid_size) + " x " +
                std::to_string(g.grid_size) + " grid",
            double(npol) * nchan_img * plane * 8 + double(npol) * plane * 16 +
                double(npol) * g.grid_size * g.grid_size * sizeof(Complex<T>));
  std::vector<double> pixels(std::size_t(npol) * nchan_img * plane, 0.0);  // [pol][chan][y][x]
  std::size_t below_horizon = 0;
  // Why a plane is all zero (all-zero image check below): [channel] "" or the reason.
  std::vector<std::string> empty_reason(nchan_img);
  int empty_planes = 0;  // planes with nothing gridded
  timer.start();
  for (int ci = 0; ci < nchan_img; ++ci) {
    interrupt::throw_if_requested();
    VisBuffer<T> v = cfg.channel_snapshots ? one_channel(all, ci) : VisBuffer<T>{};
    VisBuffer<T>& vis = cfg.channel_snapshots ? v : all;
    const double wsum = apply_weighting(cfg, g, vis);
    std::vector<Complex<double>> image;
    std::vector<double> beam;  // average beam [y][x] with station-beam A-terms
    if (cfg.algorithm == Algorithm::Idg) {
      PlanOptions opt;
      opt.max_times_per_subgrid = cfg.idg.max_times_per_subgrid;
      // At most 128 channels per subgrid: what the CUDA gridder stages in shared memory.
      opt.max_channels_per_group =
          cfg.idg.channel_group_size > 0 ? std::min(cfg.idg.channel_group_size, 128) : 128;
      opt.aterm_interval_s = cfg.idg.aterm_interval_s;
      Plan plan = make_plan(g,
                            {vis.num_rows, vis.num_channels, vis.uvw_m, vis.time_s, vis.baseline,
                             vis.freq_hz, vis.station1, vis.station2},
                            vis.weight, opt);
      res.num_gridded += plan.num_gridded;
      res.num_outside += plan.num_outside;
      res.num_subgrids += plan.subgrids.size();
      res.num_w_layers = std::max<int>(res.num_w_layers, plan.layers.size());
      if (cfg.idg.aterms.mode == ATermMode::StationBeams) {
        const BeamATerms<T> beams =
            station_beam_aterms(cfg.idg.aterms, g, beam_centre(cfg, in), in.phase_centre_rad, vis,
                                plan, ci == 0 ? log : nullptr);
        below_horizon += beams.stations_below_horizon;
        backend->set_aterms(&beams.aterms);
        image = idg_image(g, taper, plan, vis, *backend);
        backend->set_aterms(nullptr);
        if (stokes_via_linear) linear_to_stokes(image, plane);
        beam = average_beam_image(beams.average_lattice, g);
      } else {
        image = idg_image(g, taper, plan, vis, *backend);
      }
    } else {
      image = dft_image(vis, cfg.size, cfg.cell_rad, cfg.algorithm == Algorithm::Dft3d);
      for (float w : vis.weight) res.num_gridded += w > 0;
    }
    // Sum of the weights actually imaged (outside-grid ones were zeroed by the plan), and
    // whether any of those visibilities is non-zero (an all-zero image says why).
    double wimg = 0;
    bool any_signal = cfg.image_type == ImageType::Psf;
    for (std::size_t k = 0; k < vis.weight.size(); ++k) {
      if (!(vis.weight[k] > 0)) continue;
      wimg += vis.weight[k];
      for (int q = 0; q < npol && !any_signal; ++q)
        any_signal = vis.vis[k * npol + q].re != 0 || vis.vis[k * npol + q].im != 0;
    }
    res.sum_weights += wimg;
    (void)wsum;
    char mhz[32];
    std::snprintf(mhz, sizeof mhz, "%.9g MHz", all.freq_hz[cfg.channel_snapshots ? ci : 0] / 1e6);
    const std::string where = cfg.channel_snapshots
                                  ? "channel " + std::to_string(ci) + " (" + mhz + ")"
                                  : std::string("the selection");
    if (!(wimg > 0)) {
      const std::string why = "no visibility of " + where +
                              " could be gridded (all flagged, outside image/uv_filter_min.."
                              "image/uv_filter_max or outside the grid; use smaller pixels)";
      // Nothing at all to image is an error; one empty plane of a cube a warning (below).
      if (nchan_img == 1 || ++empty_planes == nchan_img) throw Error("imager: " + why);
      empty_reason[ci] = why;
      report_progress(progress, 0.1 + 0.8 * (ci + 1) / nchan_img, "image");
      continue;
    }
    if (!any_signal)
      empty_reason[ci] =
          "every visibility imaged in " + where + " is zero (column " + cfg.ms_column + ")";
    // A safety net: the input was checked, so a non-finite pixel is a fault of the run.
    for (const auto& z : image)
      if (!std::isfinite(z.re))
        throw RunFailure("imager: the image of " + where +
                         " came out non-finite although its input is finite; please report");
    // Several inputs: one weighted average (OSKAR's default), or, with
    // scale_norm_with_num_input_files, their sum (inputs holding different parts of the sky).
    if (cfg.scale_norm_with_num_input_files) wimg /= static_cast<double>(cfg.input_ms.size());
    for (int q = 0; q < npol; ++q)
      for (std::size_t i = 0; i < plane; ++i)
        pixels[(std::size_t(q) * nchan_img + ci) * plane + i] = image[q * plane + i].re / wimg;
    if (!beam.empty())
      divide_by_beam(beam, cfg.idg.aterms.min_beam_fraction, npol, nchan_img, ci, plane, pixels);
    report_progress(progress, 0.1 + 0.8 * (ci + 1) / nchan_img, "image");
  }
  res.num_flagged = in.flagged;
  res.num_outside += in.uv_filtered;
  res.seconds_grid = timer.seconds();
  if (below_horizon > 0)
    log_warning(log, "imager: station beams pointing below the horizon (A = 0) in " +
                         std::to_string(below_horizon) + " station x A-term evaluations");
  interrupt::throw_if_requested();

  // All-zero (or, with A-terms, all-blank) planes: a loud warning with the reason; an error
  // with --strict, before anything is written.
  const auto names = product_names(cfg.image_type);
  // (Every product: a zero Stokes V of an unpolarised sky is no fault.)
  for (int ci = 0; ci < nchan_img; ++ci) {
    std::string why = empty_reason[ci];
    bool zero = true, blank = true;
    for (int q = 0; q < npol; ++q) {
      const double* p = &pixels[(std::size_t(q) * nchan_img + ci) * plane];
      zero = zero && std::all_of(p, p + plane, [](double x) { return x == 0.0; });
      blank = blank && std::none_of(p, p + plane, [](double x) { return std::isfinite(x); });
    }
    if (why.empty() && zero) why = "every pixel is exactly zero";
    if (why.empty() && blank)
      why = std::string("every pixel is blank: the average station beam is below its minimum ") +
            "fraction everywhere" + (below_horizon > 0 ? " (station beams below the horizon)" : "");
    if (why.empty()) continue;
    const std::string msg = "imager: ALL-ZERO IMAGE" +
                            (cfg.channel_snapshots ? " PLANE " + std::to_string(ci) : "") +
                            " written to " + cfg.root_path + "_*.fits: " + why;
    if (cfg.strict) throw Error(msg + " (an error with --strict)");
    log_warning(log, msg);
    res.empty_images.push_back(
        cfg.root_path + (cfg.channel_snapshots ? " plane " + std::to_string(ci) : std::string()));
  }

  timer.start();
  stage.set("writing the FITS images", double(nchan_img) * plane * 8);
  std::vector<std::unique_ptr<io::FitsImageWriter>> writers;
  for (int q = 0; q < npol; ++q) {
    interrupt::throw_if_requested();
    ImageCube cube;
    cube.size = cfg.size;
    cube.cell_rad = cfg.cell_rad;
    cube.centre_rad = in.phase_centre_rad;
    cube.double_precision = cfg.precision == Precision::Double;
    if (cfg.channel_snapshots) {
      cube.freq_hz = all.freq_hz;
      cube.freq_step_hz =
          all.freq_hz.size() > 1 ? all.freq_hz[1] - all.freq_hz[0] : in.channel_width_hz.at(0);
    } else {
      double f = 0, bw = 0;
      for (double x : all.freq_hz) f += x;
      for (double x : in.channel_width_hz) bw += x;
      cube.freq_hz = {f / all.freq_hz.size()};
      cube.freq_step_hz = bw > 0 ? bw : 1.0;
    }
    if (cfg.image_type == ImageType::Psf) cube.bunit = "";
    cube.history.push_back("fringe imager: " +
                           std::string(cfg.algorithm == Algorithm::Idg
                                           ? "Image-Domain Gridding"
                                           : "direct Fourier transform") +
                           " on " + res.device);
    cube.pixels.assign(pixels.begin() + std::size_t(q) * nchan_img * plane,
                       pixels.begin() + std::size_t(q + 1) * nchan_img * plane);
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
  // Every product complete: only now do they replace earlier images (all or none, unless the
  // file system fails between two renames).
  interrupt::throw_if_requested();
  try {
    for (auto& w : writers) w->finish();
  } catch (const Error& e) {
    throw RunFailure(e.message(), e.context());
  }
  res.seconds_write = timer.seconds();
  report_progress(progress, 1.0, "write");
  return res;
}

// Prediction: degrid (or DFT) a Stokes I model into model_column of every input MS
// (XX = YY = I, XY = YX = 0; rows and channels outside the selection get 0).
template <typename T>
ImagerResult run_predict(const ImagerConfig& cfg, const ProgressCallback& progress, Logger* log,
                         Stage& stage) {
  ImagerResult res;
  Timer timer;
  timer.start();
  ImagerConfig rc = cfg;
  rc.image_type = ImageType::Psf;  // no data column needed, one value per visibility
  InputSummary in;
  stage.set("reading the visibilities of " + std::to_string(cfg.input_ms.size()) + " input(s)");
  VisBuffer<T> vis = read_visibilities<T>(rc, in, log);
  // Flags do not matter for a model, but a row whose UVW is NaN/Inf has no model (0).
  for (std::size_t r = 0; r < vis.num_rows; ++r)
    std::fill_n(vis.weight.begin() + r * vis.num_channels, vis.num_channels,
                in.bad_uvw_rows[r] ? 0.0f : 1.0f);
  res.num_visibilities = in.visibilities;
  res.num_non_finite = in.non_finite.uvw_rows;
  if (in.non_finite.uvw_rows + in.non_finite.time_rows > 0) {
    NonFiniteCount rows = in.non_finite;
    rows.visibilities = 0;  // values and weights are not used by prediction
    const std::string msg =
        "imager: " + describe(rows) + " get no model (" + cfg.model_column + " = 0 there)";
    if (cfg.strict) throw Error(msg + " (an error with --strict)");
    log_warning(log, msg);
  }
  stage.set("reading the model image and allocating the grid");
  const std::vector<double> pixels = read_model_image(cfg.model_image, cfg.size, cfg.cell_rad);
  check_model_pixels(cfg.model_image, pixels, cfg.size);
  std::vector<Complex<double>> model(pixels.size());
  for (std::size_t i = 0; i < pixels.size(); ++i) model[i] = {pixels[i], 0.0};
  res.seconds_read = timer.seconds();
  report_progress(progress, 0.2, "read");
  timer.start();
  GridGeometry g;
  g.image_size = cfg.size;
  g.cell_rad = cfg.cell_rad;
  g.grid_size = padded_grid_size(cfg.size, cfg.idg.padding);
  g.subgrid_size = cfg.idg.subgrid_size;
  g.kernel_size = cfg.idg.kernel_size;
  const Taper taper(cfg.idg.taper, cfg.idg.taper_support);
  g.taper_support = taper.support();
  g.w_step =
      cfg.idg.w_step_lambda > 0 ? cfg.idg.w_step_lambda : auto_w_step(g, in.max_abs_w_lambda);
  res.grid_size = g.grid_size;
  if (cfg.algorithm == Algorithm::Idg) {
    auto backend = make_backend<T>(cfg, log);
    res.device = backend->name();
    PlanOptions opt;
    opt.max_times_per_subgrid = cfg.idg.max_times_per_subgrid;
    opt.max_channels_per_group =
        cfg.idg.channel_group_size > 0 ? std::min(cfg.idg.channel_group_size, 128) : 128;
    opt.aterm_interval_s = cfg.idg.aterm_interval_s;
    Plan plan = make_plan(g,
                          {vis.num_rows, vis.num_channels, vis.uvw_m, vis.time_s, vis.baseline,
                           vis.freq_hz, vis.station1, vis.station2},
                          vis.weight, opt);
    res.num_gridded = plan.num_gridded;
    res.num_outside = plan.num_outside;
    res.num_subgrids = plan.subgrids.size();
    res.num_w_layers = static_cast<int>(plan.layers.size());
    // Station-beam A-terms: the predicted visibilities are the apparent ones, A_p M A_q^H.
    std::optional<BeamATerms<T>> beams;
    if (cfg.idg.aterms.mode == ATermMode::StationBeams) {
      beams = station_beam_aterms(cfg.idg.aterms, g, in.phase_centre_rad, in.phase_centre_rad, vis,
                                  plan, log);
      backend->set_aterms(&beams->aterms);
    }
    idg_predict(g, taper, plan, model, vis, *backend);
    backend->set_aterms(nullptr);
  } else {
    res.device = "DFT (CPU)";
    dft_predict(model, cfg.size, cfg.cell_rad, vis, cfg.algorithm == Algorithm::Dft3d);
    res.num_gridded = vis.num_visibilities();
  }
  res.seconds_grid = timer.seconds();
  report_progress(progress, 0.8, "predict");
  interrupt::throw_if_requested();
  timer.start();
  stage.set("writing " + cfg.model_column);
  for (std::size_t f = 0; f < cfg.input_ms.size(); ++f) {
    // The column of an input is updated in place: a signal waits for its end (interrupt.h).
    interrupt::CriticalSection in_place;
    const std::vector<int> corr = io::MsReader(cfg.input_ms[f]).corr_types();
    io::MsColumnWriter w(cfg.input_ms[f], cfg.model_column);
    const int npol = w.num_pols(), nchan = w.num_channels();
    std::vector<Complex<float>> values(w.num_rows() * nchan * npol, Complex<float>{0.f, 0.f});
    for (std::size_t i = 0; i < vis.num_rows; ++i) {
      if (in.row_file[i] != static_cast<int>(f)) continue;
      for (int c = 0; c < vis.num_channels; ++c) {
        const Complex<T> v = vis.vis[i * vis.num_channels + c];
        for (int q = 0; q < npol && q < static_cast<int>(corr.size()); ++q)
          if (corr[q] == 9 || corr[q] == 12)  // XX, YY
            values[(in.row_index[i] * nchan + in.channels[c]) * npol + q] = {float(v.re),
                                                                             float(v.im)};
      }
    }
    w.write(0, w.num_rows(), values);
    w.flush();
    res.files.push_back(cfg.input_ms[f] + " (" + cfg.model_column + ")");
  }
  res.seconds_write = timer.seconds();
  report_progress(progress, 1.0, "write");
  return res;
}

}  // namespace

ImagerResult run(const ImagerConfig& cfg, const ProgressCallback& progress, Logger* log) {
  validate(cfg);
  if (cfg.root_path.empty() && cfg.model_image.empty())
    throw Error::in_setting("image/root_path", "", "expected the path of the output images");
  if (cfg.rephase && !cfg.model_image.empty())
    throw Error(
        "imager: prediction (image/model_image) needs image/direction = Observation "
        "direction");
  // The outputs may be written (never over an input, never over something else), before
  // any work; then what the run needs against what is free (--force overrides).
  check_outputs(output_targets(cfg), run_inputs(cfg));
  const std::size_t need = estimated_grid_bytes(cfg), have = physical_memory_bytes();
  if (!cfg.force && have > 0 && need > have * 0.8)
    throw Error("imager: an image of " + std::to_string(cfg.size) + " x " +
                std::to_string(cfg.size) + " pixels needs " + gib(double(need)) +
                " for its grids, more than this machine's memory allows (" + gib(double(have)) +
                " physical); use a smaller image/size or image/double_precision = false" +
                " (or --force)");
  check_run_size(estimate_run(cfg), cfg.force, log);
  if (cfg.algorithm != Algorithm::Idg && cfg.image_type == ImageType::Linear)
    log_info(log, "imager: DFT of four products: slow for large images");
  Stage stage;
  try {
    return dispatch_precision(cfg.precision, [&]<typename T>() {
      return cfg.model_image.empty() ? run_typed<T>(cfg, progress, log, stage)
                                     : run_predict<T>(cfg, progress, log, stage);
    });
  } catch (const std::bad_alloc&) {
    throw RunFailure("imager: out of memory while " + stage.what +
                     (stage.bytes > 0 ? " (about " + format_bytes(stage.bytes) + ")" : "") +
                     ": use a smaller image/size, fewer channels (image/freq_min_hz, "
                     "image/freq_max_hz) or inputs, or image/double_precision = false");
  }
}

}  // namespace fringe::imager
