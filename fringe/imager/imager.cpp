#include "fringe/imager/imager.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <utility>

#include "fringe/core/constants.h"
#include "fringe/core/device.h"
#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/output_guard.h"
#include "fringe/core/resources.h"
#include "fringe/core/timer.h"
#include "fringe/imager/aterm_beam.h"
#include "fringe/imager/conv_imager.h"
#include "fringe/imager/dft.h"
#include "fringe/imager/idg.h"
#include "fringe/imager/idg_run.h"
#include "fringe/imager/image_output.h"
#include "fringe/imager/imager_steps.h"
#include "fringe/imager/input_columns.h"
#include "fringe/imager/model_image.h"
#include "fringe/imager/ms_input.h"
#include "fringe/imager/plan.h"
#include "fringe/imager/run_checks.h"
#include "fringe/imager/stream_imager.h"
#include "fringe/imager/weighting.h"
#include "fringe/io/ms/ms_column_writer.h"
#include "fringe/io/ms/ms_reader.h"

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

namespace {
constexpr std::pair<const char*, Algorithm> kAlgorithmNames[] = {
    {"FFT", Algorithm::Fft},
    {"W-projection", Algorithm::WProjection},
    {"IDG", Algorithm::Idg},
    {"DFT 2D", Algorithm::Dft2d},
    {"DFT 3D", Algorithm::Dft3d}};
}  // namespace

const char* to_string(Algorithm a) {
  for (const auto& [name, value] : kAlgorithmNames)
    if (value == a) return name;
  return "?";
}

