#pragma once
// Kernels that frameworks run as their own vectorised loops, not as oneDNN primitives,
// threaded with OpenMP as PyTorch's CPU kernels are:
//   SGD with momentum (PyTorch):  v = mu v + g;  w -= lr v
//   Adam:  m = b1 m + (1-b1) g;  v = b2 v + (1-b2) g^2;  w -= lr m_hat / (sqrt(v_hat) + eps)
//   dropout:  forward draws a Bernoulli mask and scales by it; backward scales by the mask
//   first_touch:  pages written into a fresh mapping ("fresh") and into resident memory
//                 ("warm"): the price of a page a step's or a pass's heap faults again

#include <vector>

#include "primitives.hpp"

namespace dlsim::kernels {

// True for the signatures these loops serve.
bool is_loop_kernel(const Signature& signature);

// "sgd|sgd_momentum|adam fp32 p<parameters> t<tensors> max<elements>": one "update" phase, fused over
// all parameters (the tensor count is not used);
// "dropout fp32 n<batch> e<elements>": "fwd" and "bwd_data";
// "first_touch fp32 n<pages> e<elements per page>": "fresh" and "warm".
std::vector<PhaseKernel> make_loop_kernels(const Signature& signature, bool training);

}  // namespace dlsim::kernels
