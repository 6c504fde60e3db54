// The inputs of a likelihood evaluation (docs/model_fitting.md): observed cross-correlations
// loaded once, optional station Jones matrices loaded once, and the parameters that change
// from one evaluation to the next (source parameters and direction-independent station gains).
// Units: metres, Hz, radians, Jy. Conventions as the simulator's (docs/conventions.md): row
// (p, q) = (ANTENNA1, ANTENNA2), UVW = uvw_p - uvw_q, V = sum_s J_p B_s J_q^H g_s K_s with
// K_s = exp(+2 pi i (U l + V m + W (n - 1)) / lambda).
#pragma once

#include <cstddef>
#include <vector>

#include "fringe/core/complex.h"

namespace fringe::fit {

// Observed cross-correlations (auto-correlation rows are not kept). Flags are folded into the
// weights (weight 0 = flagged), so chi2 = sum weight |model - data|^2 honours them.
struct ObservedData {
  std::size_t num_rows = 0, num_channels = 0, num_stations = 0;
  int num_pols = 4;                     // 4 (XX, XY, YX, YY) or 1 (one product, Stokes I model)
  std::vector<int> antenna1, antenna2;  // [row], 0 <= index < num_stations, antenna1 != antenna2
  std::vector<int> time_index;          // [row], index into StationJones' time axis (0 if none)
  std::vector<double> uvw;              // [row][3], metres
  std::vector<double> frequency_hz;     // [channel], > 0
  std::vector<Complex<double>> data;    // [row][channel][pol], Jy
  std::vector<double> weight;           // [row][channel][pol], >= 0, 0 where flagged
  double channel_bandwidth_hz = 0.0;    // bandwidth smearing of the model (0: off), Hz
  // Time smearing of the model (empty: off): [row][3] = (du, dv, dw) of
  // predict::time_smearing_coefficients for the row's baseline at 1 / lambda = 1 / m, so that
  // s_t = sinc((du l + dv m + dw (n - 1)) f / c) (time_smearing_for_rows, fit_ms.h).
  std::vector<double> time_smearing;

  std::size_t num_values() const { return num_rows * num_channels * std::size_t(num_pols); }
  // Throws fringe::Error naming the field (sizes, antenna indices, non-finite values,
  // negative weights, non-positive frequencies).
  void validate() const;
};

// Station Jones matrices per source (the beam E R, or any direction-dependent term), fixed
// for the life of a likelihood: [time][channel][station][source], each 2x2 row-major (4
// values) when num_pols is 4, one value when 1. Empty = identity.
struct StationJones {
  std::size_t num_times = 0, num_channels = 0, num_stations = 0, num_sources = 0;
  std::vector<Complex<double>> values;
  bool empty() const { return values.empty(); }
};

// The parameters of each source, structure of arrays (one value per source).
enum class Param : int {
  I = 0,          // Stokes I at ref_freq, Jy
  Q,              // Jy
  U,              // Jy
  V,              // Jy
  SpectralIndex,  // alpha of S(f) = S(f0) (f / f0)^alpha, for all four Stokes
  Ra,             // rad
  Dec,            // rad
  Major,          // Gaussian FWHM major axis, rad (in the (l, m) plane; 0 = point source)
  Minor,          // Gaussian FWHM minor axis, rad
  PositionAngle,  // rad, East of North
  Count
};
inline constexpr int kNumParams = static_cast<int>(Param::Count);
// "I", "Q", "U", "V", "spectral_index", "ra", "dec", "major", "minor", "pa".
const char* param_name(Param p);
// The Param of a name above; throws fringe::Error listing the names for an unknown one.
Param param_from_name(const char* name);

struct SourceParameters {
  // values[p][s]: parameter p (Param order) of source s.
  std::vector<double> values[kNumParams];
  std::vector<double> ref_freq_hz;  // fixed; 0 = flat spectrum (spectral index unused)

  std::size_t size() const { return ref_freq_hz.size(); }
  std::vector<double>& operator[](Param p) { return values[static_cast<int>(p)]; }
  const std::vector<double>& operator[](Param p) const { return values[static_cast<int>(p)]; }
  void resize(std::size_t num_sources);
};

// Direction-independent station gains G_p = diag(g_pX, g_pY): [station][2] (X then Y); with one
// product only g_pX is used. Empty = unit gains.
struct StationGains {
  std::vector<Complex<double>> values;
  bool empty() const { return values.empty(); }
};

// d chi2 / d parameter.
struct Gradient {
  std::vector<double> source;  // [source][kNumParams]
  std::vector<double> gains;   // [station][4]: d/d Re g_X, Im g_X, Re g_Y, Im g_Y
};

}  // namespace fringe::fit
