#include "pointwise_kernels.hpp"

#include <cuda_fp16.h>

#include "check.hpp"

namespace dlsim::kernels::gpu {
namespace {

constexpr int kThreads = 256;

__device__ float load(const float* p, size_t i) { return p[i]; }
__device__ float load(const __half* p, size_t i) { return __half2float(p[i]); }
__device__ void store(float* p, size_t i, float v) { p[i] = v; }
__device__ void store(__half* p, size_t i, float v) { p[i] = __float2half(v); }

// PyTorch's definitions: hardsigmoid(x) = clamp(x / 6 + 1/2, 0, 1), hardswish(x) = x * clamp(x + 3, 0, 6) / 6.
template <typename T>
__global__ void hard_activation(HardActivation kind, bool backward, const T* x, const T* dy, T* out, size_t count) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (i >= count) return;
  const float v = load(x, i);
  float r;
  if (kind == HardActivation::sigmoid)
    r = backward ? (v > -3.f && v < 3.f ? load(dy, i) / 6.f : 0.f) : fminf(fmaxf(v / 6.f + 0.5f, 0.f), 1.f);
  else if (!backward)
    r = v * fminf(fmaxf(v + 3.f, 0.f), 6.f) / 6.f;
  else
    r = v < -3.f ? 0.f : v > 3.f ? load(dy, i) : load(dy, i) * (2.f * v + 3.f) / 6.f;
  store(out, i, r);
}

__global__ void cast_to_half(const float* x, __half* y, size_t count) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (i < count) y[i] = __float2half(x[i]);
}

template <typename T>
__global__ void plane_sums(const T* x, T* out, size_t plane_size) {
  __shared__ float partial[kThreads];
  const T* plane = x + blockIdx.x * plane_size;
  float sum = 0.f;
  for (size_t i = threadIdx.x; i < plane_size; i += blockDim.x) sum += load(plane, i);
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) store(out, blockIdx.x, partial[0]);
}

unsigned blocks_for(size_t count) { return static_cast<unsigned>((count + kThreads - 1) / kThreads); }

}  // namespace

void launch_hard_activation(HardActivation kind, bool backward, const void* x, const void* dy, void* out, size_t count,
                            bool half, cudaStream_t stream) {
  if (half)
    hard_activation<<<blocks_for(count), kThreads, 0, stream>>>(kind, backward, static_cast<const __half*>(x),
                                                               static_cast<const __half*>(dy), static_cast<__half*>(out),
                                                               count);
  else
    hard_activation<<<blocks_for(count), kThreads, 0, stream>>>(kind, backward, static_cast<const float*>(x),
                                                               static_cast<const float*>(dy), static_cast<float*>(out),
                                                               count);
  check(cudaGetLastError(), "hard activation kernel launch");
}

void launch_cast_to_half(const float* x, void* y, size_t count, cudaStream_t stream) {
  cast_to_half<<<blocks_for(count), kThreads, 0, stream>>>(x, static_cast<__half*>(y), count);
  check(cudaGetLastError(), "cast kernel launch");
}

void launch_plane_sums(const void* x, void* out, size_t planes, size_t plane_size, bool half, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(planes);
  if (half)
    plane_sums<<<blocks, kThreads, 0, stream>>>(static_cast<const __half*>(x), static_cast<__half*>(out), plane_size);
  else
    plane_sums<<<blocks, kThreads, 0, stream>>>(static_cast<const float*>(x), static_cast<float*>(out), plane_size);
  check(cudaGetLastError(), "plane sum kernel launch");
}

}  // namespace dlsim::kernels::gpu
