#include "perf/buckets.hpp"

#include <algorithm>
#include <map>

#include "graph/cost.hpp"

namespace dlsim::perf {

std::vector<Gradient> gradients(const StepPlan& plan, const graph::Graph& graph) {
  std::map<std::string, double> gradient_bytes;  // layer -> bytes of its parameters' gradients
  const auto costs = graph::layer_costs(graph, 1, graph::DataType::fp32);
  for (const auto& node : graph.nodes())
    if (const auto params = costs[static_cast<size_t>(node.id)].params; params > 0)
      gradient_bytes[node.name] = 4.0 * static_cast<double>(params);
  std::map<std::string, size_t> last_backward;  // layer -> its last backward call
  for (size_t i = 0; i < plan.calls.size(); ++i)
    if (plan.calls[i].stage == Stage::backward && gradient_bytes.count(plan.calls[i].layer))
      last_backward[plan.calls[i].layer] = i;
  std::vector<Gradient> out;
  for (const auto& [layer, index] : last_backward) out.push_back({layer, gradient_bytes[layer], index});
  std::stable_sort(out.begin(), out.end(), [](const Gradient& a, const Gradient& b) { return a.ready_after < b.ready_after; });
  return out;
}

std::vector<GradientBucket> gradient_buckets(const StepPlan& plan, const graph::Graph& graph, double bucket_bytes) {
  std::vector<GradientBucket> buckets;
  GradientBucket open;
  for (const auto& g : gradients(plan, graph)) {
    if (open.bytes > 0 && g.ready_after != open.ready_after && open.bytes >= bucket_bytes) {
      buckets.push_back(open);
      open = {};
    }
    open.bytes += g.bytes;
    open.ready_after = g.ready_after;
  }
  if (open.bytes > 0) buckets.push_back(open);
  return buckets;
}

}  // namespace dlsim::perf
