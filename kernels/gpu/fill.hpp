#pragma once
// Fills device memory with values a kernel can work on (small, finite, not all zero: zeros
// would let the GPU save power and run faster than on real data).

#include <cstddef>

#include <cuda_runtime_api.h>

namespace dlsim::kernels::gpu {

// `count` floats, or halves when `half`, with a repeating pattern in [-0.08, 0.08].
void launch_fill_pattern(void* data, size_t count, bool half, cudaStream_t stream);
// `count` floats set to `value`.
void launch_fill_constant(float* data, size_t count, float value, cudaStream_t stream);

}  // namespace dlsim::kernels::gpu
