#include "fringe/imager/stream_imager.h"

#include <cmath>
#include <cstdio>
#include <future>
#include <memory>
#include <optional>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/timer.h"
#include "fringe/imager/conv_imager.h"
#include "fringe/imager/idg_run.h"
#include "fringe/imager/idg_stream.h"
#include "fringe/imager/vis_chunks.h"
#include "fringe/imager/weighting.h"

namespace fringe::imager {

bool streams(const ImagerConfig& cfg) {
  const bool idg = cfg.algorithm == Algorithm::Idg && cfg.idg.aterms.mode == ATermMode::None;
  return (cfg.algorithm == Algorithm::Fft || cfg.algorithm == Algorithm::WProjection || idg) &&
         !cfg.channel_snapshots && cfg.model_image.empty();
}

namespace {

// What the first pass over the inputs gathers: the uv density of uniform and Briggs
// weighting, W-projection's |w| statistics (of the visibilities that will have weight), and
// IDG's largest |w| (its automatic w step, as the whole-input path's) and range of w layers.
struct FirstPass {
  std::optional<UvDensity> density;
  WStats w;
  double max_abs_w_lambda = 0.0;
  LayerRange layers;
};

template <typename T>
FirstPass first_pass(const ImagerConfig& cfg, const GridGeometry& g) {
  FirstPass fp;
  const bool wproj = cfg.algorithm == Algorithm::WProjection;
  const bool idg = cfg.algorithm == Algorithm::Idg;
  if (needs_uv_density(cfg)) fp.density.emplace(cfg, g);
  if (!fp.density && !wproj && !idg) return fp;
  // IDG without a density: the UVW columns alone bound its layers (a tenth of the bytes).
  if (idg && !fp.density) {
    if (const std::optional<LayerRange> r = stored_uvw_layer_range(cfg)) {
      fp.layers = *r;
      fp.max_abs_w_lambda = std::max(std::abs(r->w_lo_lambda), std::abs(r->w_hi_lambda));
      return fp;
    }
  }
  // Radial weighting and the taper act per visibility: applied here, they give the weights
  // (> 0 or not) whose |w| W-projection's planes are chosen from (the density's division never
  // makes a weight 0).
  ImagerConfig pointwise = cfg;
  if (needs_uv_density(cfg)) pointwise.weighting = Weighting::Natural;
  VisChunks<T> chunks(cfg, cfg.read_rows, /*read_data=*/false);
  VisBuffer<T> chunk;
  while (chunks.next(chunk)) {
    if (fp.density) fp.density->add(chunk);
    if (idg) fp.layers.add(chunk);
    if (wproj) {
      apply_weighting(pointwise, static_cast<const UvDensity*>(nullptr), chunk);
      add_w_stats(chunk, fp.w);
    }
  }
  if (fp.density) fp.density->finish();
  fp.max_abs_w_lambda = chunks.summary().max_abs_w_lambda;
  return fp;
}

// The gridder of the run: FFT, W-projection, or IDG on the w-layer stack of its back end
// (res.device set; IDG's choice of layers logged).
template <typename T>
std::unique_ptr<ConvGridder<T>> make_gridder(const ImagerConfig& cfg, const ImagerConfig& run_cfg,
                                             const GridGeometry& g, const Taper& taper, int npol,
                                             const FirstPass& fp,
                                             std::future<std::unique_ptr<IdgBackend<T>>>& backend,
                                             Logger* log, ImagerResult& res) {
  if (cfg.algorithm == Algorithm::Fft)
    return make_fft_gridder<T>(run_cfg.fft, cfg.size, cfg.cell_rad, npol, cfg.num_threads);
  if (cfg.algorithm == Algorithm::WProjection)
    return make_wproj_gridder<T>(run_cfg.wproj, cfg.size, cfg.cell_rad, npol, cfg.num_threads,
                                 fp.w);
  auto idg = std::make_unique<IdgLayerGridder<T>>(
      g, taper, plan_options(cfg), npol, backend.get(), fp.layers.first(g.w_step),
      fp.layers.last(g.w_step), cfg.idg.max_layer_bytes);
  res.device = idg->backend_name();
  res.num_w_layers = idg->num_layers();
  char msg[256];
  std::snprintf(msg, sizeof msg,
                "imager: IDG w layers %d (step %.4g wavelengths, |w| up to %.4g), %d per pass, "
                "%d pass(es) over the inputs",
                idg->num_layers(), g.w_step, fp.max_abs_w_lambda, idg->layers_per_pass(),
                idg->num_passes());
  log_info(log, msg);
  return idg;
}

}  // namespace

template <typename T>
ImagerResult run_streamed(const ImagerConfig& cfg, const ProgressCallback& progress, Logger* log,
                          Stage& stage) {
  ImagerResult res;
  Timer total;
  total.start();
  const bool idg = cfg.algorithm == Algorithm::Idg;
  const ImagerConfig run_cfg = idg ? cfg : with_conv_device(cfg, log);  // the GPU, if any
  if (!idg) res.device = algorithm_device(run_cfg);
  const Taper taper(cfg.idg.taper, cfg.idg.taper_support);
  GridGeometry g = grid_geometry(cfg, taper, imaging_grid_size(cfg), 0.0);
  res.grid_size = g.grid_size;

  stage.set("reading the coordinates and weights of " + std::to_string(cfg.input_ms.size()) +
            " input(s)");
  StageTimers timers;
  Timer stage_timer;
  stage_timer.start();
  // IDG's back end (a GPU's context takes ~0.4 s to make) while the first pass reads.
  std::future<std::unique_ptr<IdgBackend<T>>> backend;
  if (idg) backend = std::async(std::launch::async, [&] { return make_idg_backend<T>(cfg, log); });
  FirstPass fp = first_pass<T>(cfg, g);
  timers.add("first pass", stage_timer.seconds());
  if (idg) g = grid_geometry(cfg, taper, g.grid_size, fp.max_abs_w_lambda);  // its w step
  const bool psf = cfg.image_type == ImageType::Psf;
  VisChunks<T> chunks(cfg, cfg.read_rows, !psf);
  const int npol = chunks.num_pols();
  ImagePlanes planes = allocate_planes(cfg, g, npol, 1, sizeof(Complex<T>), stage);
  stage.set("making the gridding kernels");
  stage_timer.start();
  std::unique_ptr<ConvGridder<T>> gridder =
      make_gridder<T>(cfg, run_cfg, g, taper, npol, fp, backend, log, res);
  // W-projection's w kernels; FFT: its table; IDG: the rest of making its back end.
  timers.add("kernels", stage_timer.seconds());
  auto* layered = dynamic_cast<IdgLayerGridder<T>*>(gridder.get());
  const int passes = layered ? layered->num_passes() : 1;
  stage.set("reading and gridding the visibilities");
  double wimg = 0.0, waiting = 0.0, converting = 0.0;
  bool any_signal = false;
  VisBuffer<T> chunk;
  Timer weight_timer, grid_timer;
  for (int pass = 0; pass < passes; ++pass) {
    // IDG with more w layers than memory holds at once: the inputs again for each group.
    std::optional<VisChunks<T>> again;
    VisChunks<T>& src = pass == 0 ? chunks : again.emplace(cfg, cfg.read_rows, !psf);
    if (layered) layered->begin_pass(pass);
    while (src.next(chunk)) {
      weight_timer.resume();
      apply_weighting(cfg, fp.density ? &*fp.density : nullptr, chunk);
      weight_timer.stop();
      grid_timer.resume();
      const GridTotals t = gridder->add(chunk);
      grid_timer.stop();
      report_progress(progress, 0.9 * (pass + src.fraction_read()) / passes, "image");
      if (pass > 0) continue;  // the counts and weights are the same in every pass
      res.num_gridded += t.gridded;
      res.num_outside += t.outside;
      const auto [w, signal] = imaged_weight(cfg, chunk, npol);
      wimg += w;
      any_signal = any_signal || signal;
    }
    waiting += src.seconds_waiting();
    converting += src.seconds_converting();
  }
  if (layered) res.num_subgrids = layered->num_subgrids();
  const InputSummary& in = chunks.summary();
  chunks.finish(log);  // nothing usable: the whole path's error
  res.num_visibilities = in.visibilities;
  res.num_non_finite = in.non_finite.visibilities + in.non_finite.uvw_rows * in.channels.size();
  res.num_flagged = in.flagged;
  res.num_outside += in.uv_filtered;
  report_non_finite(cfg, in, log);
  warn_long_baselines(g, in, log);

  timers.add("read wait", waiting);
  timers.add("convert", converting);
  timers.add("weight", weight_timer.seconds());
  timers.add("grid", grid_timer.seconds());
  stage.set("transforming the grid");
  stage_timer.start();
  PlaneImage p;
  p.image = gridder->finish(wimg);
  gridder.reset();
  res.sum_weights = wimg;
  const std::string where = plane_name(cfg, chunks.freq_hz(), 0);
  if (!(wimg > 0)) throw Error("imager: " + nothing_gridded(where));
  check_plane(cfg, where, any_signal, p, 0, planes);
  store_plane(cfg, p, wimg, 0, planes);
  timers.add("transform", stage_timer.seconds());
  res.seconds_read = timers.seconds("first pass") + waiting;
  res.seconds_grid = total.seconds() - res.seconds_read;
  interrupt::throw_if_requested();
  check_empty_planes(cfg, planes, res, log);
  report_progress(progress, 0.9, "image");

  Timer write;
  write.start();
  write_images(cfg, in, chunks.freq_hz(), planes, res, stage);
  res.seconds_write = write.seconds();
  timers.add("write", res.seconds_write);
  res.stages = timers.stages();
  report_progress(progress, 1.0, "write");
  return res;
}

template ImagerResult run_streamed<float>(const ImagerConfig&, const ProgressCallback&, Logger*,
                                          Stage&);
template ImagerResult run_streamed<double>(const ImagerConfig&, const ProgressCallback&, Logger*,
                                           Stage&);

}  // namespace fringe::imager
