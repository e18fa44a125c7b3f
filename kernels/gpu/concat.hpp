#pragma once
// "concat <dtype> n<batch> CxHxW CxHxW ...": the inputs joined along channels, one strided
// copy kernel per input (PyTorch's cat copies the inputs with its own kernel; cuDNN has
// none).  Phase fwd only: the backward of a concatenation is views of the gradient.

#include "phase.hpp"

namespace dlsim::kernels::gpu {

PhaseKernel concat_phase(const Signature& signature, const GpuContext& gpu);

}  // namespace dlsim::kernels::gpu
