#include "fringe/sky/spectrum.h"

#include <string>

#include "fringe/core/error.h"

namespace fringe::sky {

SpectrumView<double> spectrum_view(const SkyModel& sky, std::size_t i) {
  SpectrumView<double> s;
  auto pick = [&](const Ragged& multi, const std::vector<double>& scalar, const double*& ptr,
                  int& n) {
    if (multi.count(i) > 1) {
      ptr = multi.row(i).data();
      n = static_cast<int>(multi.count(i));
    } else {
      ptr = &scalar[i];
      n = 1;
    }
  };
  pick(sky.chan_i, sky.I, s.i, s.num_i);
  pick(sky.chan_q, sky.Q, s.q, s.num_q);
  pick(sky.chan_u, sky.U, s.u, s.num_u);
  pick(sky.chan_v, sky.V, s.v, s.num_v);
  pick(sky.chan_ref_freq, sky.ref_freq, s.ref_freq, s.num_ref_freq);
  s.freq_inc = sky.freq_inc[i];
  s.spix = sky.spectral_index.row(i).data();
  s.num_spix = static_cast<int>(sky.spectral_index.count(i));
  const std::uint32_t f = sky.flags[i];
  s.linear_si = f & kLinearSpectralIndex;
  s.has_curvature = f & kHasCurvature;
  s.curvature = sky.curvature[i];
  s.has_rm = f & kHasRotationMeasure;
  s.rm = sky.rotation_measure[i];
  s.pol_frac = sky.pol_fraction.row(i).data();
  s.num_pol_frac = static_cast<int>(sky.pol_fraction.count(i));
  s.pol_angle = sky.pol_angle.row(i).data();
  s.num_pol_angle = static_cast<int>(sky.pol_angle.count(i));
  s.ref_wavelength = sky.ref_wavelength[i];
  s.line_width = sky.line_width.row(i).data();
  s.num_line_width = static_cast<int>(sky.line_width.count(i));
  return s;
}

void evaluate_stokes(const SkyModel& sky, double freq_hz, std::span<double> I, std::span<double> Q,
                     std::span<double> U, std::span<double> V) {
  const std::size_t n = sky.size();
  if (I.size() != n || Q.size() != n || U.size() != n || V.size() != n)
    throw Error("evaluate_stokes: output arrays must have " + std::to_string(n) + " elements");
  for (std::size_t i = 0; i < n; ++i) {
    double out[4];
    evaluate_stokes(spectrum_view(sky, i), freq_hz, out);
    I[i] = out[0];
    Q[i] = out[1];
    U[i] = out[2];
    V[i] = out[3];
  }
}

StokesColumns evaluate_stokes(const SkyModel& sky, double freq_hz) {
  StokesColumns c;
  c.I.resize(sky.size());
  c.Q.resize(sky.size());
  c.U.resize(sky.size());
  c.V.resize(sky.size());
  evaluate_stokes(sky, freq_hz, c.I, c.Q, c.U, c.V);
  return c;
}

std::vector<std::uint8_t> common_flux_filter_mask(std::span<const double> I,
                                                  const CommonFluxFilterConfig& config) {
  std::vector<std::uint8_t> keep(I.size());
  for (std::size_t i = 0; i < I.size(); ++i)
    keep[i] = (I[i] > config.flux_min && I[i] <= config.flux_max) ? 1 : 0;
  return keep;
}

}  // namespace fringe::sky
