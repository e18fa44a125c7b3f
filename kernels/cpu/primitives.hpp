#pragma once
// oneDNN primitives for the kernels of a training or inference step, one per signature and
// phase, as a framework runs them: convolution and inner product with the memory formats
// oneDNN prefers (format "any") plus the reorders it then needs from and to plain NCHW;
// pooling, batch norm, element-wise, binary add, softmax, LRN and concat on plain NCHW;
// the optimizer updates as the vectorised loops frameworks use.

#include <memory>
#include <string>
#include <vector>

#include <dnnl.hpp>

#include "signature.hpp"

namespace dlsim::kernels {

class Kernel {
 public:
  virtual ~Kernel() = default;
  // Runs the kernel once and waits for it.
  virtual void run() = 0;
};

struct PhaseKernel {
  std::string phase;  // "fwd", "bwd_data", "bwd_weights", "reorder_src", ...
  std::unique_ptr<Kernel> kernel;
};

// Every phase of the signature's kernel.  Throws std::invalid_argument for a signature
// oneDNN has no primitive for, naming it.
std::vector<PhaseKernel> make_kernels(const Signature& signature, const dnnl::engine& engine, dnnl::stream& stream,
                                      bool training);

}  // namespace dlsim::kernels
