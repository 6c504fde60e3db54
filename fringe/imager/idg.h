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

 private:
  const ATerms<T>* aterms_ = nullptr;
};

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
