// The CPU back end of Image-Domain Gridding: OpenMP over the subgrids of a batch (gridder or
// degridder kernel plus the subgrid FFT per thread), then the adder / splitter in parallel
// over horizontal stripes of the grid, so no two threads touch the same grid cell.
// Phases are formed in double (simd_sincos vectorises over the pixels of a subgrid), once per
// row and stepped along evenly spaced channels (even_channels); sums are accumulated in
// double for both precisions.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "fringe/core/interrupt.h"
#include "fringe/core/simd_sincos.h"
#include "fringe/imager/fft_cpu.h"
#include "fringe/imager/grid_ops.h"
#include "fringe/imager/idg.h"
#include "fringe/imager/idg_math.h"

namespace fringe::imager {

namespace {

// Per-pixel (l, m, n - 1) and sign * taper of a subgrid (the same for every subgrid).
struct SubgridPixels {
  std::vector<double> l, m, n, ts;
  SubgridPixels(const GridGeometry& g, const Taper& taper) {
    const int ns = g.subgrid_size;
    const std::size_t np = static_cast<std::size_t>(ns) * ns;
    l.resize(np);
    m.resize(np);
    n.resize(np);
    ts.resize(np);
    for (int y = 0; y < ns; ++y)
      for (int x = 0; x < ns; ++x) {
        const std::size_t i = static_cast<std::size_t>(y) * ns + x;
        pixel_lmn<double>(x, y, ns, g.image_width_lm(), &l[i], &m[i], &n[i]);
        const double sign = ((x + y) & 1) ? -1.0 : 1.0;
        ts[i] = sign * taper((x - 0.5 * ns) / ns) * taper((y - 0.5 * ns) / ns);
      }
  }
};

// Phase terms of the rows and channels of one subgrid.
struct SubgridTerms {
  std::vector<double> a, b, dk;  // a, b [row][3], dk [channel]
  void make(const GridGeometry& g, const Subgrid& s, const std::vector<double>& freq,
            const std::vector<std::array<double, 3>>& uvw) {
    double us = 0, vs = 0;
    subgrid_centre(g, s.x0, s.y0, &us, &vs);
    const double f_ref = freq[subgrid_ref_channel(s.chan_begin, s.num_channels)];
    a.resize(3 * s.num_rows);
    b.resize(3 * s.num_rows);
    dk.resize(s.num_channels);
    for (std::uint32_t r = 0; r < s.num_rows; ++r) {
      const auto& w = uvw[s.row_begin + r];
      const double uvw_r[3] = {w[0], w[1], w[2]};
      row_phase_terms(uvw_r, f_ref, us, vs, s.layer * g.w_step, &a[3 * r]);
      for (int k = 0; k < 3; ++k) b[3 * r + k] = uvw_r[k];
    }
    for (std::uint32_t c = 0; c < s.num_channels; ++c)
      dk[c] = channel_dk(freq[s.chan_begin + c], f_ref);
  }
};

// A-terms on a subgrid's pixel values, held as double arrays [pol][re | im][pixel]:
// adjoint (gridder): A_p^H X A_q; else (degridder): A_p X A_q^H.
template <typename T>
void apply_aterms(const ATerms<T>& a, const Subgrid& s, int npol, std::size_t np, double* v,
                  bool adjoint) {
  const Complex<T>* ap = a.at(s.aterm_index, s.station1);
  const Complex<T>* aq = a.at(s.aterm_index, s.station2);
  auto to_d = [](Complex<T> z) { return Complex<double>{double(z.re), double(z.im)}; };
  for (std::size_t p = 0; p < np; ++p) {
    Complex<double> jp[4], jq[4], x[4];
    for (int k = 0; k < 4; ++k) {
      jp[k] = to_d(ap[4 * p + k]);
      jq[k] = to_d(aq[4 * p + k]);
    }
    for (int q = 0; q < npol; ++q) x[q] = {v[2 * q * np + p], v[(2 * q + 1) * np + p]};
    if (npol == 4) {
      if (adjoint)
        aterm_adjoint(jp, jq, x);
      else
        aterm_apply(jp, jq, x);
    } else {
      x[0] = adjoint ? conj(jp[0]) * x[0] * jq[0] : jp[0] * x[0] * conj(jq[0]);
    }
    for (int q = 0; q < npol; ++q) {
      v[2 * q * np + p] = x[q].re;
      v[(2 * q + 1) * np + p] = x[q].im;
    }
  }
}

// True when a subgrid's channels are evenly spaced (dk linear in the channel to 1e-12 of its
// range): its phasors exp(-/+ i (pa + dk_c pb)) are then stepped from channel to channel by
// one complex multiply with exp(-/+ i (dk_1 - dk_0) pb) instead of a sincos per pixel and
// channel (the recurrence drifts ~1e-16 per step in double; at most 127 steps).
bool even_channels(const std::vector<double>& dk) {
  const std::size_t n = dk.size();
  if (n < 3) return false;
  const double step = dk[1] - dk[0];
  const double tol = 1e-12 * (std::abs(dk.front()) + std::abs(dk.back()) + std::abs(step));
  for (std::size_t c = 2; c < n; ++c)
    if (std::abs(dk[c] - (dk[0] + double(c) * step)) > tol) return false;
  return true;
}

// Sets (sn, cs) = sincos(sign (pa + dk pb)) over the pixels.
inline void phasors(std::size_t np, double sign, const double* pa, const double* pb, double dk,
                    double* sn, double* cs) {
#pragma omp simd
  for (std::size_t p = 0; p < np; ++p) simd_sincos(sign * (pa[p] + dk * pb[p]), sn[p], cs[p]);
}

// (sn, cs) times the step (ssn, scs) per pixel: the next channel's phasors.
inline void step_phasors(std::size_t np, const double* ssn, const double* scs, double* sn,
                         double* cs) {
#pragma omp simd
  for (std::size_t p = 0; p < np; ++p) {
    const double c = cs[p] * scs[p] - sn[p] * ssn[p];
    sn[p] = cs[p] * ssn[p] + sn[p] * scs[p];
    cs[p] = c;
  }
}

template <typename T>
class CpuBackend final : public IdgBackend<T> {
 public:
  explicit CpuBackend(int num_threads)
      : num_threads_(num_threads > 0 ? num_threads : omp_get_max_threads()) {}
  std::string name() const override { return "CPU (" + std::to_string(num_threads_) + " threads)"; }

