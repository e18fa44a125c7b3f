#include "perf/buckets.hpp"

#include <algorithm>
#include <cmath>
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

std::vector<GradientBucket> cycle_buckets(const StepPlan& plan, const graph::Graph& graph, double cycle_s,
                                          double fusion_bytes) {
  std::vector<double> end;  // each call's end, from the step's start
  for (const auto& call : plan.calls) end.push_back((end.empty() ? 0 : end.back()) + call.device_seconds());
  // The optimizer waits for every buffer: a tick after backward sends after its last call.
  size_t last_backward = 0;
  for (size_t i = 0; i < plan.calls.size(); ++i)
    if (plan.calls[i].stage != Stage::update) last_backward = i;
  const auto running_at = [&](double t) {
    const auto it = std::lower_bound(end.begin(), end.begin() + static_cast<long>(last_backward) + 1, t);
    return static_cast<size_t>(it - end.begin());
  };
  const auto ready = gradients(plan, graph);
  std::vector<GradientBucket> buckets;
  for (size_t next = 0; next < ready.size();) {
    // The first tick at or after the next gradient's end.
    const double tick = std::ceil(end[ready[next].ready_after] / cycle_s) * cycle_s;
    const size_t after = std::min(running_at(tick), last_backward);
    const GradientBucket empty{0, after, tick > end[last_backward] ? tick : 0};
    GradientBucket open = empty;
    for (; next < ready.size() && end[ready[next].ready_after] <= tick; ++next) {
      if (open.bytes > 0 && open.bytes + ready[next].bytes > fusion_bytes) {
        buckets.push_back(open);
        open = empty;
      }
      open.bytes += ready[next].bytes;
    }
    buckets.push_back(open);
  }
  return buckets;
}

}  // namespace dlsim::perf
