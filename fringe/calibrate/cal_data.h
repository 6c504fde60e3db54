// Calibration of one solution cell (a solution interval x a channel group): its visibilities,
// the station flags, the normal equations of the scalar and diagonal cases (stefcal.h), the
// full-Jones StEFCal, the reference phase, residuals and the inverse application of the
// gains (CORRECTED_DATA). Conventions: R_pq = G_p M_pq G_q^H (docs/calibration.md), rows with
// station1 = p != station2 = q in any order, pols XX, XY, YX, YY (or one value).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fringe/calibrate/stefcal.h"
#include "fringe/core/complex.h"
#include "fringe/core/jones.h"

namespace fringe::calibrate {

// The samples of one cell: every (time, channel, baseline) of the cell is a row.
template <typename T>
struct CalCell {
  int num_stations = 0;
  int num_pols = 4;               // 4 (XX, XY, YX, YY) or 1
  std::vector<int> station1;      // [row]
  std::vector<int> station2;      // [row], != station1
  std::vector<Complex<T>> data;   // R [row][pol]
  std::vector<Complex<T>> model;  // M [row][pol]
  std::vector<T> weight;          // [row][pol], 0 = flagged
  std::size_t num_rows() const { return station1.size(); }
  // Throws fringe::Error if the arrays do not match num_rows() x num_pols or a station index
  // is out of range or an autocorrelation is present.
  void validate() const;
};

struct CalOptions {
  GainType type = GainType::Diagonal;
  SolverOptions solver;
  int reference_station = 0;  // its phase is set to 0 (per polarisation for diagonal gains)
  int min_baselines = 4;      // stations with fewer unflagged baselines are flagged
};

template <typename T>
struct CellSolution {
  std::vector<Jones<T>> gains;        // per station: scalar g I, diag(gX, gY), or full 2x2
  std::vector<std::uint8_t> flagged;  // per station, 1 = not solved (gain set to 0)
  SolveStatus status;
  double rms_before = 0;  // weighted RMS of R - M over the unflagged samples
  double rms_after = 0;   // weighted RMS of R - G_p M G_q^H
};

// Stations with fewer than min_baselines distinct partners having weight > 0 and a non-zero
// model, found repeatedly (flagging one station can drop another below the limit).
template <typename T>
std::vector<std::uint8_t> flag_stations(const CalCell<T>& cell, int min_baselines);

// Receptors of the scalar problem: N (Scalar) or 2N (Diagonal, receptor 2p + x for x = X, Y).
int num_receptors(GainType type, int num_stations);

// A, B (stefcal.h) of the cell, n x n each (n = num_receptors); flagged stations contribute
// nothing. Scalar uses every pol present. Diagonal (4 pols needed) uses XX for the X
// receptors and YY for the Y receptors only, so X and Y are two independent scalar problems
// (as DP3's diagonal mode): the cross hands would tie the X-Y phase, but they are usually
// weak (an unpolarised sky) and then make a mode that converges extremely slowly.
template <typename T>
void build_normal_equations(const CalCell<T>& cell, GainType type,
                            const std::vector<std::uint8_t>& station_flags,
                            std::vector<Complex<T>>& a, std::vector<T>& b);
// The same into caller-owned arrays of n * n values each (overwritten; no allocation).
template <typename T>
void build_normal_equations(const CalCell<T>& cell, GainType type,
                            const std::vector<std::uint8_t>& station_flags, Complex<T>* a, T* b);

// Full-Jones normal equations (stefcal_math.h): A, B of the cell, 16 complex values per
// (p, q) each, stored [p][term][q] (n = num_stations; n * 16 * n each), for the batched GPU
// solver. Rows are used and weighted as in solve_full_jones; flagged stations contribute
// nothing (their rows of A and B are 0, so their gains come out 0).
template <typename T>
void build_full_jones_normal_equations(const CalCell<T>& cell,
                                       const std::vector<std::uint8_t>& station_flags,
                                       std::vector<Complex<T>>& a, std::vector<Complex<T>>& b);

// Full-Jones StEFCal (Salvini & Wijnholds 2014 section 5; per station the 2x2 least-squares
// update G_p = (sum_q R_pq G_q M_pq^H)(sum_q M_pq G_q^H G_q M_pq^H)^-1 summed over the cell,
// with the averaging and convergence test of stefcal.h on Frobenius norms). A row is used
// only if all four pols have weight > 0; its weight is the mean of the four. gains in/out.
template <typename T>
SolveStatus solve_full_jones(const CalCell<T>& cell, const std::vector<std::uint8_t>& station_flags,
                             std::vector<Jones<T>>& gains, const SolverOptions& options);

// Receptor gains (n = num_receptors) -> Jones per station, reference phase fixed (for
// Diagonal gains g_ref,X and g_ref,Y are each made real: solved from XX and YY alone, the X-Y
// phase difference is not determined), flagged stations 0.
template <typename T>
std::vector<Jones<T>> receptor_gains_to_jones(GainType type, int num_stations,
                                              std::vector<Complex<T>> g, int reference_station,
                                              const std::vector<std::uint8_t>& station_flags);

// Full-Jones reference: every G multiplied by the phase factor that makes G_ref.a real >= 0.
template <typename T>
void fix_reference_phase_jones(std::vector<Jones<T>>& gains, int reference_station);

// Weighted RMS of R - G_p M G_q^H (identity gains if gains is empty) over rows whose
// stations are unflagged, over the products the gains are solved from (Diagonal: XX, YY;
// otherwise all).
template <typename T>
double residual_rms(const CalCell<T>& cell, const std::vector<Jones<T>>& gains,
                    const std::vector<std::uint8_t>& station_flags, GainType type);

// G^-1 of one station's 2x2 gain into inverse; false (inverse untouched) if G is singular.
template <typename T>
bool invert_gain(const Jones<T>& g, Jones<T>& inverse);

// C_pq = G_p^-1 R_pq G_q^-H for one row of 4 pols from the stations' inverses (invert_gain):
// the same values as apply_inverse_row, with each inverse computed once per station.
template <typename T>
void apply_inverses_row(const Jones<T>& inv_p, const Jones<T>& inv_q, const Complex<T>* r,
                        Complex<T>* c);

// C_pq = G_p^-1 R_pq G_q^-H for one row (4 pols, or 1 pol with scalar gains a). Returns false
// (and leaves c untouched) if either gain is singular.
template <typename T>
bool apply_inverse_row(const Jones<T>& gp, const Jones<T>& gq, const Complex<T>* r, Complex<T>* c,
                       int num_pols);

// The whole cell on the CPU: flags, normal equations, solve, reference phase, residuals.
template <typename T>
CellSolution<T> solve_cell_cpu(const CalCell<T>& cell, const CalOptions& options);

}  // namespace fringe::calibrate
