#pragma once
// The operators of modern CNNs beyond cuDNN's legacy layers, as PyTorch runs them:
//   mul              x * y, y of x's size or one factor per channel (squeeze-and-excitation):
//                    forward one cuDNN OpTensor; backward x's gradient g * y and y's g * x,
//                    summed over each plane where y is per channel (autograd's two kernels)
//   channel_shuffle  ShuffleNet's view-transpose-contiguous copy, as cudnnTransformTensor
//                    from the transposed strides; its backward is the inverse copy
//   hardswish, hardsigmoid  PyTorch's element-wise kernels, forward and backward
//   cast             autocast's fp32 -> fp16 copy of a weight or input ("cast fp16 n e")

#include <string>

#include "phase.hpp"

namespace dlsim::kernels::gpu {

PhaseKernel mul_phase(const Signature& signature, const std::string& phase, const GpuContext& gpu);
PhaseKernel shuffle_phase(const Signature& signature, const std::string& phase, const GpuContext& gpu);
PhaseKernel hard_activation_phase(const Signature& signature, const std::string& phase, const GpuContext& gpu);
PhaseKernel cast_phase(const Signature& signature, const GpuContext& gpu);

}  // namespace dlsim::kernels::gpu
