#include "graph/memory.hpp"

namespace dlsim::graph {

MemoryEstimate training_memory(const Graph& graph, int64_t batch, DataType compute, int optimizer_slots, bool mixed) {
  const auto totals = model_totals(graph, batch, compute);
  const double params = static_cast<double>(totals.params);
  const double state = static_cast<double>(totals.state);
  MemoryEstimate m;
  m.weights_bytes = (params + state) * 4.0 + (mixed ? params * 2.0 : 0.0);
  m.gradients_bytes = params * 4.0;
  m.optimizer_bytes = params * 4.0 * optimizer_slots;
  m.activations_bytes = totals.saved_activation_bytes;
  return m;
}

MemoryEstimate inference_memory(const Graph& graph, int64_t batch, DataType compute) {
  const auto totals = model_totals(graph, batch, compute);
  MemoryEstimate m;
  m.weights_bytes = static_cast<double>(totals.params + totals.state) * bytes_per_element(compute);
  m.activations_bytes = totals.peak_inference_activation_bytes;
  return m;
}

}  // namespace dlsim::graph
