#pragma once
// Convolutions through cuDNN's legacy API, the algorithm picked as frameworks pick it when
// told to benchmark (torch.backends.cudnn.benchmark): cudnnFind*AlgorithmEx times every
// algorithm on the case's own buffers and the fastest that fits the workspace limit runs.

#include <string>

#include "phase.hpp"

namespace dlsim::kernels::gpu {

// Phases fwd (with the bias add), bwd_data and bwd_weights (with the bias gradient).
PhaseKernel conv_phase(const Signature& signature, const std::string& phase, const GpuContext& gpu);

}  // namespace dlsim::kernels::gpu
