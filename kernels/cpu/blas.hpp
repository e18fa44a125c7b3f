#pragma once
// Fully connected layers (and pointwise convolutions) as a framework runs them when it hands GEMMs to the system BLAS
// rather than to oneDNN: Debian's PyTorch 1.13 does so for fp32 nn.Linear (BLAS_INFO=
// generic: whatever libblas.so.3 the alternatives system points at, by default the
// reference BLAS).  Timing both paths lets calibration say which one a framework takes.
//   forward          out[N,O]  = in[N,I] x W[O,I]^T
//   backward-data    din[N,I]  = dout[N,O] x W[O,I]
//   backward-weights dW[O,I]   = dout[N,O]^T x in[N,I]

#include <vector>

#include "primitives.hpp"

namespace dlsim::kernels {

// "blas_fwd", "blas_bwd_data", "blas_bwd_weights" for a linear signature.
std::vector<PhaseKernel> make_blas_linear_kernels(const Signature& signature, bool training);

// The same three phases for a 1x1, stride-1, unpadded, ungrouped convolution, run as
// PyTorch's slow_conv2d runs it when it leaves oneDNN (one thread and a batch under 16,
// see validation/data/README.md): one GEMM per sample, no im2col needed,
//   forward out[K,HW] = W[K,C] x in[C,HW];  backward-data din[C,HW] = W^T x dout[K,HW];
//   backward-weights dW[K,C] += dout[K,HW] x in[C,HW]^T.
// Returns nothing for other convolutions.
std::vector<PhaseKernel> make_blas_pointwise_conv_kernels(const Signature& signature, bool training);

}  // namespace dlsim::kernels
