#pragma once
// Device memory of a training step or an inference pass, before any framework overhead:
//   training  = weights + gradients + optimizer state (FP32 master copies)
//               + an FP16 copy of the weights under mixed precision
//               + activations kept for backward at the compute type
//   inference = weights at the compute type + the largest live set of activations
// Workspace (cuDNN, oneDNN scratch) and the framework's allocator slack come from a
// calibration profile, not from here.

#include "graph/cost.hpp"

namespace dlsim::graph {

struct MemoryEstimate {
  double weights_bytes = 0;
  double gradients_bytes = 0;
  double optimizer_bytes = 0;
  double activations_bytes = 0;
  double total_bytes() const { return weights_bytes + gradients_bytes + optimizer_bytes + activations_bytes; }
};

// optimizer_slots: FP32 tensors of state per parameter (SGD 0, momentum 1, Adam 2).
// mixed: FP32 master weights plus FP16 working copies (AMP).
MemoryEstimate training_memory(const Graph& graph, int64_t batch, DataType compute, int optimizer_slots, bool mixed);
MemoryEstimate inference_memory(const Graph& graph, int64_t batch, DataType compute);

}  // namespace dlsim::graph
