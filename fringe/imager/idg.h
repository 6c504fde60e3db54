// Image-Domain Gridding operators (van der Tol, Veenboer & Offringa 2018): gridding of the
// visibilities of a plan into a dirty image and degridding (prediction) of visibilities from
// a model image, on the CPU or a CUDA GPU.
//
// A back end (IdgBackend) does the per-layer work: the gridder kernel, subgrid FFT and adder
// onto a uv grid, or the splitter, subgrid FFT and degridder kernel from a uv grid. The shared
// code here does the rest: the loop over w layers, the grid FFT, the w-layer phase
// exp(-2 pi i w0 (n - 1)), the taper correction and the crop of the padded image.
// Grids and images are [pol][y][x] complex, x fastest. Image values: sum_k weight_k V_k
// exp(-2 pi i (u l + v m + w (n - 1))) (not normalised, not yet the real part).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fringe/core/complex.h"
#include "fringe/imager/aterms.h"
#include "fringe/imager/geometry.h"
#include "fringe/imager/plan.h"
#include "fringe/imager/taper.h"
#include "fringe/imager/vis_buffer.h"

namespace fringe::imager {

template <typename T>
class IdgBackend {
 public:
  virtual ~IdgBackend() = default;
  virtual std::string name() const = 0;
  // Adds the weighted visibilities of `subgrids` onto grid [pol][g][g] (cells of
  // geometry.grid_size); the grid is on the host.
  virtual void grid(const GridGeometry& geometry, const Taper& taper,
                    std::span<const Subgrid> subgrids, const VisBuffer<T>& vis,
                    Complex<T>* grid) = 0;
  // Sets vis.vis of the visibilities on `subgrids` from grid [pol][g][g] (weights unused).
  virtual void degrid(const GridGeometry& geometry, const Taper& taper,
                      std::span<const Subgrid> subgrids, const Complex<T>* grid,
                      VisBuffer<T>& vis) = 0;
  // The centred grid FFT of `count` planes of the host grid (see centred_fft); the default runs
  // FFTW on the host, the CUDA back end uses cuFFT when the grid fits on the GPU.
  virtual void fft_grid(Complex<T>* grid, int size, int count, bool forward);
  // A-terms for the next calls (nullptr: identity, the default); kept by pointer, not copied.
  // Their subgrid size must be the geometry's, their stations and intervals must cover the
  // subgrids' station1/station2 and aterm_index.
  void set_aterms(const ATerms<T>* aterms) { aterms_ = aterms; }
  const ATerms<T>* aterms() const { return aterms_; }

  // Streaming (idg_layers.cpp, docs/imager_streaming.md): the grids of the w layers
  // [first_layer, first_layer + num_layers) are held by the back end across calls, so that the
  // visibilities can come one slice at a time. begin_layers allocates them (zeroed);
  // grid_layers adds the slice's subgrids of the held layers (the others are skipped);
  // finish_layers transforms each held layer, applies its w-layer phase and the taper
  // correction, crops, adds the result to image [pol][n][n] in ascending layer order, and
  // frees the grids. The defaults keep the grids on the host and call grid() and fft_grid();
  // the CUDA back end keeps them on the GPU when they fit there.
  virtual void begin_layers(const GridGeometry& g, int npol, int first_layer, int num_layers);
  virtual void grid_layers(const GridGeometry& g, const Taper& taper, const Plan& plan,
                           const VisBuffer<T>& vis);
  virtual void finish_layers(const GridGeometry& g, const Taper& taper, Complex<double>* image);
  // Where begin_layers put the grids (for the log): "host" or "GPU".
  virtual std::string layers_location() const { return "host"; }

 protected:
  // The held layers of the defaults.
  int first_layer_ = 0, num_layers_ = 0, layer_pols_ = 1;
  std::vector<char> layer_used_;         // [layer]: some subgrid was added
  std::vector<Complex<T>> host_layers_;  // [layer][pol][g][g]
  // The subgrids of plan on the held layers (plan.subgrids is sorted by layer), marking
  // their layers used.
  std::span<const Subgrid> held_subgrids(const Plan& plan);

 private:
  const ATerms<T>* aterms_ = nullptr;
};

// Bytes of the grids of num_layers w layers (npol values of g.grid_size^2 each).
template <typename T>
double layer_stack_bytes(const GridGeometry& g, int npol, int num_layers) {
  return double(num_layers) * npol * g.grid_size * double(g.grid_size) * sizeof(Complex<T>);
}

// The taper correction of IDG images, Ns t(x) at each padded-image pixel x (per axis).
std::vector<double> taper_correction(const GridGeometry& g, const Taper& taper);

// Adds the transformed grid [pol][gs][gs] of layer `layer` to image [pol][n][n]: the centre
// n x n crop, times exp(-2 pi i w0 (n - 1)) (w0 = layer * g.w_step) over the correction corr
// (taper_correction) per axis.
template <typename T>
void add_layer_to_image(const GridGeometry& g, const std::vector<double>& corr, int layer, int npol,
                        const Complex<T>* grid, Complex<double>* image);

template <typename T>
std::unique_ptr<IdgBackend<T>> make_cpu_backend(int num_threads = 0);

// Centred 2-D FFT of `count` planes of size x size in place: forward (sign -1) maps a grid
// to an image, backward (+1) an image to a grid, with the (-1)^(x+y) centring; FFTW with
// num_threads OpenMP threads (0: all).
template <typename T>
void centred_fft(Complex<T>* data, int size, int count, bool forward, int num_threads);

template <typename T>
void IdgBackend<T>::fft_grid(Complex<T>* grid, int size, int count, bool forward) {
  centred_fft<T>(grid, size, count, forward, 0);
}

// Dirty images [pol][n][n] (n = geometry.image_size) of the weighted visibilities on the
// plan's subgrids, taper-corrected: sum_k weight_k V_k exp(-2 pi i phase_k(l, m)).
template <typename T>
std::vector<Complex<double>> idg_image(const GridGeometry& geometry, const Taper& taper,
                                       const Plan& plan, const VisBuffer<T>& vis,
                                       IdgBackend<T>& backend);

// Predicts vis.vis of every visibility on the plan's subgrids (the others are set to 0)
// from model images [pol][n][n]
// (Jy per pixel): V_k = sum_pixels M exp(+2 pi i phase_k(l, m)). It is the adjoint of
// idg_image with unit weights.
template <typename T>
void idg_predict(const GridGeometry& geometry, const Taper& taper, const Plan& plan,
                 std::span<const Complex<double>> model, VisBuffer<T>& vis, IdgBackend<T>& backend);

}  // namespace fringe::imager
