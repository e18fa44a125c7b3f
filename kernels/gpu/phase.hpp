#pragma once
// One timed thing: a signature's kernel in one phase, its buffers and descriptors set up,
// ready to be enqueued again and again.

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "gpu_context.hpp"
#include "signature.hpp"

namespace dlsim::kernels::gpu {

struct PhaseKernel {
  // Enqueues one call on the context's stream (a phase may be several library calls, as a
  // convolution with bias is the convolution and the bias add).  It holds what it works on
  // (buffers, descriptors), released with the kernel.
  std::function<void()> launch;
  // True when the host does part of the work (copies from pageable memory): the call is
  // timed from an idle stream, host time included.
  bool host_work = false;
  std::map<std::string, double> counters;  // e.g. algo, workspace_bytes
  std::string label;                       // e.g. the algorithm's name
};

// Whether a layer's phase is its backward (bwd_data), not its forward.
inline bool is_backward(const std::string& phase) { return phase == "bwd_data"; }

// The phases measured for a signature: fwd, bwd_data, bwd_weights, update, or a copy's
// directions.  Throws std::invalid_argument for an operator the suite does not know.
std::vector<std::string> phases_of(const Signature& signature, bool training);

// Builds one phase (allocations, algorithm search).  Throws std::runtime_error with the
// library's error when the GPU cannot run it.
PhaseKernel make_phase(const Signature& signature, const std::string& phase, const GpuContext& gpu);

}  // namespace dlsim::kernels::gpu
