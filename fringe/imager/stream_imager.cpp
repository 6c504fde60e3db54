#include "fringe/imager/stream_imager.h"

#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "fringe/core/error.h"
#include "fringe/core/interrupt.h"
#include "fringe/core/timer.h"
#include "fringe/imager/conv_imager.h"
#include "fringe/imager/vis_chunks.h"
#include "fringe/imager/weighting.h"

namespace fringe::imager {

bool streams(const ImagerConfig& cfg) {
  return (cfg.algorithm == Algorithm::Fft || cfg.algorithm == Algorithm::WProjection) &&
         !cfg.channel_snapshots && cfg.model_image.empty();
}

namespace {

// What the first pass over the inputs gathers: the uv density of uniform and Briggs
// weighting, and W-projection's |w| statistics (of the visibilities that will have weight).
struct FirstPass {
  std::optional<UvDensity> density;
  WStats w;
};

template <typename T>
FirstPass first_pass(const ImagerConfig& cfg, const GridGeometry& g) {
  FirstPass fp;
  const bool wproj = cfg.algorithm == Algorithm::WProjection;
  if (needs_uv_density(cfg)) fp.density.emplace(cfg, g);
  if (!fp.density && !wproj) return fp;
  // Radial weighting and the taper act per visibility: applied here, they give the weights
  // (> 0 or not) whose |w| W-projection's planes are chosen from (the density's division never
  // makes a weight 0).
  ImagerConfig pointwise = cfg;
  if (needs_uv_density(cfg)) pointwise.weighting = Weighting::Natural;
  VisChunks<T> chunks(cfg, cfg.read_rows, /*read_data=*/false);
  VisBuffer<T> chunk;
  while (chunks.next(chunk)) {
    if (fp.density) fp.density->add(chunk);
    if (wproj) {
      apply_weighting(pointwise, static_cast<const UvDensity*>(nullptr), chunk);
      add_w_stats(chunk, fp.w);
    }
  }
  if (fp.density) fp.density->finish();
  return fp;
}

}  // namespace

template <typename T>
ImagerResult run_streamed(const ImagerConfig& cfg, const ProgressCallback& progress, Logger* log,
                          Stage& stage) {
  ImagerResult res;
  Timer total;
  total.start();
  const ImagerConfig run_cfg = with_conv_device(cfg, log);  // the GPU, if any
  res.device = algorithm_device(run_cfg);
  const Taper taper(cfg.idg.taper, cfg.idg.taper_support);
  const GridGeometry g = grid_geometry(cfg, taper, imaging_grid_size(cfg), 0.0);
  res.grid_size = g.grid_size;

  stage.set("reading the coordinates and weights of " + std::to_string(cfg.input_ms.size()) +
            " input(s)");
  StageTimers timers;
  Timer stage_timer;
  stage_timer.start();
  FirstPass fp = first_pass<T>(cfg, g);
  timers.add("first pass", stage_timer.seconds());
  const bool psf = cfg.image_type == ImageType::Psf;
  VisChunks<T> chunks(cfg, cfg.read_rows, !psf);
  const int npol = chunks.num_pols();
  ImagePlanes planes = allocate_planes(cfg, g, npol, 1, sizeof(Complex<T>), stage);
  stage.set("making the gridding kernels");
  stage_timer.start();
  std::unique_ptr<ConvGridder<T>> gridder =
      cfg.algorithm == Algorithm::Fft
          ? make_fft_gridder<T>(run_cfg.fft, cfg.size, cfg.cell_rad, npol, cfg.num_threads)
          : make_wproj_gridder<T>(run_cfg.wproj, cfg.size, cfg.cell_rad, npol, cfg.num_threads,
                                  fp.w);
  timers.add("kernels", stage_timer.seconds());  // W-projection's w kernels; FFT: its table
  stage.set("reading and gridding the visibilities");
  double wimg = 0.0;
  bool any_signal = false;
  VisBuffer<T> chunk;
  Timer weight_timer, grid_timer;
  while (chunks.next(chunk)) {
    weight_timer.resume();
    apply_weighting(cfg, fp.density ? &*fp.density : nullptr, chunk);
    weight_timer.stop();
    grid_timer.resume();
    const GridTotals t = gridder->add(chunk);
    grid_timer.stop();
    res.num_gridded += t.gridded;
    res.num_outside += t.outside;
    const auto [w, signal] = imaged_weight(cfg, chunk, npol);
    wimg += w;
    any_signal = any_signal || signal;
    report_progress(progress, 0.9 * chunks.fraction_read(), "image");
  }
  const InputSummary& in = chunks.summary();
  chunks.finish(log);  // nothing usable: the whole path's error
  res.num_visibilities = in.visibilities;
  res.num_non_finite = in.non_finite.visibilities + in.non_finite.uvw_rows * in.channels.size();
  res.num_flagged = in.flagged;
  res.num_outside += in.uv_filtered;
  report_non_finite(cfg, in, log);
  warn_long_baselines(g, in, log);

  timers.add("read wait", chunks.seconds_waiting());
  timers.add("convert", chunks.seconds_converting());
  timers.add("weight", weight_timer.seconds());
  timers.add("grid", grid_timer.seconds());
  stage.set("transforming the grid");
  stage_timer.start();
  PlaneImage p;
  p.image = gridder->finish(wimg);
  gridder.reset();
  res.sum_weights = wimg;
  const std::string where = plane_name(cfg, chunks.freq_hz(), 0);
  if (!(wimg > 0))
    throw Error("imager: no visibility of " + where +
                " could be gridded (all flagged, outside ImagerConfig.uv_min_lambda to "
                "ImagerConfig.uv_max_lambda or outside the grid; use smaller pixels)");
  if (!any_signal)
    planes.empty_reason[0] =
        "every visibility imaged in " + where + " is zero (column " + cfg.ms_column + ")";
  for (const auto& z : p.image)
    if (!std::isfinite(z.re))
      throw RunFailure("imager: the image of " + where +
                       " came out non-finite although its input is finite; please report");
  store_plane(cfg, p, wimg, 0, planes);
  timers.add("transform", stage_timer.seconds());
  res.seconds_read = timers.seconds("first pass") + chunks.seconds_waiting();
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
