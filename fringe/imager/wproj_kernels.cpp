// W-projection kernels with OSKAR 2.13's parameters and steps (its imager's
// private_imager_init_wproj.c, private_imager_generate_w_phase_screen.c; the method is CASA's
// WPConvFunc, Cornwell, Golap & Bhatnagar 2008, IEEE JSTSP 2, 647). docs/imager.md
// "W-projection" describes each step.
#include "fringe/imager/wproj_kernels.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "fringe/core/constants.h"
#include "fringe/imager/conv_kernels.h"
#include "fringe/imager/fft_cpu.h"

namespace fringe::imager {

void rms_of_w_stats(WStats& s) {
  if (s.count > 0) s.rms = std::sqrt(s.sum_sq / double(s.count));
}

void add_w_stats(const double* ww, const float* weight, std::size_t n, WStats& s) {
  for (std::size_t k = 0; k < n; ++k)
    if (!weight || weight[k] > 0.0f) add_abs_w(std::fabs(ww[k]), s);
  rms_of_w_stats(s);
}

WStats w_stats(const double* ww, const float* weight, std::size_t n) {
  WStats s;
  add_w_stats(ww, weight, n, s);
  return s;
}

WPlanes wproj_planes(int requested, const WStats& w, double cell_rad, int image_size) {
  // The w range the planes must cover [wavelengths]: 5 % beyond the largest |w|, and more
  // when the |w| distribution is weighted towards its top end (rms above the middle).
  double max_w = 0.25 / std::fabs(cell_rad);
  if (w.max_abs > 0.0) {
    const double mid = 0.5 * (w.min_abs + w.max_abs);
    max_w = 1.05 * w.max_abs;
    if (w.rms > mid) max_w *= w.rms / mid;
  }
  WPlanes p;
  p.num_planes = requested;
  // Automatic: one plane per unit of w x sin(half the field of view) (the w term's phase
  // across the field in turns), at least 16.
  if (p.num_planes < 1)
    p.num_planes = static_cast<int>(max_w * std::fabs(std::sin(cell_rad * image_size / 2.0)));
  if (p.num_planes < 16) p.num_planes = 16;
  p.w_scale = std::pow(double(p.num_planes - 1), 2.0) / max_w;
  return p;
}

int composite_nearest_even(int value) {
  // Even numbers 2^a 3^b 5^c just above and just below value (value itself excluded).
  auto smooth = [](int n) {
    for (int f : {2, 3, 5})
      while (n % f == 0) n /= f;
    return n == 1;
  };
  int up = value + 1, down = value - 1;
  while (up % 2 != 0 || !smooth(up)) ++up;
  while (down > 1 && (down % 2 != 0 || !smooth(down))) --down;
  return std::abs(up - value) < std::abs(down - value) ? up : down;
}

int wproj_conv_size(int image_size, double padding, int num_planes, std::size_t phys_mem_bytes) {
  // At most 64 MB per plane (and all planes within physical memory), each plane a square
  // of complex<double> (16 bytes) values.
  const std::size_t per_plane = 64ull * 1024 * 1024;
  const std::size_t budget = std::min(phys_mem_bytes, per_plane * std::size_t(num_planes));
  const double max_side = std::sqrt(double(budget) / (16.0 * num_planes));
  const int nearest = composite_nearest_even(2 * static_cast<int>(max_side / 2.0));
  return std::min(static_cast<int>(image_size * padding), nearest);
}

namespace {

// Fills screen (side conv_size, zeroed here) with the tapered w phase screen of plane iw:
// taper(l) taper(m) exp(i 2 pi w_p (sqrt(1 - l^2 - m^2) - 1)), w_p = iw^2 / w_scale, on the
// inner x inner samples around the origin (negative offsets wrapped to the far end, so the
// transform needs no shifts), l = sampling x offset.
void phase_screen(int iw, int conv_size, const std::vector<double>& taper, double sampling,
                  double w_scale, std::vector<Complex<double>>& screen) {
  std::fill(screen.begin(), screen.end(), Complex<double>{0.0, 0.0});
  const int half = static_cast<int>(taper.size()) / 2;
  const double f = kTwoPi * double(iw) * double(iw) / w_scale;
  for (int iy = -half; iy < half; ++iy) {
    const double m = sampling * iy;
    const std::size_t row = std::size_t(iy >= 0 ? iy : iy + conv_size) * conv_size;
    for (int ix = -half; ix < half; ++ix) {
      const double l = sampling * ix;
      const double rsq = 1.0 - (l * l + m * m);
      if (!(rsq > 0.0)) continue;
      const double phase = f * (std::sqrt(rsq) - 1.0);
      const double t = taper[ix + half] * taper[iy + half];
      screen[row + (ix >= 0 ? ix : ix + conv_size)] = {t * std::cos(phase), t * std::sin(phase)};
    }
  }
}

// Half-width [cells] of the kernel of one plane (quadrant q, side h): from the largest offset
// j (in samples) along the u or v axis where |kernel| > threshold; capped so that the kernel
// fits in the phase screen. 0 when nothing exceeds the threshold.
int plane_support(const Complex<double>* q, int h, double threshold, int oversample,
                  int conv_size) {
  for (int j = h - 1; j > 0; --j) {
    const Complex<double> a = q[std::size_t(j) * h], b = q[j];
    if (std::hypot(a.re, a.im) > threshold || std::hypot(b.re, b.im) > threshold) {
      // Samples -> cells, rounded half up (j >= 0).
      int s = 1 + static_cast<int>(std::lround(double(j) / oversample));
      if (s * oversample * 2 >= conv_size) s = conv_size / 2 / oversample - 1;
      return s;
    }
  }
  return 0;
}

}  // namespace

WKernels make_w_kernels(const WPlanes& planes, int oversample, int image_size, int grid_size,
                        int conv_size, double cell_rad, int num_threads) {
  const int nw = planes.num_planes;
  const int h = conv_size / 2 - 1;  // side of the quadrant kept of each transformed screen
  const std::size_t qsize = std::size_t(h) * h;

  // Taper: OSKAR's spheroidal over the `inner` screen samples (the padded image's width).
  const int inner = conv_size / oversample;
  std::vector<double> taper(inner);
  const int inner_half = inner / 2;  // the screen's centre sample (integer, as OSKAR)
  for (int i = 0; i < inner; ++i)
    taper[i] = schwab_spheroidal(std::fabs(double(i - inner_half) / double(inner_half)));
  // Screen sample spacing in l: the image's half width sin(fov / 2) (fov = 2 asin(n/2 sin
  // cell), OSKAR's cell -> fov conversion), times oversample / image size, stretched from the
  // grid to the screen size.
  const double fov = 2.0 * std::asin(0.5 * image_size * std::sin(cell_rad));
  const double l_max = std::sin(0.5 * fov);
  const double sampling =
      (2.0 * l_max * oversample) / image_size * (double(grid_size) / double(conv_size));

  // Transform every plane's screen; keep the quadrant of non-negative offsets. The 2-D FFT
  // is done as 1-D FFTs along x of the rows that hold the screen (the others are zero and stay
  // so), then along y of the h columns kept: the same transform in about a third of the work.
  std::vector<Complex<double>> cube(qsize * nw);
  std::vector<double> peak(nw, 0.0);
  const int half = inner / 2;  // screen rows 0 .. half - 1 and conv_size - half .. conv_size - 1
  const FftMany<double> fft_rows(conv_size, half, 1, conv_size, -1);
  const FftMany<double> fft_cols(conv_size, h, conv_size, 1, -1);
  const int threads = num_threads > 0 ? num_threads : omp_get_max_threads();
#pragma omp parallel num_threads(std::min(threads, nw))
  {
    std::vector<Complex<double>> screen(std::size_t(conv_size) * conv_size);
#pragma omp for schedule(dynamic)
    for (int iw = 0; iw < nw; ++iw) {
      phase_screen(iw, conv_size, taper, sampling, planes.w_scale, screen);
      if (half > 0) {
        fft_rows.execute(screen.data());
        fft_rows.execute(screen.data() + std::size_t(conv_size - half) * conv_size);
      }
      if (h > 0) fft_cols.execute(screen.data());
      peak[iw] = std::hypot(screen[0].re, screen[0].im);
      for (int y = 0; y < h; ++y)
        std::copy_n(screen.begin() + std::size_t(y) * conv_size, h,
                    cube.begin() + qsize * iw + std::size_t(y) * h);
    }
  }

  WKernels k;
  k.num_planes = nw;
  k.oversample = oversample;
  k.w_scale = planes.w_scale;
  k.conv_size = conv_size;
  k.support.resize(nw);
  // Support: where |kernel| exceeds 1e-3 of the largest peak of all planes.
  const double threshold = 1e-3 * *std::max_element(peak.begin(), peak.end());
  for (int iw = 0; iw < nw; ++iw)
    k.support[iw] = plane_support(&cube[qsize * iw], h, threshold, oversample, conv_size);

  // Normalisation: plane 0 sums to 1 over whole-cell offsets within its support (real part).
  double sum = 0.0;
  const int s0 = k.support[0];
  for (int iy = -s0; iy <= s0; ++iy)
    for (int ix = -s0; ix <= s0; ++ix)
      sum += cube[std::size_t(std::abs(iy) * oversample) * h + std::abs(ix) * oversample].re;
  const double scale = 1.0 / sum;

  // Trim each plane to the samples the gridder reads. A support near the screen edge can
  // reach one or two samples past the quadrant's row; OSKAR then reads on into the next row
  // (and past the last plane's end: there, zero), reproduced here by indexing the cube flat.
  k.start.resize(nw);
  std::size_t total = 0;
  for (int iw = 0; iw < nw; ++iw) {
    k.start[iw] = total;
    total += std::size_t(k.extent(iw)) * k.extent(iw);
  }
  k.values.resize(total);
  for (int iw = 0; iw < nw; ++iw) {
    const int e = k.extent(iw);
    for (int y = 0; y < e; ++y)
      for (int x = 0; x < e; ++x) {
        const std::size_t flat = qsize * iw + std::size_t(y) * h + x;
        const Complex<double> v = flat < cube.size() ? cube[flat] : Complex<double>{0.0, 0.0};
        k.values[k.start[iw] + std::size_t(y) * e + x] = {v.re * scale, v.im * scale};
      }
  }
  return k;
}

}  // namespace fringe::imager
