#include "jones_kernel.h"

#include "fringe/core/cuda_check.h"

namespace fringe::test {

namespace {

template <typename T>
__global__ void jones_products_kernel(const Jones<T>* p, const Jones<T>* b, const Jones<T>* q,
                                      Jones<T>* sandwich, Jones<T>* prod, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  sandwich[i] = jones_sandwich(p[i], b[i], q[i]);
  prod[i] = p[i] * b[i];
}

__global__ void empty_kernel() {}

}  // namespace

template <typename T>
void gpu_jones_products(const Jones<T>* p, const Jones<T>* b, const Jones<T>* q, Jones<T>* sandwich,
                        Jones<T>* prod, std::size_t n) {
  if (n == 0) return;
  const unsigned threads = 128;
  const unsigned blocks = static_cast<unsigned>((n + threads - 1) / threads);
  jones_products_kernel<T><<<blocks, threads>>>(p, b, q, sandwich, prod, n);
  FRINGE_CUDA_CHECK_KERNEL_SYNC("jones_products_kernel", cudaStreamDefault);
}

template void gpu_jones_products<float>(const Jones<float>*, const Jones<float>*,
                                        const Jones<float>*, Jones<float>*, Jones<float>*,
                                        std::size_t);
template void gpu_jones_products<double>(const Jones<double>*, const Jones<double>*,
                                         const Jones<double>*, Jones<double>*, Jones<double>*,
                                         std::size_t);

void gpu_bad_launch() {
  empty_kernel<<<1, 100000>>>();  // more threads per block than any GPU allows
  FRINGE_CUDA_CHECK_KERNEL("empty_kernel");
}

}  // namespace fringe::test
