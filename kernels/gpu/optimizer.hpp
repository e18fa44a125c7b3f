#pragma once
// Optimizer updates, "sgd|sgd_momentum|adam <dtype> p<parameters> t<tensors> max<largest>",
// as PyTorch's per-tensor loop (foreach=False) runs them: one kernel launch per parameter
// tensor, so that a network of many small tensors pays a launch each.  The parameters and
// optimizer state are fp32 whatever the signature's type (mixed precision keeps fp32
// master weights).

#include "phase.hpp"

namespace dlsim::kernels::gpu {

// Phase "update".
PhaseKernel update_phase(const Signature& signature, const GpuContext& gpu);

}  // namespace dlsim::kernels::gpu
