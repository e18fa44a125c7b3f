#pragma once
// Linear layers as cuBLASLt matrix products, as PyTorch runs nn.Linear on GPUs: the
// algorithm is cuBLASLt's first heuristic pick within the workspace limit, the bias
// is fused into the forward product (PyTorch's addmm through cublasLt), and the bias
// gradient, a sum over the batch, is a second small product with a vector.

#include <string>

#include "phase.hpp"

namespace dlsim::kernels::gpu {

// "linear <dtype> n<batch> in<features> out<features> [bias]": fwd, bwd_data, bwd_weights.
PhaseKernel linear_phase(const Signature& signature, const std::string& phase, const GpuContext& gpu);

}  // namespace dlsim::kernels::gpu
