// GPU memory arithmetic of the simulator (sim/gpu_unit.h), testable without a GPU.
#include <gtest/gtest.h>

#include <cstddef>

#include "fringe/sim/gpu_unit.h"

using fringe::Precision;

// The GPU chunk limit (sim/gpu_unit.h): 512 MiB of predict scratch reserved, then per source
// stations x Jones plus 1536 bytes of kept and cached source arrays.
TEST(GpuMemory, ChunkLimitFromTheBudget) {
  const std::size_t mib = std::size_t(1) << 20;
  const std::size_t per_full_double = 512 * 64 + 1536;  // Jones<double>: 8 doubles
  EXPECT_EQ(
      fringe::sim::gpu_max_chunk_sources(1024 * mib + 512 * mib, 512, Precision::Double, true),
      1024 * mib / per_full_double);
  EXPECT_EQ(
      fringe::sim::gpu_max_chunk_sources(1024 * mib + 512 * mib, 512, Precision::Single, false),
      1024 * mib / (512 * 8 + 1536));
  EXPECT_EQ(fringe::sim::gpu_max_chunk_sources(100 * mib, 512, Precision::Double, true),
            1u);  // never 0
  EXPECT_GT(fringe::sim::gpu_max_chunk_sources(80000 * mib, 512, Precision::Double, true), 16384u);
  // A block of 4 times x 130816 baselines x 4 pols in double: two copies of 16-byte values.
  EXPECT_EQ(fringe::sim::gpu_block_bytes(4 * 130816 * 4, Precision::Double),
            2u * 4 * 130816 * 4 * 16);
  EXPECT_EQ(fringe::sim::gpu_block_bytes(10, Precision::Single), 160u);
}
