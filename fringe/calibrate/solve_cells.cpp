// The StEFCal solutions of one solution interval's cells (solve_cells.h).
#include "fringe/calibrate/solve_cells.h"

#include <algorithm>
#include <cstddef>
#include <optional>

#include "fringe/calibrate/run_stages.h"
#include "fringe/calibrate/stefcal_math.h"
#include "fringe/core/memory.h"

namespace fringe::calibrate {

namespace {

std::string gpu_name(int gpu) { return "gpu " + std::to_string(gpu); }

#ifdef FRINGE_HAVE_CUDA
// Full-Jones cells on GPU `gpu`: A, B of the cells (stefcal_math.h, 32 n^2 complex values per
// cell) built in parallel, solved in one batch per chunk of cells (a chunk holds at most
// 1 GiB of A and B, at least one cell), then reference phase and residuals as solve_cell_cpu.
template <typename T>
void solve_full_jones_cells_gpu(const std::vector<CalCell<T>>& cells, const CalOptions& options,
                                int gpu, std::vector<CellSolution<T>>& sols, StageTimers& timers) {
  const int num = int(cells.size());
  const int n = cells[0].num_stations;
  for (const CalCell<T>& cell : cells) cell.validate();
  const std::size_t per_cell = std::size_t(n) * kFullJonesTerms * std::size_t(n);
  const std::size_t cell_bytes = 2 * per_cell * sizeof(Complex<T>);
  const int chunk = int(std::max<std::size_t>(1, (std::size_t(1) << 30) / cell_bytes));
  for (int k0 = 0; k0 < num; k0 += chunk) {
    const int m = std::min(chunk, num - k0);
    std::vector<Complex<T>> a(per_cell * m), b(per_cell * m);
    std::optional<ScopedStage> sw(std::in_place, &timers, stage::kNormalEq);
#pragma omp parallel for schedule(dynamic)
    for (int j = 0; j < m; ++j) {
      const int k = k0 + j;
      sols[k].flagged = flag_stations(cells[k], options.min_baselines);
      std::vector<Complex<T>> ak, bk;
      build_full_jones_normal_equations(cells[k], sols[k].flagged, ak, bk);
      std::copy(ak.begin(), ak.end(), a.begin() + per_cell * j);
      std::copy(bk.begin(), bk.end(), b.begin() + per_cell * j);
    }
    std::vector<Jones<T>> g(std::size_t(n) * m, jones_identity<T>());
    std::vector<SolveStatus> status(static_cast<std::size_t>(m));
    sw.emplace(&timers, stage::kSolver);
    solve_full_jones_batch_cuda(gpu, m, n, a.data(), b.data(), g.data(), status.data(),
                                options.solver);
    sw.emplace(&timers, stage::kResidual);
#pragma omp parallel for schedule(dynamic)
    for (int j = 0; j < m; ++j) {
      const int k = k0 + j;
      CellSolution<T>& sol = sols[k];
      sol.status = status[j];
      sol.gains.assign(g.begin() + std::size_t(n) * j, g.begin() + std::size_t(n) * (j + 1));
      for (int p = 0; p < n; ++p) {
        if (sol.flagged[p]) sol.gains[p] = jones_zero<T>();
      }
      fix_reference_phase_jones(sol.gains, options.reference_station);
      sol.rms_before = residual_rms(cells[k], {}, sol.flagged, options.type);
      sol.rms_after = residual_rms(cells[k], sol.gains, sol.flagged, options.type);
    }
  }
}
#endif

// Scalar and Diagonal: the receptor gains g (n per cell, from 1) of the normal equations in
// ws.a, ws.b, solved as one batch on GPU `gpu` or (gpu < 0) on the CPU.
template <typename T>
void solve_batch(int num, int n, const SolverOptions& solver, int gpu, SolveWorkspace<T>& ws,
                 std::vector<Complex<T>>& g, std::vector<SolveStatus>& status,
                 std::string& backend) {
  if (gpu >= 0) {  // (never in a build without CUDA: choose_gpus finds no GPU there)
#ifdef FRINGE_HAVE_CUDA
    if (!ws.gpu || ws.gpu->num_problems() != num || ws.gpu->n() != n) {
      ws.gpu.reset();  // its GPU memory first
      ws.gpu = std::make_unique<StefcalCuda<T>>(gpu, num, n);
    }
    ws.gpu->upload(ws.a.data(), ws.b.data());
    ws.gpu->solve(g.data(), solver);
    ws.gpu->download(g.data(), status.data());
    backend = gpu_name(gpu);
#endif
  } else {
    solve_scalar_batch_cpu(num, n, ws.a.data(), ws.b.data(), g.data(), status.data(), solver);
    backend = "cpu";
  }
}

// Scalar and Diagonal cells: station flags and normal equations (into ws), one batch solve,
// then Jones gains with the reference phase, and the residuals.
template <typename T>
void solve_scalar_cells(const std::vector<CalCell<T>>& cells, const CalOptions& options, int gpu,
                        SolveWorkspace<T>& ws, std::vector<CellSolution<T>>& sols,
                        StageTimers& timers, std::string& backend) {
  const int num = int(cells.size());
  const int n_st = cells[0].num_stations;
  const int n = num_receptors(options.type, n_st);
  const std::size_t nn = std::size_t(n) * n;
  {
    ScopedStage sw(&timers, stage::kNormalEq);
    if (ws.a.size() != nn * num) {
      const MemoryLocation where =
          gpu >= 0 ? MemoryLocation::pinned_host() : MemoryLocation::host();
      ws.a = Array<Complex<T>>(nn * num, where);
      ws.b = Array<T>(nn * num, where);
    }
#pragma omp parallel for schedule(dynamic)
    for (int k = 0; k < num; ++k) {
      cells[k].validate();
      sols[k].flagged = flag_stations(cells[k], options.min_baselines);
      build_normal_equations(cells[k], options.type, sols[k].flagged, ws.a.data() + nn * k,
                             ws.b.data() + nn * k);
    }
  }
  std::vector<Complex<T>> g(std::size_t(n) * num, Complex<T>{T(1), T(0)});
  std::vector<SolveStatus> status(cells.size());
  {
    ScopedStage sw(&timers, stage::kSolver);
    solve_batch(num, n, options.solver, gpu, ws, g, status, backend);
  }
  ScopedStage sw(&timers, stage::kResidual);
#pragma omp parallel for schedule(dynamic)
  for (int k = 0; k < num; ++k) {
    sols[k].status = status[k];
    std::vector<Complex<T>> gk(g.begin() + std::size_t(n) * k,
                               g.begin() + std::size_t(n) * (k + 1));
    sols[k].gains = receptor_gains_to_jones(options.type, n_st, std::move(gk),
                                            options.reference_station, sols[k].flagged);
    sols[k].rms_before = residual_rms(cells[k], {}, sols[k].flagged, options.type);
    sols[k].rms_after = residual_rms(cells[k], sols[k].gains, sols[k].flagged, options.type);
  }
}

}  // namespace

template <typename T>
std::vector<CellSolution<T>> solve_cells(const std::vector<CalCell<T>>& cells,
                                         const CalOptions& options, int gpu, SolveWorkspace<T>& ws,
                                         StageTimers& timers, std::string& backend) {
  const int num = int(cells.size());
  std::vector<CellSolution<T>> sols(cells.size());
#ifdef FRINGE_HAVE_CUDA
  if (options.type == GainType::FullJones && num > 0 && gpu >= 0) {
    solve_full_jones_cells_gpu(cells, options, gpu, sols, timers);
    backend = gpu_name(gpu);
    return sols;
  }
#endif
  if (options.type == GainType::FullJones || num == 0) {
    ScopedStage sw(&timers, stage::kSolver);
#pragma omp parallel for schedule(dynamic)
    for (int k = 0; k < num; ++k) sols[k] = solve_cell_cpu(cells[k], options);
    if (backend.empty()) backend = "cpu";
    return sols;
  }
  solve_scalar_cells(cells, options, gpu, ws, sols, timers, backend);
  return sols;
}

template std::vector<CellSolution<float>> solve_cells(const std::vector<CalCell<float>>&,
                                                      const CalOptions&, int,
                                                      SolveWorkspace<float>&, StageTimers&,
                                                      std::string&);
template std::vector<CellSolution<double>> solve_cells(const std::vector<CalCell<double>>&,
                                                       const CalOptions&, int,
                                                       SolveWorkspace<double>&, StageTimers&,
                                                       std::string&);

}  // namespace fringe::calibrate
