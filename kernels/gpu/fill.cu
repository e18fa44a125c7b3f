#include "fill.hpp"

#include <cuda_fp16.h>

#include "check.hpp"

namespace dlsim::kernels::gpu {
namespace {

constexpr int kThreads = 256;
constexpr size_t kMaxBlocks = 65535;

__device__ float pattern(size_t i) { return 0.01f * static_cast<float>(static_cast<int>(i % 17) - 8); }

__global__ void fill_float(float* data, size_t count) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count; i += size_t{gridDim.x} * blockDim.x)
    data[i] = pattern(i);
}

__global__ void fill_half(__half* data, size_t count) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count; i += size_t{gridDim.x} * blockDim.x)
    data[i] = __float2half(pattern(i));
}

__global__ void fill_value(float* data, size_t count, float value) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count; i += size_t{gridDim.x} * blockDim.x)
    data[i] = value;
}

unsigned blocks_for(size_t count) {
  const size_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

}  // namespace

void launch_fill_pattern(void* data, size_t count, bool half, cudaStream_t stream) {
  if (count == 0) return;
  if (half)
    fill_half<<<blocks_for(count), kThreads, 0, stream>>>(static_cast<__half*>(data), count);
  else
    fill_float<<<blocks_for(count), kThreads, 0, stream>>>(static_cast<float*>(data), count);
  check(cudaGetLastError(), "fill kernel launch");
}

void launch_fill_constant(float* data, size_t count, float value, cudaStream_t stream) {
  if (count == 0) return;
  fill_value<<<blocks_for(count), kThreads, 0, stream>>>(data, count, value);
  check(cudaGetLastError(), "fill kernel launch");
}

}  // namespace dlsim::kernels::gpu
