#pragma once
// The layers around the convolutions, through cuDNN's legacy API: pooling, activations,
// batch norm, softmax, the residual add, LRN and dropout.  Each has a fwd phase and, in
// training, a bwd_data phase (the add has no backward kernel: its gradient is a view).

#include <string>

#include "phase.hpp"

namespace dlsim::kernels::gpu {

// maxpool, avgpool, global_avgpool, global_maxpool, adaptive_avg_pool
PhaseKernel pool_phase(const Signature& signature, const std::string& phase, const GpuContext& gpu);
// relu, relu6, sigmoid, tanh, silu (cuDNN's legacy API has no gelu or leaky_relu)
PhaseKernel activation_phase(const Signature& signature, const std::string& phase, const GpuContext& gpu);
// Spatial batch norm.  Its backward is one call computing the data, scale and shift
// gradients together, reported as bwd_data.
PhaseKernel batch_norm_phase(const Signature& signature, const std::string& phase, const GpuContext& gpu);
// softmax (over e), softmax_cross_entropy (log-softmax over the classes, the loss's kernel)
PhaseKernel softmax_phase(const Signature& signature, const std::string& phase, const GpuContext& gpu);
// "add <dtype> n e x<inputs>": the first two summed into the output, the rest added to it.
PhaseKernel add_phase(const Signature& signature, const GpuContext& gpu);
PhaseKernel lrn_phase(const Signature& signature, const std::string& phase, const GpuContext& gpu);
PhaseKernel dropout_phase(const Signature& signature, const std::string& phase, const GpuContext& gpu);

}  // namespace dlsim::kernels::gpu
