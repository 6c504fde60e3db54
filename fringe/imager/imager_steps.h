// The steps of an imager run that its whole-input path (imager.cpp) and its streamed path
// (stream_imager.cpp) share: the run's device and names, the grid geometry, the image planes
// (normalised, checked for all-zero planes) and their FITS output. Internal to the imager.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/core/log.h"
#include "fringe/imager/geometry.h"
#include "fringe/imager/imager.h"
#include "fringe/imager/imager_config.h"
#include "fringe/imager/ms_input.h"
#include "fringe/imager/taper.h"
#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

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
void report_non_finite(const ImagerConfig& cfg, const InputSummary& in, Logger* log);

// The algorithm in words, for the FITS history ("Image-Domain Gridding", ...).
std::string algorithm_description(Algorithm a);

// Where a non-IDG algorithm runs (IDG: its back end's name).
std::string algorithm_device(const ImagerConfig& cfg);

// The convolutional gridders' GPU switches (image/fft/grid_on_gpu, use_gpu) resolved by the
// one device policy: the GPU it picks, or the CPU (with its warning) when there is none.
ImagerConfig with_conv_device(const ImagerConfig& cfg, Logger* log);

std::string gib(double bytes);

// The uv grid of a run of grid_size cells; the w step automatic (auto_w_step) unless given.
GridGeometry grid_geometry(const ImagerConfig& cfg, const Taper& taper, int grid_size,
                           double max_abs_w_lambda);

void warn_long_baselines(const GridGeometry& g, const InputSummary& in, Logger* log);

// The real image planes of a run, [pol][channel plane][y][x], and why a plane is all zero
// ("" when it is not, or not known yet).
struct ImagePlanes {
  int npol = 0, nchan = 0;
  std::size_t plane = 0;  // pixels per plane
  std::vector<double> pixels;
  std::vector<std::string> empty_reason;  // [channel plane]
  std::size_t below_horizon = 0;          // station x A-term evaluations below the horizon
  const double* at(int q, int ci) const { return &pixels[(std::size_t(q) * nchan + ci) * plane]; }
};

ImagePlanes allocate_planes(const ImagerConfig& cfg, const GridGeometry& g, int npol, int nchan,
                            std::size_t grid_value_bytes, Stage& stage);

// The complex images [pol][y][x] of one plane's visibilities and, with station-beam A-terms,
// the average beam [y][x] they are to be divided by.
struct PlaneImage {
  std::vector<Complex<double>> image;
  std::vector<double> beam;
};

// "channel 3 (150 MHz)" or "the selection": the plane in messages.
std::string plane_name(const ImagerConfig& cfg, const std::vector<double>& freq_hz, int ci);

// Why plane `where` (plane_name) has nothing to show when no visibility of it was gridded.
std::string nothing_gridded(const std::string& where);

// The checks of an imaged plane with weight: planes.empty_reason[ci] set when every value
// imaged was zero (!any_signal); a non-finite pixel (the input was checked, so a fault of the
// run) throws RunFailure.
void check_plane(const ImagerConfig& cfg, const std::string& where, bool any_signal,
                 const PlaneImage& p, int ci, ImagePlanes& planes);

// The real part of a plane's images divided by the imaged weight (and the average beam) into
// channel plane ci of planes.
void store_plane(const ImagerConfig& cfg, const PlaneImage& p, double wimg, int ci,
                 ImagePlanes& planes);

// All-zero (or, with A-terms, all-blank) planes: a loud warning with the reason; an error
// with --strict, before anything is written. (Every product: a zero Stokes V of an
// unpolarised sky is no fault.)
void check_empty_planes(const ImagerConfig& cfg, const ImagePlanes& planes, ImagerResult& res,
                        Logger* log);

// One FITS file per product, written under temporary names and renamed into place only when
// all of them are complete (all or none, unless the file system fails between two renames).
void write_images(const ImagerConfig& cfg, const InputSummary& in,
                  const std::vector<double>& freq_hz, const ImagePlanes& planes, ImagerResult& res,
                  Stage& stage);

// Sum of the weights actually imaged (outside-grid ones were zeroed by the plan), and
// whether any of those visibilities is non-zero (an all-zero image says why).
template <typename T>
inline std::pair<double, bool> imaged_weight(const ImagerConfig& cfg, const VisBuffer<T>& vis,
                                             int npol) {
  double wimg = 0;
  bool any_signal = cfg.image_type == ImageType::Psf;
  for (std::size_t k = 0; k < vis.weight.size(); ++k) {
    if (!(vis.weight[k] > 0)) continue;
    wimg += vis.weight[k];
    for (int q = 0; q < npol && !any_signal; ++q)
      any_signal = vis.vis[k * npol + q].re != 0 || vis.vis[k * npol + q].im != 0;
  }
  return {wimg, any_signal};
}

}  // namespace fringe::imager
