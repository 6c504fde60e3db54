#include "fringe/sim/block_view.h"

#include "fringe/vis/baseline.h"

namespace fringe::sim {

template <typename T>
void make_block_view(const vis::VisBlock<T>& block, const vis::VisMeta& meta, BlockView& out) {
  const int n = block.num_stations();
  const bool casa = meta.casa_phase_convention;
  // The rows of one dump: (is_auto, p, q) in the MS writer's order.
  struct Row {
    bool is_auto;
    int p, q;
    std::size_t b;
  };
  std::vector<Row> rows;
  for (int p = 0; p < n; ++p) {
    if (block.has_autos()) rows.push_back({true, p, p, 0});
    if (block.has_cross()) {
      for (int q = p + 1; q < n; ++q)
        rows.push_back({false, p, q, vis::baseline_index(std::size_t(n), p, q)});
    }
  }
  const int nt = block.num_times(), nc = block.num_channels(), npol_in = block.num_pols();
  const int npol = (npol_in == 1 && !meta.force_polarised) ? 1 : 4;
  const std::size_t nr = rows.size();
  out.start_time_index = block.start_time_index;
  out.start_channel_index = block.start_channel_index;
  out.num_times = nt;
  out.num_channels = nc;
  out.num_rows = nr;
  out.num_pols = npol;
  out.time_mjd_utc_sec = block.times_mjd_utc_sec();
  out.frequency_hz = block.frequencies_hz();
  out.antenna1.resize(nr);
  out.antenna2.resize(nr);
  for (std::size_t r = 0; r < nr; ++r) {
    const Row& row = rows[r];
    // Non-CASA convention: the MS row of baseline (p, q) is (q, p).
    out.antenna1[r] = (row.is_auto || casa) ? row.p : row.q;
    out.antenna2[r] = (row.is_auto || casa) ? row.q : row.p;
  }
  const double sign = casa ? 1.0 : -1.0;
  out.uvw.assign(std::size_t(nt) * nr * 3, 0.0);
  for (int t = 0; t < nt; ++t) {
    for (std::size_t r = 0; r < nr; ++r) {
      if (rows[r].is_auto) continue;
      const std::array<double, 3>& w = block.uvw(t, rows[r].b);
      for (int k = 0; k < 3; ++k) out.uvw[(std::size_t(t) * nr + r) * 3 + k] = sign * w[k];
    }
  }
  out.vis.resize(std::size_t(nt) * std::size_t(nc) * nr * std::size_t(npol));
  std::complex<float>* d = out.vis.data();
  for (int t = 0; t < nt; ++t) {
    for (int c = 0; c < nc; ++c) {
      for (std::size_t r = 0; r < nr; ++r) {
        const Row& row = rows[r];
        const bool flip = !row.is_auto && !casa;  // V^H, as the MS writer
        const Complex<T>* v =
            row.is_auto ? &block.autos(t, c, row.p, 0) : &block.cross(t, c, row.b, 0);
        auto cf = [flip](const Complex<T>& z) {
          return flip ? std::complex<float>(float(z.re), -float(z.im))
                      : std::complex<float>(float(z.re), float(z.im));
        };
        std::complex<float>* o = d + ((std::size_t(t) * nc + c) * nr + r) * npol;
        if (npol_in == 4) {
          o[0] = cf(v[0]);
          o[1] = cf(v[flip ? 2 : 1]);
          o[2] = cf(v[flip ? 1 : 2]);
          o[3] = cf(v[3]);
        } else if (npol == 4) {  // Scalar written as a 4-product MS
          o[0] = o[3] = cf(v[0]);
          o[1] = o[2] = std::complex<float>(0.0f, 0.0f);
        } else {
          o[0] = cf(v[0]);
        }
      }
    }
  }
}

template void make_block_view(const vis::VisBlock<float>&, const vis::VisMeta&, BlockView&);
template void make_block_view(const vis::VisBlock<double>&, const vis::VisMeta&, BlockView&);

}  // namespace fringe::sim
