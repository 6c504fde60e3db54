// The output products of sim_beam_pattern, their file names and how each value is formed
// (OSKAR 2.13's list and names: oskar_beam_pattern_check_init.c, oskar_beam_pattern_run.c).
//
// Quantities, per pixel, time and channel (J: the station beam E of jones/station_jones.h,
// without the parallactic rotation, as OSKAR's beam patterns):
//   voltage        J itself: RAW_COMPLEX (text), AMP = |J_k|, PHASE = arg J_k [rad], per
//                  matrix element k = X_THETA (row 0, col 0), X_PHI (0, 1), Y_THETA (1, 0),
//                  Y_PHI (1, 1) in Full mode (one file each: rows are the X and Y feeds,
//                  columns the theta and phi components of the sky field), the scalar
//                  response in Scalar mode (no element suffix).
//   auto power     P = J B J^H per station, B = [[I+Q, U+iV], [U-iV, I-Q]] of the test source;
//                  Scalar mode: P = |J|^2.
//   cross power    X = 2/(N(N-1)) sum_{p<q} J_p B J_q^H over the N selected stations (the mean
//                  over station pairs); Scalar: mean of J_p conj(J_q).
// Power images hold a Stokes parameter of the 2x2 power matrix (OSKAR's linear-to-Stokes):
//   I = (P_XX + P_YY)/2, Q = (P_XX - P_YY)/2, U = (P_XY + P_YX)/2, V = -i (P_XY - P_YX)/2,
// complex in general: AUTO_POWER_AMP = |S|, _PHASE = arg S, _REAL, _IMAG (and CROSS_POWER_...);
// Scalar mode has Stokes I = P only. CROSS_POWER_RAW_COMPLEX (text) holds the matrix X itself.
// For an unpolarised unit source and an isotropic station, Stokes I = 1 and Q = U = V = 0.
//
// Averaging: power products exist for each selected averaging (separate times and channels;
// the mean over times and channels; the mean over one axis); voltage products only separate.
// The mean is taken of the complex power matrices, then the Stokes value is formed.
//
// File names: <root>[_S<station, 4 digits>]_TIME_{SEP|AVG}_CHAN_{SEP|AVG}_<QUANTITY>
//   [_{I|CUSTOM}][_{X_THETA|X_PHI|Y_THETA|Y_PHI|I|Q|U|V}].{fits|txt}
// station = the telescope index (station products only); I or CUSTOM = the test source
// (power products only; CUSTOM in Full mode only); the last part is the matrix element
// (voltage, Full mode) or the Stokes parameter (power amp/phase/real/imag).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "fringe/beam_pattern/beam_pattern_config.h"
#include "fringe/core/complex.h"
#include "fringe/core/jones.h"

namespace fringe::beam_pattern {

enum class ProductSource { Voltage, AutoPower, CrossPower };
enum class ProductValue { Complex, Amp, Phase, Real, Imag };
enum class ProductFormat { Text, Fits };

struct BeamProduct {
  ProductSource source = ProductSource::Voltage;
  ProductValue value = ProductValue::Amp;
  ProductFormat format = ProductFormat::Fits;
  int station_slot = -1;       // index into the selected stations; -1: telescope (cross)
  std::size_t station_id = 0;  // telescope index of that station
  bool time_average = false;
  bool channel_average = false;
  int test_source = -1;  // 0: I = 1 unpolarised, 1: CUSTOM; -1 for voltage products
  int component = -1;    // voltage: matrix element 0..3 (X_THETA X_PHI Y_THETA Y_PHI),
                         // -1 scalar or all;
                         // power: Stokes 0..3 (I Q U V), -1 for the raw matrix
  std::string path;      // final file name

  // Values per pixel: raw complex: 2 per complex number (re, im) x 4 (Full) or x 1; else 1.
  int num_values(bool full) const;
  // "AUTO_POWER_AMP", "RAW_COMPLEX", ...
  std::string quantity_name() const;
  // "X_THETA".."Y_PHI", "I".."V", or "" (no suffix).
  std::string component_name() const;
};

// Every product the config asks for, for the given telescope indices of the selected
// stations, in OSKAR's order: separate voltage products per station; then for each averaging
// (separate, time and channel, single axis) the auto-power products per station and the
// cross-power products.
std::vector<BeamProduct> plan_products(const BeamPatternConfig& config,
                                       std::span<const std::size_t> station_ids);

// The file name of a product (see above).
std::string product_path(const std::string& root, const BeamProduct& product);

// B = [[I+Q, U+iV], [U-iV, I-Q]] of test source 0 (I = 1) or 1 (custom).
Jones<double> test_source_brightness(const TestSourceConfig& t, int test_source);

// Stokes parameter s (0..3 = I, Q, U, V) of a power matrix; Scalar: P.a is the power, only I.
Complex<double> power_stokes(const Jones<double>& p, int stokes, bool full);

// Element k (0..3 = a, b, c, d) of a matrix.
inline Complex<double> jones_element(const Jones<double>& j, int k) {
  return k == 0 ? j.a : k == 1 ? j.b : k == 2 ? j.c : j.d;
}

// amp, phase, real or imag of a complex number (ProductValue other than Complex).
double complex_value(Complex<double> z, ProductValue value);

}  // namespace fringe::beam_pattern
