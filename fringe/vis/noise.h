// System noise added to a block of simulated visibilities (docs/conventions.md, "System noise").
// sigma_p is station p's RMS (Jy) at the noise frequency nearest to the channel frequency.
// Cross-correlations, baseline (p, q): Full mode, the real and the imaginary part of each of
// XX, XY, YX, YY get N(0, sqrt(sigma_p sigma_q)); Scalar mode N(0, sqrt(sigma_p sigma_q)/sqrt 2).
// Auto-correlations, station p: XX and YY (Scalar: the one value) get a real Gaussian term of
// the same standard deviation (with q = p) plus the bias sqrt(2) sigma_p sqrt(2 dnu tau)
// (dnu: channel bandwidth, Hz; tau: time average, s); XY gets a complex Gaussian term and
// YX = conj(XY), so the auto-correlation matrix stays Hermitian. Imaginary parts of XX, YY: 0.
// Random numbers come from a counter-based generator (Philox-4x32-10, Salmon et al. 2011,
// "Parallel random numbers: as easy as 1, 2, 3") keyed by the seed and counted by the global
// (time index, channel index, baseline or station index, draw number), so the noise depends
// only on the seed and the position in the observation: not on threads, blocks or chunks.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fringe/vis/noise_math.h"  // auto_noise_bias and the per-visibility formulas
#include "fringe/vis/vis_block.h"

namespace fringe::vis {

// Noise RMS per station per noise frequency.
struct NoiseTable {
  std::vector<double> freq_hz;              // noise frequencies, Hz (at least one)
  std::vector<std::vector<double>> rms_jy;  // [station][frequency], Jy (>= 0)

  // Index of the noise frequency nearest to freq_hz (the first of equally near ones).
  std::size_t nearest(double freq_hz) const;
  // sigma of station s at freq_hz (nearest noise frequency).
  double sigma(std::size_t station, double freq_hz) const;
  // Throws fringe::Error unless there is at least one frequency, num_stations rows of
  // freq_hz.size() values each, all finite and >= 0.
  void validate(std::size_t num_stations) const;
};

struct NoiseParams {
  std::uint64_t seed = 1;
  double channel_bandwidth_hz = 0.0;  // dnu of the auto-correlation bias
  double time_average_sec = 0.0;      // tau of the auto-correlation bias
};

// Philox-4x32-10 of counter under key: fringe::philox4x32 (core/philox.h), kept here for
// existing callers.
std::array<std::uint32_t, 4> philox4x32(std::array<std::uint32_t, 4> counter,
                                        std::array<std::uint32_t, 2> key);

// Four standard normal deviates for counter (time, channel, index, draw) under seed:
// fringe::philox_normals (core/philox.h).
std::array<double, 4> noise_normals(std::uint64_t seed, std::uint32_t time, std::uint32_t channel,
                                    std::uint32_t index, std::uint32_t draw);

// Adds noise to every cross- and auto-correlation the block holds. The block's frequencies
// and start_time_index / start_channel_index must be set (VisBlock::set_axes).
template <typename T>
void add_system_noise(VisBlock<T>& block, const NoiseTable& table, const NoiseParams& params);

extern template void add_system_noise<float>(VisBlock<float>&, const NoiseTable&,
                                             const NoiseParams&);
extern template void add_system_noise<double>(VisBlock<double>&, const NoiseTable&,
                                              const NoiseParams&);

}  // namespace fringe::vis
