// Solution cells: flags, normal equations, full-Jones StEFCal, residuals, inverse gains
// (cal_data.h).
#include "fringe/calibrate/cal_data.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "fringe/calibrate/stefcal_iterate.h"
#include "fringe/calibrate/stefcal_math.h"
#include "fringe/core/error.h"

namespace fringe::calibrate {

template <typename T>
void CalCell<T>::validate() const {
  const std::size_t rows = num_rows();
  if (num_pols != 1 && num_pols != 4) {
    throw Error("calibration cell: " + std::to_string(num_pols) +
                " polarisations (expected 1 or 4)");
  }
  const std::size_t values = rows * std::size_t(num_pols);
  if (station2.size() != rows || data.size() != values || model.size() != values ||
      weight.size() != values) {
    throw Error("calibration cell: mismatched shapes (rows " + std::to_string(rows) +
                ", station2 " + std::to_string(station2.size()) + ", data " +
                std::to_string(data.size()) + ", model " + std::to_string(model.size()) +
                ", weight " + std::to_string(weight.size()) + "; expected rows x " +
                std::to_string(num_pols) + " values)");
  }
  for (std::size_t r = 0; r < rows; ++r) {
    const int p = station1[r], q = station2[r];
    if (p < 0 || q < 0 || p >= num_stations || q >= num_stations || p == q) {
      throw Error("calibration cell: row " + std::to_string(r) + " has stations (" +
                  std::to_string(p) + ", " + std::to_string(q) + "); expected two different " +
                  "stations below " + std::to_string(num_stations));
    }
  }
}

int num_receptors(GainType type, int num_stations) {
  return type == GainType::Diagonal ? 2 * num_stations : num_stations;
}

template <typename T>
std::vector<std::uint8_t> flag_stations(const CalCell<T>& cell, int min_baselines) {
  const int n = cell.num_stations;
  std::vector<std::uint8_t> linked(std::size_t(n) * n, 0);
  for (std::size_t r = 0; r < cell.num_rows(); ++r) {
    bool good = false;
    for (int k = 0; k < cell.num_pols; ++k) {
      const std::size_t i = r * cell.num_pols + k;
      good = good || (cell.weight[i] > T(0) && abs2(cell.model[i]) > T(0));
    }
    if (good) {
      linked[std::size_t(cell.station1[r]) * n + cell.station2[r]] = 1;
      linked[std::size_t(cell.station2[r]) * n + cell.station1[r]] = 1;
    }
  }
  std::vector<std::uint8_t> flags(std::size_t(n), 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (int p = 0; p < n; ++p) {
      if (flags[p]) continue;
      int count = 0;
      for (int q = 0; q < n; ++q) count += (linked[std::size_t(p) * n + q] && !flags[q]) ? 1 : 0;
      if (count < min_baselines) {
        flags[p] = 1;
        changed = true;
      }
    }
  }
  return flags;
}

template <typename T>
void build_normal_equations(const CalCell<T>& cell, GainType type,
                            const std::vector<std::uint8_t>& station_flags,
                            std::vector<Complex<T>>& a, std::vector<T>& b) {
  if (type == GainType::FullJones) throw Error("build_normal_equations: full-Jones has none");
  const int n = num_receptors(type, cell.num_stations);
  a.resize(std::size_t(n) * n);
  b.resize(std::size_t(n) * n);
  build_normal_equations(cell, type, station_flags, a.data(), b.data());
}

template <typename T>
void build_normal_equations(const CalCell<T>& cell, GainType type,
                            const std::vector<std::uint8_t>& station_flags, Complex<T>* a, T* b) {
  if (type == GainType::FullJones) throw Error("build_normal_equations: full-Jones has none");
  if (type == GainType::Diagonal && cell.num_pols != 4) {
    throw Error("diagonal gains need 4 polarisations (XX, XY, YX, YY); the data have " +
                std::to_string(cell.num_pols));
  }
  const int n = num_receptors(type, cell.num_stations);
  std::fill(a, a + std::size_t(n) * n, Complex<T>{T(0), T(0)});
  std::fill(b, b + std::size_t(n) * n, T(0));
  for (std::size_t r = 0; r < cell.num_rows(); ++r) {
    const int p = cell.station1[r], q = cell.station2[r];
    if (station_flags[p] || station_flags[q]) continue;
    for (int k = 0; k < cell.num_pols; ++k) {
      if (type == GainType::Diagonal && (k == 1 || k == 2)) continue;  // XX and YY only
      const std::size_t i = r * cell.num_pols + k;
      const T w = cell.weight[i];
      if (!(w > T(0))) continue;
      // Receptors: pol k = 2x + y pairs receptor x of p with receptor y of q.
      int rp = p, rq = q;
      if (type == GainType::Diagonal) {
        rp = 2 * p + k / 2;
        rq = 2 * q + k % 2;
      }
      const Complex<T> rm = cell.data[i] * conj(cell.model[i]) * w;  // w R conj(M)
      const T mm = abs2(cell.model[i]) * w;
      a[std::size_t(rp) * n + rq] += rm;
      a[std::size_t(rq) * n + rp] += conj(rm);  // R_qp = conj(R_pq), M likewise
      b[std::size_t(rp) * n + rq] += mm;
      b[std::size_t(rq) * n + rp] += mm;
    }
  }
}

namespace {

// Row of the cell as a 2x2 matrix (pols XX, XY, YX, YY = a, b, c, d).
template <typename T>
Jones<T> row_jones(const std::vector<Complex<T>>& v, std::size_t r) {
  const Complex<T>* x = v.data() + 4 * r;
  return {x[0], x[1], x[2], x[3]};
}

template <typename T>
T full_row_weight(const CalCell<T>& cell, std::size_t r) {
  T sum = 0;
  for (int k = 0; k < 4; ++k) {
    const T w = cell.weight[4 * r + k];
    if (!(w > T(0))) return T(0);
    sum += w;
  }
  return sum / T(4);
}

}  // namespace

template <typename T>
void build_full_jones_normal_equations(const CalCell<T>& cell,
                                       const std::vector<std::uint8_t>& station_flags,
                                       std::vector<Complex<T>>& a, std::vector<Complex<T>>& b) {
  if (cell.num_pols != 4) {
    throw Error("full-Jones gains need 4 polarisations (XX, XY, YX, YY); the data have " +
                std::to_string(cell.num_pols));
  }
  const int n = cell.num_stations;
  const std::size_t size = std::size_t(n) * kFullJonesTerms * std::size_t(n);
  a.assign(size, {T(0), T(0)});
  b.assign(size, {T(0), T(0)});
  Complex<T> ap[kFullJonesTerms], bp[kFullJonesTerms], aq[kFullJonesTerms], bq[kFullJonesTerms];
  for (std::size_t r = 0; r < cell.num_rows(); ++r) {
    const int p = cell.station1[r], q = cell.station2[r];
    if (station_flags[p] || station_flags[q]) continue;
    const T w = full_row_weight(cell, r);
    if (!(w > T(0))) continue;
    for (int e = 0; e < kFullJonesTerms; ++e) ap[e] = bp[e] = aq[e] = bq[e] = {T(0), T(0)};
    full_jones_pair_terms(row_jones(cell.data, r), row_jones(cell.model, r), w, ap, bp, aq, bq);
    // Element e of (p, q) at (p 16 + e) n + q.
    for (int e = 0; e < kFullJonesTerms; ++e) {
      const std::size_t ipq = (std::size_t(p) * kFullJonesTerms + e) * n + q;
      const std::size_t iqp = (std::size_t(q) * kFullJonesTerms + e) * n + p;
      a[ipq] += ap[e];
      b[ipq] += bp[e];
      a[iqp] += aq[e];
      b[iqp] += bq[e];
    }
  }
}

template <typename T>
SolveStatus solve_full_jones(const CalCell<T>& cell, const std::vector<std::uint8_t>& station_flags,
                             std::vector<Jones<T>>& gains, const SolverOptions& options) {
  if (cell.num_pols != 4) {
    throw Error("full-Jones gains need 4 polarisations (XX, XY, YX, YY); the data have " +
                std::to_string(cell.num_pols));
  }
  const int n = cell.num_stations;
  if (int(gains.size()) != n) gains.assign(std::size_t(n), jones_identity<T>());
  std::vector<Jones<T>> g = gains, num(static_cast<std::size_t>(n)),
                        den(static_cast<std::size_t>(n));
  const auto update = [&](const std::vector<Jones<T>>& in, std::vector<Jones<T>>& out) {
    for (int p = 0; p < n; ++p) num[p] = den[p] = jones_zero<T>();
    for (std::size_t r = 0; r < cell.num_rows(); ++r) {
      const int p = cell.station1[r], q = cell.station2[r];
      if (station_flags[p] || station_flags[q]) continue;
      const T w = full_row_weight(cell, r);
      if (!(w > T(0))) continue;
      const Jones<T> rpq = row_jones(cell.data, r), mpq = row_jones(cell.model, r);
      // For p: Z = M_pq G_q^H, num += R Z^H, den += Z Z^H.
      const Jones<T> zp = jones_mul_h(mpq, in[q]);
      num[p] += jones_mul_h(rpq, zp) * w;
      den[p] += jones_mul_h(zp, zp) * w;
      // For q: R_qp = R_pq^H, M_qp = M_pq^H, Z = M_qp G_p^H.
      const Jones<T> zq = jones_mul_h(jones_h(mpq), in[p]);
      num[q] += jones_mul_h(jones_h(rpq), zq) * w;
      den[q] += jones_mul_h(zq, zq) * w;
    }
    // G_p = N_p D_p^-1, 0 if singular (the formula of the GPU kernel, stefcal_math.h).
    for (int p = 0; p < n; ++p) {
      out[p] =
          station_flags[p] ? jones_zero<T>() : full_jones_gain(FullJonesSums<T>{num[p], den[p]});
    }
  };
  const SolveStatus status = stefcal_iterate(g, options, update);
  gains = g;
  return status;
}

template <typename T>
void fix_reference_phase_jones(std::vector<Jones<T>>& gains, int reference_station) {
  const int n = int(gains.size());
  int r =
      (reference_station >= 0 && reference_station < n && abs2(gains[reference_station].a) > T(0))
          ? reference_station
          : -1;
  for (int p = 0; r < 0 && p < n; ++p) {
    if (abs2(gains[p].a) > T(0)) r = p;
  }
  if (r < 0) return;
  const Complex<T> ref = gains[r].a;
  const Complex<T> rot = conj(ref) / abs(ref);
  for (auto& g : gains) g = g * rot;
  gains[r].a.im = T(0);
}

template <typename T>
std::vector<Jones<T>> receptor_gains_to_jones(GainType type, int num_stations,
                                              std::vector<Complex<T>> g, int reference_station,
                                              const std::vector<std::uint8_t>& station_flags) {
  std::vector<Jones<T>> out(std::size_t(num_stations), jones_zero<T>());
  if (type == GainType::Scalar) {
    fix_reference_phase(g.data(), num_stations, reference_station);
    for (int p = 0; p < num_stations; ++p) out[p] = jones_diagonal(g[p], g[p]);
  } else {
    fix_reference_phase(g.data(), num_stations, reference_station, 2);
    fix_reference_phase(g.data() + 1, num_stations, reference_station, 2);
    for (int p = 0; p < num_stations; ++p) out[p] = jones_diagonal(g[2 * p], g[2 * p + 1]);
  }
  for (int p = 0; p < num_stations; ++p) {
    if (station_flags[p]) out[p] = jones_zero<T>();
  }
  return out;
}

template <typename T>
double residual_rms(const CalCell<T>& cell, const std::vector<Jones<T>>& gains,
                    const std::vector<std::uint8_t>& station_flags, GainType type) {
  double sum = 0, wsum = 0;
  for (std::size_t r = 0; r < cell.num_rows(); ++r) {
    const int p = cell.station1[r], q = cell.station2[r];
    if (station_flags[p] || station_flags[q]) continue;
    if (cell.num_pols == 4) {
      Jones<T> m = row_jones(cell.model, r);
      if (!gains.empty()) m = jones_sandwich(gains[p], m, gains[q]);
      const Complex<T> mv[4] = {m.a, m.b, m.c, m.d};
      for (int k = 0; k < 4; ++k) {
        if (type == GainType::Diagonal && (k == 1 || k == 2)) continue;
        const double w = cell.weight[4 * r + k];
        if (!(w > 0)) continue;
        sum += w * double(abs2(cell.data[4 * r + k] - mv[k]));
        wsum += w;
      }
    } else {
      const double w = cell.weight[r];
      if (!(w > 0)) continue;
      Complex<T> m = cell.model[r];
      if (!gains.empty()) m = gains[p].a * m * conj(gains[q].a);
      sum += w * double(abs2(cell.data[r] - m));
      wsum += w;
    }
  }
  return wsum > 0 ? std::sqrt(sum / wsum) : 0.0;
}

template <typename T>
bool apply_inverse_row(const Jones<T>& gp, const Jones<T>& gq, const Complex<T>* r, Complex<T>* c,
                       int num_pols) {
  if (num_pols == 1) {
    const Complex<T> d = gp.a * conj(gq.a);
    if (!(abs2(d) > T(0))) return false;
    c[0] = r[0] / d;
    return true;
  }
  Jones<T> inv_p, inv_q;
  if (!invert_gain(gp, inv_p) || !invert_gain(gq, inv_q)) return false;
  apply_inverses_row(inv_p, inv_q, r, c);
  return true;
}

template <typename T>
bool invert_gain(const Jones<T>& g, Jones<T>& inverse) {
  if (!(abs2(jones_det(g)) > T(0))) return false;
  inverse = jones_inverse(g);
  return true;
}

template <typename T>
void apply_inverses_row(const Jones<T>& inv_p, const Jones<T>& inv_q, const Complex<T>* r,
                        Complex<T>* c) {
  const Jones<T> x = jones_mul_h(inv_p * Jones<T>{r[0], r[1], r[2], r[3]}, inv_q);
  c[0] = x.a;
  c[1] = x.b;
  c[2] = x.c;
  c[3] = x.d;
}

template <typename T>
CellSolution<T> solve_cell_cpu(const CalCell<T>& cell, const CalOptions& options) {
  cell.validate();
  CellSolution<T> sol;
  sol.flagged = flag_stations(cell, options.min_baselines);
  const int n = cell.num_stations;
  if (options.type == GainType::FullJones) {
    std::vector<Jones<T>> g(std::size_t(n), jones_identity<T>());
    sol.status = solve_full_jones(cell, sol.flagged, g, options.solver);
    for (int p = 0; p < n; ++p) {
      if (sol.flagged[p]) g[p] = jones_zero<T>();
    }
    fix_reference_phase_jones(g, options.reference_station);
    sol.gains = std::move(g);
  } else {
    std::vector<Complex<T>> a;
    std::vector<T> b;
    build_normal_equations(cell, options.type, sol.flagged, a, b);
    const int nr = num_receptors(options.type, n);
    std::vector<Complex<T>> g(std::size_t(nr), Complex<T>{T(1), T(0)});
    sol.status = solve_scalar(nr, a.data(), b.data(), g.data(), options.solver);
    sol.gains = receptor_gains_to_jones(options.type, n, std::move(g), options.reference_station,
                                        sol.flagged);
  }
  sol.rms_before = residual_rms(cell, {}, sol.flagged, options.type);
  sol.rms_after = residual_rms(cell, sol.gains, sol.flagged, options.type);
  return sol;
}

#define FRINGE_CAL_DATA_INSTANTIATE(T)                                                             \
  template struct CalCell<T>;                                                                      \
  template std::vector<std::uint8_t> flag_stations(const CalCell<T>&, int);                        \
  template void build_normal_equations(const CalCell<T>&, GainType,                                \
                                       const std::vector<std::uint8_t>&, std::vector<Complex<T>>&, \
                                       std::vector<T>&);                                           \
  template void build_normal_equations(const CalCell<T>&, GainType,                                \
                                       const std::vector<std::uint8_t>&, Complex<T>*, T*);         \
  template void build_full_jones_normal_equations(                                                 \
      const CalCell<T>&, const std::vector<std::uint8_t>&, std::vector<Complex<T>>&,               \
      std::vector<Complex<T>>&);                                                                   \
  template SolveStatus solve_full_jones(const CalCell<T>&, const std::vector<std::uint8_t>&,       \
                                        std::vector<Jones<T>>&, const SolverOptions&);             \
  template void fix_reference_phase_jones(std::vector<Jones<T>>&, int);                            \
  template std::vector<Jones<T>> receptor_gains_to_jones(GainType, int, std::vector<Complex<T>>,   \
                                                         int, const std::vector<std::uint8_t>&);   \
  template double residual_rms(const CalCell<T>&, const std::vector<Jones<T>>&,                    \
                               const std::vector<std::uint8_t>&, GainType);                        \
  template bool apply_inverse_row(const Jones<T>&, const Jones<T>&, const Complex<T>*,             \
                                  Complex<T>*, int);                                               \
  template bool invert_gain(const Jones<T>&, Jones<T>&);                                           \
  template void apply_inverses_row(const Jones<T>&, const Jones<T>&, const Complex<T>*,            \
                                   Complex<T>*);                                                   \
  template CellSolution<T> solve_cell_cpu(const CalCell<T>&, const CalOptions&);

FRINGE_CAL_DATA_INSTANTIATE(float)
FRINGE_CAL_DATA_INSTANTIATE(double)

}  // namespace fringe::calibrate