  void grid(const GridGeometry& g, const Taper& taper, std::span<const Subgrid> subgrids,
            const VisBuffer<T>& vis, Complex<T>* grid) override {
    const SubgridPixels px(g, taper);
    const int ns = g.subgrid_size, npol = vis.num_pols;
    const std::size_t np = static_cast<std::size_t>(ns) * ns;
    if (this->aterms()) check_aterms(*this->aterms(), ns, subgrids);
    const Fft2d<T> fft(ns, +1);
    const std::size_t batch = std::max<std::size_t>(64, 16 * num_threads_);
    std::vector<Complex<T>> buf(batch * npol * np);
    for (std::size_t b0 = 0; b0 < subgrids.size(); b0 += batch) {
      interrupt::throw_if_requested();  // between batches, outside the parallel region
      const std::size_t nb = std::min(batch, subgrids.size() - b0);
#pragma omp parallel num_threads(num_threads_)
      {
        SubgridTerms terms;
        std::vector<double> pa(np), pb(np), sn(np), cs(np), ssn(np), scs(np), acc(2 * 4 * np);
#pragma omp for schedule(dynamic)
        for (std::size_t i = 0; i < nb; ++i) {
          const Subgrid& s = subgrids[b0 + i];
          terms.make(g, s, vis.freq_hz, vis.uvw_m);
          const bool rec = even_channels(terms.dk);
          std::fill(acc.begin(), acc.begin() + 2 * npol * np, 0.0);
          for (std::uint32_t r = 0; r < s.num_rows; ++r) {
            const double* a = &terms.a[3 * r];
            const double* bb = &terms.b[3 * r];
#pragma omp simd
            for (std::size_t p = 0; p < np; ++p) {
              pa[p] = a[0] * px.l[p] + a[1] * px.m[p] + a[2] * px.n[p];
              pb[p] = bb[0] * px.l[p] + bb[1] * px.m[p] + bb[2] * px.n[p];
            }
            const std::size_t row = s.row_begin + r;
            if (rec) {
              phasors(np, -1.0, pa.data(), pb.data(), terms.dk[0], sn.data(), cs.data());
              // The step: sincos(-(dk_1 - dk_0) pb) (pa = pb, dk = 0 in phasors' formula).
              phasors(np, -(terms.dk[1] - terms.dk[0]), pb.data(), pb.data(), 0.0, ssn.data(),
                      scs.data());
            }
            for (std::uint32_t c = 0; c < s.num_channels; ++c) {
              const std::size_t k = row * vis.num_channels + s.chan_begin + c;
              const double wt = vis.weight[k];
              if (rec && c > 0) step_phasors(np, ssn.data(), scs.data(), sn.data(), cs.data());
              if (!(wt > 0.0)) continue;
              if (!rec) phasors(np, -1.0, pa.data(), pb.data(), terms.dk[c], sn.data(), cs.data());
              for (int q = 0; q < npol; ++q) {
                const double vr = wt * vis.vis[k * npol + q].re;
                const double vi = wt * vis.vis[k * npol + q].im;
                double* ar = &acc[2 * q * np];
                double* ai = ar + np;
#pragma omp simd
                for (std::size_t p = 0; p < np; ++p) {
                  ar[p] += vr * cs[p] - vi * sn[p];
                  ai[p] += vr * sn[p] + vi * cs[p];
                }
              }
            }
          }
          if (this->aterms()) apply_aterms(*this->aterms(), s, npol, np, acc.data(), true);
          Complex<T>* out = &buf[i * npol * np];
          for (int q = 0; q < npol; ++q) {
            for (std::size_t p = 0; p < np; ++p)
              out[q * np + p] = {T(acc[2 * q * np + p] * px.ts[p]),
                                 T(acc[(2 * q + 1) * np + p] * px.ts[p])};
            fft.execute(out + q * np);
          }
        }
      }
      add_subgrids(g, subgrids.subspan(b0, nb), npol, buf.data(), grid, num_threads_);
    }
  }

