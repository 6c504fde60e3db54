// Synthetic visibilities for the imager tests: random stations, Earth-rotation uv tracks
// (station offsets in the equatorial frame, hour angles about transit), rows sorted by
// baseline then time, point sources with V = sum S exp(+2 pi i (u l + v m + w (n - 1))).
#pragma once

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "fringe/imager/geometry.h"
#include "fringe/imager/idg.h"
#include "fringe/imager/plan.h"
#include "fringe/imager/taper.h"
#include "fringe/imager/vis_buffer.h"

namespace fringe::imager::test {

struct PointSource {
  double l, m, flux;
};

template <typename T>
VisBuffer<T> make_tracks(int num_stations, int num_times, int num_channels, double radius_m,
                         double freq0_hz, double dfreq_hz, int npol = 1, double dec = 0.8,
                         unsigned seed = 1, double hour_span_rad = 0.5) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  std::vector<std::array<double, 3>> st(num_stations);
  for (auto& s : st) {
    do {
      s = {radius_m * uni(rng), radius_m * uni(rng), 0.1 * radius_m * uni(rng)};
    } while (s[0] * s[0] + s[1] * s[1] > radius_m * radius_m);
  }
  const int nbl = num_stations * (num_stations - 1) / 2;
  VisBuffer<T> v;
  v.resize(std::size_t(nbl) * num_times, num_channels, npol);
  for (int c = 0; c < num_channels; ++c) v.freq_hz.push_back(freq0_hz + c * dfreq_hz);
  std::size_t row = 0;
  int b = 0;
  for (int p = 0; p < num_stations; ++p)
    for (int q = p + 1; q < num_stations; ++q, ++b)
      for (int t = 0; t < num_times; ++t, ++row) {
        const double h = hour_span_rad * (double(t) / std::max(1, num_times - 1) - 0.5);
        const double lx = st[p][0] - st[q][0], ly = st[p][1] - st[q][1], lz = st[p][2] - st[q][2];
        const double sh = std::sin(h), ch = std::cos(h), sd = std::sin(dec), cd = std::cos(dec);
        v.uvw_m[row] = {sh * lx + ch * ly, -sd * ch * lx + sd * sh * ly + cd * lz,
                        cd * ch * lx - cd * sh * ly + sd * lz};
        v.time_s[row] = t * 10.0;
        v.baseline[row] = b;
        v.station1[row] = p;
        v.station2[row] = q;
        for (int c = 0; c < num_channels; ++c) v.weight[row * num_channels + c] = 1.0f;
      }
  return v;
}

template <typename T>
void set_point_sources(VisBuffer<T>& v, const std::vector<PointSource>& sources) {
  for (std::size_t r = 0; r < v.num_rows; ++r)
    for (int c = 0; c < v.num_channels; ++c) {
      const double s = v.freq_hz[c] / kSpeedOfLight;
      double re = 0, im = 0;
      for (const auto& src : sources) {
        const double nm1 = std::sqrt(1 - src.l * src.l - src.m * src.m) - 1;
        const double ph = 2 * std::numbers::pi * s *
                          (v.uvw_m[r][0] * src.l + v.uvw_m[r][1] * src.m + v.uvw_m[r][2] * nm1);
        re += src.flux * std::cos(ph);
        im += src.flux * std::sin(ph);
      }
      for (int q = 0; q < v.num_pols; ++q)
        v.vis[(r * v.num_channels + c) * v.num_pols + q] = {T(re * (q + 1)), T(im * (q + 1))};
    }
}

// The image of plan through the back end's w-layer stack (IdgBackend::begin_layers,
// grid_layers, finish_layers: the streamed path's calls), holding every layer of the plan;
// the same as idg_image of the plan.
template <typename T>
std::vector<Complex<double>> layered_image(const GridGeometry& g, const Taper& taper,
                                           const Plan& plan, const VisBuffer<T>& v,
                                           IdgBackend<T>& backend) {
  std::vector<Complex<double>> image(std::size_t(v.num_pols) * g.image_size * g.image_size,
                                     Complex<double>{0.0, 0.0});
  backend.begin_layers(g, v.num_pols, plan.layers.front(),
                       plan.layers.back() - plan.layers.front() + 1);
  backend.grid_layers(g, taper, plan, v);
  backend.finish_layers(g, taper, image.data());
  return image;
}

}  // namespace fringe::imager::test
