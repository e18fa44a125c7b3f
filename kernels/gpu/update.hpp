#pragma once
// Optimizer steps over one parameter tensor of fp32 values, one kernel launch each:
//   SGD:            w -= lr g
//   SGD, momentum:  v = mu v + g;  w -= lr v               (PyTorch's form)
//   Adam:           m = b1 m + (1-b1) g;  v = b2 v + (1-b2) g^2;
//                   w -= lr m_hat / (sqrt(v_hat) + eps)

#include <cstddef>

#include <cuda_runtime_api.h>

namespace dlsim::kernels::gpu {

void launch_sgd(float* w, const float* g, size_t count, cudaStream_t stream);
void launch_sgd_momentum(float* w, const float* g, float* v, size_t count, cudaStream_t stream);
void launch_adam(float* w, const float* g, float* m, float* v, size_t count, cudaStream_t stream);

}  // namespace dlsim::kernels::gpu