bool algorithm_from_name(const std::string& name, Algorithm& out) {
  for (const auto& [n, value] : kAlgorithmNames)
    if (name == n) {
      out = value;
      return true;
    }
  return false;
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

int imaging_grid_size(const ImagerConfig& c) {
  switch (c.algorithm) {
    case Algorithm::Idg:
      return padded_grid_size(c.size, c.idg.padding);
    case Algorithm::WProjection:
      return wproj_grid_size(c.size, c.wproj.padding);
    default:
      return c.size;
  }
}

std::size_t estimated_grid_bytes(const ImagerConfig& c) {
  const std::size_t g = imaging_grid_size(c);
  const std::size_t npol = num_product_pols(c.image_type);
  const std::size_t elem = c.precision == Precision::Double ? 16 : 8;
  return npol * g * g * elem + 2 * npol * std::size_t(c.size) * c.size * 16;
}

namespace {

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
// before any re-phasing to the image centre).
std::array<double, 2> beam_centre(const ImagerConfig& cfg, const InputSummary& in) {
  return cfg.rephase ? input_phase_centre_rad(cfg.input_ms.front()) : in.phase_centre_rad;
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

// The IDG plan of vis; its counts are added to res.
template <typename T>
Plan run_plan(const ImagerConfig& cfg, const GridGeometry& g, VisBuffer<T>& vis,
              ImagerResult& res) {
  const PlanOptions opt = plan_options(cfg);
  Plan plan = make_plan(g,
                        {vis.num_rows, vis.num_channels, vis.uvw_m, vis.time_s, vis.baseline,
                         vis.freq_hz, vis.station1, vis.station2},
                        vis.weight, opt);
  res.num_gridded += plan.num_gridded;
  res.num_outside += plan.num_outside;
  res.num_subgrids += plan.subgrids.size();
  res.num_w_layers = std::max<int>(res.num_w_layers, plan.layers.size());
  return plan;
}

// ---- Imaging (run_typed) ----

// Station-beam A-terms act on the linear correlations (A_p^H X A_q): Stokes (I,Q,U,V) is
// then gridded as XX, XY, YX, YY and converted after gridding (the image is linear in V).
bool stokes_via_linear(const ImagerConfig& cfg) {
  return cfg.algorithm == Algorithm::Idg && cfg.idg.aterms.mode == ATermMode::StationBeams &&
         cfg.image_type == ImageType::Stokes;
}

// The visibilities of every input, as the products to grid.
template <typename T>
VisBuffer<T> read_for_imaging(const ImagerConfig& cfg, InputSummary& in, Logger* log,
                              Stage& stage) {
  const bool via_linear = stokes_via_linear(cfg);
  ImagerConfig read_cfg = cfg;
  if (via_linear) read_cfg.image_type = ImageType::Linear;
  stage.set("reading the visibilities of " + std::to_string(cfg.input_ms.size()) + " input(s)");
  try {
    return read_visibilities<T>(read_cfg, in, log);
  } catch (const Error& e) {
    if (!via_linear) throw;
    throw Error(
        "Stokes (I,Q,U,V) with station-beam A-terms is imaged from the linear correlations: " +
            e.message(),
        e.context());
  }
}

template <typename T>
PlaneImage image_plane(const ImagerConfig& cfg, const GridGeometry& g, const Taper& taper,
                       const InputSummary& in, VisBuffer<T>& vis, IdgBackend<T>* backend,
                       bool first_plane, Logger* log, ImagerResult& res, ImagePlanes& planes) {
  PlaneImage out;
  if (cfg.algorithm == Algorithm::Fft || cfg.algorithm == Algorithm::WProjection) {
    GridTotals t;
    out.image = cfg.algorithm == Algorithm::Fft
                    ? fft_image(cfg.fft, vis, cfg.size, cfg.cell_rad, cfg.num_threads, t)
                    : wproj_image(cfg.wproj, vis, cfg.size, cfg.cell_rad, cfg.num_threads, t);
    res.num_gridded += t.gridded;
    res.num_outside += t.outside;
    return out;
  }
  if (cfg.algorithm != Algorithm::Idg) {
    out.image = dft_image(vis, cfg.size, cfg.cell_rad, cfg.algorithm == Algorithm::Dft3d);
    for (float w : vis.weight) res.num_gridded += w > 0;
    return out;
  }
  Plan plan = run_plan(cfg, g, vis, res);
  if (cfg.idg.aterms.mode != ATermMode::StationBeams) {
    out.image = idg_image(g, taper, plan, vis, *backend);
    return out;
  }
  const BeamATerms<T> beams =
      station_beam_aterms(cfg.idg.aterms, g, beam_centre(cfg, in), in.phase_centre_rad, vis, plan,
                          first_plane ? log : nullptr);
  planes.below_horizon += beams.stations_below_horizon;
  backend->set_aterms(&beams.aterms);
  out.image = idg_image(g, taper, plan, vis, *backend);
  backend->set_aterms(nullptr);
  if (stokes_via_linear(cfg)) linear_to_stokes(out.image, planes.plane);
  out.beam = average_beam_image(beams.average_lattice, g);
  return out;
}

// Weights, grids and transforms each channel plane (all channels together unless
// channel_snapshots) into planes.
template <typename T>
void image_channels(const ImagerConfig& cfg, const GridGeometry& g, const Taper& taper,
                    const InputSummary& in, VisBuffer<T>& all, IdgBackend<T>* backend,
                    const ProgressCallback& progress, Logger* log, ImagerResult& res,
                    ImagePlanes& planes) {
  const int nchan_img = planes.nchan;
  int empty_planes = 0;  // planes with nothing gridded
  for (int ci = 0; ci < nchan_img; ++ci) {
    interrupt::throw_if_requested();
    VisBuffer<T> v = cfg.channel_snapshots ? one_channel(all, ci) : VisBuffer<T>{};
    VisBuffer<T>& vis = cfg.channel_snapshots ? v : all;
    apply_weighting(cfg, g, vis);
    const PlaneImage p = image_plane(cfg, g, taper, in, vis, backend, ci == 0, log, res, planes);
    const auto [wimg, any_signal] = imaged_weight(cfg, vis, planes.npol);
    res.sum_weights += wimg;
    const std::string where = plane_name(cfg, all.freq_hz, ci);
    if (!(wimg > 0)) {
      const std::string why = nothing_gridded(where);
      // Nothing at all to image is an error; one empty plane of a cube a warning (below).
      if (nchan_img == 1 || ++empty_planes == nchan_img) throw Error("imager: " + why);
      planes.empty_reason[ci] = why;
      report_progress(progress, 0.1 + 0.8 * (ci + 1) / nchan_img, "image");
      continue;
    }
    check_plane(cfg, where, any_signal, p, ci, planes);
    store_plane(cfg, p, wimg, ci, planes);
    report_progress(progress, 0.1 + 0.8 * (ci + 1) / nchan_img, "image");
  }
}

// Weights, grids or transforms and normalises the visibilities of `all` into image planes
// (the steps of run_typed between the read and the write); res gets the counts.
template <typename T>
ImagePlanes image_buffer(const ImagerConfig& cfg, const InputSummary& in, VisBuffer<T>& all,
                         const ProgressCallback& progress, Logger* log, ImagerResult& res,
                         Stage& stage) {
  Timer timer;
  const Taper taper(cfg.idg.taper, cfg.idg.taper_support);
  const GridGeometry g = grid_geometry(cfg, taper, imaging_grid_size(cfg), in.max_abs_w_lambda);
  res.grid_size = g.grid_size;
  warn_long_baselines(g, in, log);
  std::unique_ptr<IdgBackend<T>> backend;
  ImagerConfig run_cfg = cfg;  // with the GPU the convolutional gridders use, if any
  if (cfg.algorithm == Algorithm::Idg) {
    backend = make_idg_backend<T>(cfg, log);
    res.device = backend->name();
  } else {
    run_cfg = with_conv_device(cfg, log);
    res.device = algorithm_device(run_cfg);
  }
  ImagePlanes planes =
      allocate_planes(cfg, g, all.num_pols, cfg.channel_snapshots ? all.num_channels : 1,
                      sizeof(Complex<T>), stage);
  timer.start();
  image_channels(run_cfg, g, taper, in, all, backend.get(), progress, log, res, planes);
  res.num_flagged = in.flagged;
  res.num_outside += in.uv_filtered;
  res.seconds_grid = timer.seconds();
  if (planes.below_horizon > 0)
    log_warning(log, "imager: station beams pointing below the horizon (A = 0) in " +
                         std::to_string(planes.below_horizon) + " station x A-term evaluations");
  interrupt::throw_if_requested();
  check_empty_planes(cfg, planes, res, log);
  return planes;
}

template <typename T>
ImagerResult run_typed(const ImagerConfig& cfg, const ProgressCallback& progress, Logger* log,
                       Stage& stage) {
  ImagerResult res;
  Timer timer;
  timer.start();
  InputSummary in;
  VisBuffer<T> all = read_for_imaging<T>(cfg, in, log, stage);
  res.num_visibilities = in.visibilities;
  res.num_non_finite =
      in.non_finite.visibilities + in.non_finite.uvw_rows * std::size_t(all.num_channels);
  report_non_finite(cfg, in, log);
  res.seconds_read = timer.seconds();
  report_progress(progress, 0.1, "read");

  const ImagePlanes planes = image_buffer(cfg, in, all, progress, log, res, stage);

  timer.start();
  write_images(cfg, in, all.freq_hz, planes, res, stage);
  res.seconds_write = timer.seconds();
  report_progress(progress, 1.0, "write");
  return res;
}

// ---- Prediction (run_predict) ----

// The rows of every input (no data column: one value per visibility); weight 1, or 0 where
// the row's UVW is NaN/Inf (flags do not matter for a model, but such a row has none).
template <typename T>
VisBuffer<T> read_for_prediction(const ImagerConfig& cfg, InputSummary& in, Logger* log,
                                 Stage& stage, ImagerResult& res) {
  ImagerConfig rc = cfg;
  rc.image_type = ImageType::Psf;
  stage.set("reading the visibilities of " + std::to_string(cfg.input_ms.size()) + " input(s)");
  VisBuffer<T> vis = read_visibilities<T>(rc, in, log);
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
  return vis;
}

// The model image (Stokes I, Jy/pixel) as complex values [y][x].
std::vector<Complex<double>> read_model(const ImagerConfig& cfg, Stage& stage) {
  stage.set("reading the model image and allocating the grid");
  const std::vector<double> pixels = read_model_image(cfg.model_image, cfg.size, cfg.cell_rad);
  check_model_pixels(cfg.model_image, pixels, cfg.size);
  std::vector<Complex<double>> model(pixels.size());
  for (std::size_t i = 0; i < pixels.size(); ++i) model[i] = {pixels[i], 0.0};
  return model;
}

// Degrids (or DFTs) the model into vis.vis.
template <typename T>
void predict(const ImagerConfig& cfg, const InputSummary& in,
             const std::vector<Complex<double>>& model, VisBuffer<T>& vis, Logger* log,
             ImagerResult& res) {
  const Taper taper(cfg.idg.taper, cfg.idg.taper_support);
  const GridGeometry g =
      grid_geometry(cfg, taper, padded_grid_size(cfg.size, cfg.idg.padding), in.max_abs_w_lambda);
  res.grid_size = g.grid_size;
  if (cfg.algorithm == Algorithm::Fft) {
    // The FFT imager's kernel, degridded (the adjoint of its imaging: fft_predict.cpp).
    const ImagerConfig rc = with_conv_device(cfg, log);
    res.device = algorithm_device(rc);
    const GridTotals t = fft_predict(rc.fft, model, cfg.size, cfg.cell_rad, cfg.num_threads, vis);
    res.num_gridded = t.gridded;
    res.num_outside = t.outside;
    if (t.outside > 0)
      log_warning(log, "imager: " + std::to_string(t.outside) +
                           " visibilities lie beyond the model's uv grid: their " +
                           cfg.model_column + " is 0 (use smaller pixels)");
    return;
  }
  if (cfg.algorithm != Algorithm::Idg) {
    // W-projection predicts with the exact transform of the same geometry (DFT 3D): a model is
    // degridded once, so exactness costs little there.
    res.device = "DFT (CPU)";
    dft_predict(model, cfg.size, cfg.cell_rad, vis,
                cfg.algorithm == Algorithm::Dft3d || cfg.algorithm == Algorithm::WProjection);
    res.num_gridded = vis.num_visibilities();
    return;
  }
  auto backend = make_idg_backend<T>(cfg, log);
  res.device = backend->name();
  Plan plan = run_plan(cfg, g, vis, res);
  // Station-beam A-terms: the predicted visibilities are the apparent ones, A_p M A_q^H.
  std::optional<BeamATerms<T>> beams;
  if (cfg.idg.aterms.mode == ATermMode::StationBeams) {
    beams = station_beam_aterms(cfg.idg.aterms, g, in.phase_centre_rad, in.phase_centre_rad, vis,
                                plan, log);
    backend->set_aterms(&beams->aterms);
  }
  idg_predict(g, taper, plan, model, vis, *backend);
  backend->set_aterms(nullptr);
}

// The predicted XX and YY into model_column of every input (rows and channels outside the
// selection, and XY, YX: 0).
template <typename T>
void write_model_columns(const ImagerConfig& cfg, const InputSummary& in, const VisBuffer<T>& vis,
                         ImagerResult& res) {
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
}

// Prediction: degrid (or DFT) a Stokes I model into model_column of every input MS
// (XX = YY = I, XY = YX = 0; rows and channels outside the selection get 0).
template <typename T>
ImagerResult run_predict(const ImagerConfig& cfg, const ProgressCallback& progress, Logger* log,
                         Stage& stage) {
  ImagerResult res;
  Timer timer;
  timer.start();
  InputSummary in;
  VisBuffer<T> vis = read_for_prediction<T>(cfg, in, log, stage, res);
  const std::vector<Complex<double>> model = read_model(cfg, stage);
  res.seconds_read = timer.seconds();
  report_progress(progress, 0.2, "read");
  timer.start();
  predict(cfg, in, model, vis, log, res);
  res.seconds_grid = timer.seconds();
  report_progress(progress, 0.8, "predict");
  interrupt::throw_if_requested();
  timer.start();
  stage.set("writing " + cfg.model_column);
  write_model_columns(cfg, in, vis, res);
  res.seconds_write = timer.seconds();
  report_progress(progress, 1.0, "write");
  return res;
}

}  // namespace

ImagerResult run(const ImagerConfig& cfg, const ProgressCallback& progress, Logger* log) {
  validate(cfg);
  if (cfg.root_path.empty() && cfg.model_image.empty())
    throw Error::in_field("ImagerConfig.root_path", "", "expected the path of the output images");
  if (cfg.rephase && !cfg.model_image.empty())
    throw Error(
        "imager: prediction (ImagerConfig.model_image) is made at the observation's phase "
        "centre: it cannot re-phase (ImagerConfig.rephase)");
  // The outputs may be written (never over an input, never over something else), before
  // any work; then what the run needs against what is free (--force overrides).
  check_outputs(output_targets(cfg), run_inputs(cfg));
  const std::size_t need = estimated_grid_bytes(cfg), have = physical_memory_bytes();
  if (!cfg.force && have > 0 && need > have * 0.8)
    throw Error("imager: an image of " + std::to_string(cfg.size) + " x " +
                std::to_string(cfg.size) + " pixels needs " + gib(double(need)) +
                " for its grids, more than this machine's memory allows (" + gib(double(have)) +
                " physical); use a smaller ImagerConfig.size or single precision "
                "(ImagerConfig.precision) (or --force)");
  check_run_size(estimate_run(cfg), cfg.force, log);
  if ((cfg.algorithm == Algorithm::Dft2d || cfg.algorithm == Algorithm::Dft3d) &&
      cfg.image_type == ImageType::Linear)
    log_info(log, "imager: DFT of four products: slow for large images");
  Stage stage;
  try {
    return dispatch_precision(cfg.precision, [&]<typename T>() {
      if (!cfg.model_image.empty()) return run_predict<T>(cfg, progress, log, stage);
      return streams(cfg) ? run_streamed<T>(cfg, progress, log, stage)
                          : run_typed<T>(cfg, progress, log, stage);
    });
  } catch (const std::bad_alloc&) {
    throw RunFailure("imager: out of memory while " + stage.what +
                     (stage.bytes > 0 ? " (about " + format_bytes(stage.bytes) + ")" : "") +
                     ": use a smaller ImagerConfig.size, fewer channels "
                     "(ImagerConfig.freq_min_hz, ImagerConfig.freq_max_hz) or inputs, or single "
                     "precision (ImagerConfig.precision)");
  }
}

template <typename T>
ImageArrays image_in_memory(const ImagerConfig& cfg, VisBuffer<T>& vis,
                            std::array<double, 2> phase_centre_rad, Logger* log) {
  validate(cfg);
  if (!cfg.model_image.empty() || cfg.rephase)
    throw Error(
        "imager: images of visibilities in memory take neither a model image "
        "(ImagerConfig.model_image) nor re-phasing (ImagerConfig.rephase)");
  InputSummary in;
  in.phase_centre_rad = phase_centre_rad;
  in.visibilities = vis.num_visibilities();
  for (std::size_t r = 0; r < vis.num_rows; ++r)
    for (int c = 0; c < vis.num_channels; ++c) {
      if (!(vis.weight[r * vis.num_channels + c] > 0)) continue;  // as ms_input's uv_extent
      const double k = vis.freq_hz[c] / kSpeedOfLight;            // wavelengths per metre
      const auto& uvw = vis.uvw_m[r];
      in.max_abs_w_lambda = std::max(in.max_abs_w_lambda, std::abs(uvw[2] * k));
      in.max_uv_lambda = std::max(in.max_uv_lambda, std::hypot(uvw[0], uvw[1]) * k);
    }
  ImageArrays out;
  Stage stage;
  try {
    const ImagePlanes planes = image_buffer(cfg, in, vis, {}, log, out.result, stage);
    out.num_products = planes.npol;
    out.num_planes = planes.nchan;
    out.size = cfg.size;
    out.pixels = planes.pixels;
  } catch (const std::bad_alloc&) {
    throw RunFailure("imager: out of memory while " + stage.what);
  }
  out.result.num_visibilities = in.visibilities;
  return out;
}

template ImageArrays image_in_memory<float>(const ImagerConfig&, VisBuffer<float>&,
                                            std::array<double, 2>, Logger*);
template ImageArrays image_in_memory<double>(const ImagerConfig&, VisBuffer<double>&,
                                             std::array<double, 2>, Logger*);

}  // namespace fringe::imager
