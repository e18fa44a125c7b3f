#pragma once
// Element-wise kernels cuDNN lacks, written as PyTorch's own CUDA kernels compute them:
// hard swish and hard sigmoid (forward and backward), autocast's fp32 -> fp16 cast, and the
// sum over each plane that the gradient of a per-channel factor needs (torch.sum over the
// pixels).  Values are fp32 or fp16 (`half`), arithmetic fp32.

#include <cstddef>

#include <cuda_runtime_api.h>

namespace dlsim::kernels::gpu {

enum class HardActivation { swish, sigmoid };

// Forward: out = f(x).  Backward: out = dy * f'(x).
void launch_hard_activation(HardActivation kind, bool backward, const void* x, const void* dy, void* out, size_t count,
                            bool half, cudaStream_t stream);
// y[i] = (half) x[i].
void launch_cast_to_half(const float* x, void* y, size_t count, cudaStream_t stream);
// out[p] = sum of x[p * plane_size .. (p + 1) * plane_size), one block per plane.
void launch_plane_sums(const void* x, void* out, size_t planes, size_t plane_size, bool half, cudaStream_t stream);

}  // namespace dlsim::kernels::gpu
