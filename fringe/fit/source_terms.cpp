// Host helpers of the likelihood: parameter names, checks of the data and parameters, the
// per-source terms of one evaluation and the chain rule of the gradient (likelihood.h).
#include <cmath>
#include <string>

#include "fringe/core/constants.h"
#include "fringe/core/error.h"
#include "fringe/fit/likelihood.h"
#include "fringe/sky/gaussian.h"

namespace fringe::fit {
namespace {

constexpr const char* kNames[kNumParams] = {"I",  "Q",   "U",     "V",     "spectral_index",
                                            "ra", "dec", "major", "minor", "pa"};

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

void check_size(std::size_t got, std::size_t want, const std::string& what) {
  if (got != want) {
    throw Error(what + " has " + std::to_string(got) + " values: expected " + std::to_string(want));
  }
}

// pi^2 / (4 ln 2): sigma'^2 of the visibility taper per FWHM^2 (sky/gaussian.h).
constexpr double kGaussK = 3.559707331246876;

}  // namespace

const char* param_name(Param p) { return kNames[static_cast<int>(p)]; }

Param param_from_name(const char* name) {
  const std::string n(name);
  for (int p = 0; p < kNumParams; ++p) {
    if (n == kNames[p]) return static_cast<Param>(p);
  }
  std::string all;
  for (int p = 0; p < kNumParams; ++p) all += std::string(p ? ", " : "") + kNames[p];
  throw Error("unknown source parameter '" + n + "': expected one of " + all);
}

void SourceParameters::resize(std::size_t num_sources) {
  for (auto& v : values) v.resize(num_sources, 0.0);
  ref_freq_hz.resize(num_sources, 0.0);
}

void ObservedData::validate() const {
  if (num_pols != 1 && num_pols != 4) {
    throw Error("the number of products per visibility = " + std::to_string(num_pols) +
                ": expected 1 or 4");
  }
  if (num_rows == 0 || num_channels == 0) {
    throw Error("the observed data hold no cross-correlations (" + std::to_string(num_rows) +
                " rows, " + std::to_string(num_channels) + " channels)");
  }
  check_size(antenna1.size(), num_rows, "ANTENNA1");
  check_size(antenna2.size(), num_rows, "ANTENNA2");
  check_size(time_index.size(), num_rows, "the time index");
  check_size(uvw.size(), 3 * num_rows, "UVW");
  check_size(frequency_hz.size(), num_channels, "the channel frequencies");
  check_size(data.size(), num_values(), "DATA");
  check_size(weight.size(), num_values(), "WEIGHT");
  for (std::size_t r = 0; r < num_rows; ++r) {
    const int p = antenna1[r], q = antenna2[r];
    if (p < 0 || q < 0 || std::size_t(p) >= num_stations || std::size_t(q) >= num_stations ||
        p == q || time_index[r] < 0) {
      throw Error("row " + std::to_string(r) + ": ANTENNA1 = " + std::to_string(p) +
                  ", ANTENNA2 = " + std::to_string(q) + ", time index " +
                  std::to_string(time_index[r]) + ": expected two different stations below " +
                  std::to_string(num_stations) + " and a time index >= 0");
    }
    for (int k = 0; k < 3; ++k) {
      if (!std::isfinite(uvw[3 * r + k])) {
        throw Error("UVW of row " + std::to_string(r) + " is " + num(uvw[3 * r + k]) +
                    ": expected finite metres");
      }
    }
  }
  if (!(channel_bandwidth_hz >= 0.0) || !std::isfinite(channel_bandwidth_hz)) {
    throw Error("channel bandwidth " + num(channel_bandwidth_hz) +
                " Hz: expected >= 0 (0 = no bandwidth smearing)");
  }
  if (!time_smearing.empty()) {
    check_size(time_smearing.size(), 3 * num_rows, "the time-smearing coefficients");
    for (double v : time_smearing) {
      if (!std::isfinite(v)) throw Error("a time-smearing coefficient is not finite");
    }
  }
  for (std::size_t c = 0; c < num_channels; ++c) {
    if (!(frequency_hz[c] > 0.0) || !std::isfinite(frequency_hz[c])) {
      throw Error("channel " + std::to_string(c) + " frequency = " + num(frequency_hz[c]) +
                  " Hz: expected a positive frequency");
    }
  }
  for (std::size_t i = 0; i < num_values(); ++i) {
    if (!(weight[i] >= 0.0) || !std::isfinite(weight[i])) {
      throw Error("WEIGHT value " + std::to_string(i) + " = " + num(weight[i]) +
                  ": expected a finite weight >= 0");
    }
    // Flagged values may hold anything; unflagged ones must be numbers.
    if (weight[i] > 0.0 && !(std::isfinite(data[i].re) && std::isfinite(data[i].im))) {
      throw Error("DATA value " + std::to_string(i) + " (row " +
                  std::to_string(i / (num_channels * num_pols)) +
                  ") is not finite and not flagged: expected a finite visibility");
    }
  }
}

void validate_jones(const ObservedData& data, const StationJones& jones) {
  if (jones.empty()) return;
  const std::size_t per = data.num_pols == 4 ? 4 : 1;
  if (jones.num_stations != data.num_stations || jones.num_channels != data.num_channels) {
    throw Error("station Jones for " + std::to_string(jones.num_stations) + " stations and " +
                std::to_string(jones.num_channels) + " channels: expected " +
                std::to_string(data.num_stations) + " stations and " +
                std::to_string(data.num_channels) + " channels");
  }
  for (std::size_t r = 0; r < data.num_rows; ++r) {
    if (std::size_t(data.time_index[r]) >= jones.num_times) {
      throw Error("row " + std::to_string(r) + " has time index " +
                  std::to_string(data.time_index[r]) + " but the station Jones have " +
                  std::to_string(jones.num_times) + " times");
    }
  }
  check_size(jones.values.size(),
             jones.num_times * jones.num_channels * jones.num_stations * jones.num_sources * per,
             "the station Jones array");
}

void validate_parameters(const SourceParameters& params, const StationGains& gains,
                         std::size_t num_stations, std::size_t num_jones_sources) {
  const std::size_t n = params.size();
  if (n == 0) throw Error("the sky has no sources: expected at least one");
  for (int p = 0; p < kNumParams; ++p) {
    check_size(params.values[p].size(), n, std::string("parameter '") + kNames[p] + "'");
    for (std::size_t s = 0; s < n; ++s) {
      const double v = params.values[p][s];
      if (!std::isfinite(v)) {
        throw Error(std::string("parameter '") + kNames[p] + "' of source " + std::to_string(s) +
                    " = " + num(v) + ": expected a finite value");
      }
    }
  }
  for (std::size_t s = 0; s < n; ++s) {
    if (params[Param::Major][s] < 0.0 || params[Param::Minor][s] < 0.0) {
      throw Error("Gaussian axes of source " + std::to_string(s) + " = " +
                  num(params[Param::Major][s]) + ", " + num(params[Param::Minor][s]) +
                  " rad: expected FWHM >= 0");
    }
    if (!(params.ref_freq_hz[s] >= 0.0) || !std::isfinite(params.ref_freq_hz[s])) {
      throw Error("reference frequency of source " + std::to_string(s) + " = " +
                  num(params.ref_freq_hz[s]) + " Hz: expected >= 0 (0 = flat spectrum)");
    }
  }
  if (num_jones_sources != 0 && num_jones_sources != n) {
    throw Error("the station Jones are for " + std::to_string(num_jones_sources) +
                " sources but the parameters describe " + std::to_string(n));
  }
  if (!gains.empty()) {
    check_size(gains.values.size(), 2 * num_stations, "the station gains ([station][X, Y])");
    for (std::size_t i = 0; i < gains.values.size(); ++i) {
      if (!std::isfinite(gains.values[i].re) || !std::isfinite(gains.values[i].im)) {
        throw Error("gain " + std::string(i % 2 ? "Y" : "X") + " of station " +
                    std::to_string(i / 2) + " is not finite: expected a complex number");
      }
    }
  }
}

// l = cos d sin(a - a0), m = sin d cos d0 - cos d sin d0 cos(a - a0),
// n = sin d sin d0 + cos d cos d0 cos(a - a0) (the orthographic projection of the phase
// centre's tangent plane); n - 1 = -(l^2 + m^2) / (1 + n) avoids cancellation near the centre.
std::vector<SourceTerm> derive_terms(const SourceParameters& params, PhaseCentre centre) {
  const std::size_t n = params.size();
  std::vector<SourceTerm> out(n);
  const double sd0 = std::sin(centre.dec), cd0 = std::cos(centre.dec);
  for (std::size_t s = 0; s < n; ++s) {
    SourceTerm& t = out[s];
    const double ra = params[Param::Ra][s], dec = params[Param::Dec][s];
    const double da = ra - centre.ra, sd = std::sin(dec), cd = std::cos(dec);
    t.l = cd * std::sin(da);
    t.m = sd * cd0 - cd * sd0 * std::cos(da);
    const double nn = sd * sd0 + cd * cd0 * std::cos(da);
    t.n_minus_1 = -(t.l * t.l + t.m * t.m) / (1.0 + nn);
    t.l_over_n = t.l / nn;
    t.m_over_n = t.m / nn;
    t.i = params[Param::I][s];
    t.q = params[Param::Q][s];
    t.u = params[Param::U][s];
    t.v = params[Param::V][s];
    const double f0 = params.ref_freq_hz[s];
    t.has_spectrum = f0 > 0.0 ? 1.0 : 0.0;
    t.ln_f0 = f0 > 0.0 ? std::log(f0) : 0.0;
    t.alpha = f0 > 0.0 ? params[Param::SpectralIndex][s] : 0.0;
    sky::gaussian_uv_coefficients(params[Param::Major][s], params[Param::Minor][s],
                                  params[Param::PositionAngle][s], t.a, t.b, t.c);
  }
  return out;
}

std::vector<double> chain_to_parameters(std::span<const double> inter,
                                        const SourceParameters& params, PhaseCentre centre) {
  const std::size_t n = params.size();
  std::vector<double> out(n * kNumParams, 0.0);
  const double sd0 = std::sin(centre.dec), cd0 = std::cos(centre.dec);
  for (std::size_t s = 0; s < n; ++s) {
    const double* g = inter.data() + s * kNumInter;
    double* o = out.data() + s * kNumParams;
    o[int(Param::I)] = g[kI];
    o[int(Param::Q)] = g[kQ];
    o[int(Param::U)] = g[kU];
    o[int(Param::V)] = g[kV];
    o[int(Param::SpectralIndex)] = params.ref_freq_hz[s] > 0.0 ? g[kAlpha] : 0.0;
    // d(l, m) / d(ra, dec) of derive_terms.
    const double da = params[Param::Ra][s] - centre.ra;
    const double sd = std::sin(params[Param::Dec][s]), cd = std::cos(params[Param::Dec][s]);
    const double sa = std::sin(da), ca = std::cos(da);
    const double dl_dra = cd * ca, dl_ddec = -sd * sa;
    const double dm_dra = cd * sd0 * sa, dm_ddec = cd * cd0 + sd * sd0 * ca;
    o[int(Param::Ra)] = g[kL] * dl_dra + g[kM] * dm_dra;
    o[int(Param::Dec)] = g[kL] * dl_ddec + g[kM] * dm_ddec;
    // d(a, b, c) / d(major, minor, pa) of sky::gaussian_uv_coefficients.
    const double maj = params[Param::Major][s], mn = params[Param::Minor][s];
    const double pa = params[Param::PositionAngle][s];
    const double cp = std::cos(pa), sp = std::sin(pa), s2 = std::sin(2 * pa), c2 = std::cos(2 * pa);
    const double dsmaj = 2 * kGaussK * maj, dsmin = 2 * kGaussK * mn;
    const double diff = kGaussK * (maj * maj - mn * mn);  // s_maj - s_min
    o[int(Param::Major)] = dsmaj * (g[kA] * sp * sp + g[kB] * 0.5 * s2 + g[kC] * cp * cp);
    o[int(Param::Minor)] = dsmin * (g[kA] * cp * cp - g[kB] * 0.5 * s2 + g[kC] * sp * sp);
    o[int(Param::PositionAngle)] = diff * (g[kA] * s2 + g[kB] * c2 - g[kC] * s2);
  }
  return out;
}

}  // namespace fringe::fit