  void degrid(const GridGeometry& g, const Taper& taper, std::span<const Subgrid> subgrids,
              const Complex<T>* grid, VisBuffer<T>& vis) override {
    const SubgridPixels px(g, taper);
    const int ns = g.subgrid_size, npol = vis.num_pols;
    const std::size_t np = static_cast<std::size_t>(ns) * ns;
    const std::size_t gs = g.grid_size;
    if (this->aterms()) check_aterms(*this->aterms(), ns, subgrids);
    const Fft2d<T> fft(ns, -1);
#pragma omp parallel num_threads(num_threads_)
    {
      SubgridTerms terms;
      std::vector<double> pa(np), pb(np), sn(np), cs(np), ssn(np), scs(np), sub(2 * 4 * np);
      std::vector<Complex<T>> tmp(np);
#pragma omp for schedule(dynamic)
      for (std::size_t i = 0; i < subgrids.size(); ++i) {
        if (interrupt::requested()) continue;  // SIGINT/SIGTERM: no throw inside OpenMP
        const Subgrid& s = subgrids[i];
        // Splitter and subgrid FFT (adjoint of the adder and of the gridder's FFT).
        for (int q = 0; q < npol; ++q) {
          for (int y = 0; y < ns; ++y)
            for (int x = 0; x < ns; ++x) {
              const Complex<T> v = grid[q * gs * gs + (s.y0 + y) * gs + (s.x0 + x)];
              const T sign = ((x + y) & 1) ? T(-1) : T(1);
              tmp[y * ns + x] = {sign * v.re, sign * v.im};
            }
          fft.execute(tmp.data());
          for (std::size_t p = 0; p < np; ++p) {
            sub[2 * q * np + p] = tmp[p].re * px.ts[p];
            sub[(2 * q + 1) * np + p] = tmp[p].im * px.ts[p];
          }
        }
        if (this->aterms()) apply_aterms(*this->aterms(), s, npol, np, sub.data(), false);
        terms.make(g, s, vis.freq_hz, vis.uvw_m);
        const bool rec = even_channels(terms.dk);
        for (std::uint32_t r = 0; r < s.num_rows; ++r) {
          const double* a = &terms.a[3 * r];
          const double* bb = &terms.b[3 * r];
#pragma omp simd
          for (std::size_t p = 0; p < np; ++p) {
            pa[p] = a[0] * px.l[p] + a[1] * px.m[p] + a[2] * px.n[p];
            pb[p] = bb[0] * px.l[p] + bb[1] * px.m[p] + bb[2] * px.n[p];
          }
          const std::size_t row = s.row_begin + r;
          if (rec) {
            phasors(np, 1.0, pa.data(), pb.data(), terms.dk[0], sn.data(), cs.data());
            phasors(np, terms.dk[1] - terms.dk[0], pb.data(), pb.data(), 0.0, ssn.data(),
                    scs.data());
          }
          for (std::uint32_t c = 0; c < s.num_channels; ++c) {
            const std::size_t k = row * vis.num_channels + s.chan_begin + c;
            // exp(-i phi) as (cs, -sn) of phi = -(pa + dk pb): stepped, or each directly.
            if (rec && c > 0) step_phasors(np, ssn.data(), scs.data(), sn.data(), cs.data());
            if (!rec) phasors(np, 1.0, pa.data(), pb.data(), terms.dk[c], sn.data(), cs.data());
            for (int q = 0; q < npol; ++q) {
              const double* sr = &sub[2 * q * np];
              const double* si = sr + np;
              double vr = 0, vi = 0;
#pragma omp simd reduction(+ : vr, vi)
              for (std::size_t p = 0; p < np; ++p) {
                vr += sr[p] * cs[p] - si[p] * sn[p];
                vi += sr[p] * sn[p] + si[p] * cs[p];
              }
              vis.vis[k * npol + q] = {T(vr), T(vi)};
            }
          }
        }
      }
    }
    interrupt::throw_if_requested();
  }

 private:
  int num_threads_;
};

}  // namespace

template <typename T>
std::unique_ptr<IdgBackend<T>> make_cpu_backend(int num_threads) {
  return std::make_unique<CpuBackend<T>>(num_threads);
}
template std::unique_ptr<IdgBackend<float>> make_cpu_backend<float>(int);
template std::unique_ptr<IdgBackend<double>> make_cpu_backend<double>(int);

}  // namespace fringe::imager
