#include "perf/buckets.hpp"

#include <map>

#include "graph/cost.hpp"

namespace dlsim::perf {

std::vector<GradientBucket> gradient_buckets(const StepPlan& plan, const graph::Graph& graph, double bucket_bytes) {
  std::map<std::string, double> gradient_bytes;  // layer -> bytes of its parameters' gradients
  const auto costs = graph::layer_costs(graph, 1, graph::DataType::fp32);
  for (const auto& node : graph.nodes())
    if (const auto params = costs[static_cast<size_t>(node.id)].params; params > 0)
      gradient_bytes[node.name] = 4.0 * static_cast<double>(params);
  std::map<std::string, size_t> last_backward;  // layer -> its last backward call
  for (size_t i = 0; i < plan.calls.size(); ++i)
    if (plan.calls[i].stage == Stage::backward && gradient_bytes.count(plan.calls[i].layer))
      last_backward[plan.calls[i].layer] = i;
  std::map<size_t, double> ready;  // call index -> gradient bytes complete after it
  for (const auto& [layer, index] : last_backward) ready[index] += gradient_bytes[layer];
  std::vector<GradientBucket> buckets;
  GradientBucket open;
  for (const auto& [index, bytes] : ready) {
    open.bytes += bytes;
    open.ready_after = index;
    if (open.bytes >= bucket_bytes) {
      buckets.push_back(open);
      open = {};
    }
  }
  if (open.bytes > 0) buckets.push_back(open);
  return buckets;
}

}  // namespace dlsim::perf
