// BlockView: one visibility block of a simulation as the Measurement Set holds it, handed to
// a caller's block sink (RunContext::block_sink) instead of, or as well as, a file
// (docs/python.md, "Simulation"). The values are exactly those the MS writer stores
// (io/ms/ms_writer.h) for the same block, so arrays from a sink equal the MS bitwise:
//   rows of a dump in MS order: per ANTENNA1 p, the auto-correlation (p, p) when autos are
//     written, then the cross-correlations (p, q), q > p;
//   casa_phase_convention = false: ANTENNA1 = q, ANTENNA2 = p, UVW negated, data the
//     conjugate transpose (XY and YX swapped and conjugated), as the MS;
//   complex float data; Scalar runs with force_polarised give XX = YY = V, XY = YX = 0.
// Axes (C order, last fastest): vis [time][channel][row][pol], uvw [time][row][3] (metres),
// time_mjd_utc_sec [time] (dump centres, MJD(UTC) x 86400 s, as MS TIME), frequency_hz
// [channel] (channel centres), antenna1/antenna2 [row].
#pragma once

#include <complex>
#include <cstddef>
#include <functional>
#include <vector>

#include "fringe/vis/vis_block.h"
#include "fringe/vis/vis_meta.h"

namespace fringe::sim {

struct BlockView {
  std::size_t block_index = 0;  // 0, 1, ... in the order the blocks are made and written
  std::size_t num_blocks = 0;   // blocks of the whole run
  int start_time_index = 0;     // first time of the block in the observation
  int start_channel_index = 0;  // first channel of the block in the observation
  int num_times = 0;
  int num_channels = 0;
  std::size_t num_rows = 0;  // rows of one dump (baselines, and stations for autos)
  int num_pols = 4;          // 4 (XX, XY, YX, YY) or 1, as the MS DATA
  std::vector<std::complex<float>> vis;
  std::vector<double> uvw;
  std::vector<double> time_mjd_utc_sec;
  std::vector<double> frequency_hz;
  std::vector<int> antenna1;
  std::vector<int> antenna2;
};

// Receives each block in block order, on the pipeline's writer thread (after the output
// checks, after the block went into the MS and/or .vis file), while the next block
// computes. It may move the arrays out of the view. An exception it throws stops the run
// (no file is left behind) and reaches the caller of simulate_interferometer.
using BlockSink = std::function<void(BlockView&)>;

// Fills `out` (its arrays resized; block_index and num_blocks left as they are) with the MS
// form of `block` under the conventions of `meta` (casa_phase_convention, force_polarised,
// auto/cross selection).
template <typename T>
void make_block_view(const vis::VisBlock<T>& block, const vis::VisMeta& meta, BlockView& out);

extern template void make_block_view(const vis::VisBlock<float>&, const vis::VisMeta&, BlockView&);
extern template void make_block_view(const vis::VisBlock<double>&, const vis::VisMeta&, BlockView&);

}  // namespace fringe::sim
