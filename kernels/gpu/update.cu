#include "update.hpp"

#include "check.hpp"

namespace dlsim::kernels::gpu {
namespace {

constexpr int kThreads = 256;
constexpr float kLr = 0.01f, kMomentum = 0.9f;
constexpr float kBeta1 = 0.9f, kBeta2 = 0.999f, kEpsilon = 1e-8f, kAdamLr = 0.001f;

__global__ void sgd(float* w, const float* g, size_t count) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (i < count) w[i] -= kLr * g[i];
}

__global__ void sgd_momentum(float* w, const float* g, float* v, size_t count) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (i >= count) return;
  const float velocity = kMomentum * v[i] + g[i];
  v[i] = velocity;
  w[i] -= kLr * velocity;
}

// The bias corrections depend on the step only; the host passes them, as PyTorch does.
__global__ void adam(float* w, const float* g, float* m, float* v, size_t count, float m_correction,
                     float v_correction) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (i >= count) return;
  const float grad = g[i];
  const float mean = kBeta1 * m[i] + (1.f - kBeta1) * grad;
  const float var = kBeta2 * v[i] + (1.f - kBeta2) * grad * grad;
  m[i] = mean;
  v[i] = var;
  w[i] -= kAdamLr * (mean * m_correction) / (sqrtf(var * v_correction) + kEpsilon);
}

unsigned blocks_for(size_t count) { return static_cast<unsigned>((count + kThreads - 1) / kThreads); }

}  // namespace

void launch_sgd(float* w, const float* g, size_t count, cudaStream_t stream) {
  sgd<<<blocks_for(count), kThreads, 0, stream>>>(w, g, count);
  check(cudaGetLastError(), "sgd kernel launch");
}

void launch_sgd_momentum(float* w, const float* g, float* v, size_t count, cudaStream_t stream) {
  sgd_momentum<<<blocks_for(count), kThreads, 0, stream>>>(w, g, v, count);
  check(cudaGetLastError(), "sgd_momentum kernel launch");
}

void launch_adam(float* w, const float* g, float* m, float* v, size_t count, cudaStream_t stream) {
  // Step 1's corrections: 1 / (1 - beta^1).
  adam<<<blocks_for(count), kThreads, 0, stream>>>(w, g, m, v, count, 1.f / (1.f - kBeta1), 1.f / (1.f - kBeta2));
  check(cudaGetLastError(), "adam kernel launch");
}

}  // namespace dlsim::kernels::gpu
