#include "perf/autocast.hpp"

#include <fmt/format.h>

#include "graph/cost.hpp"

namespace dlsim::perf {
namespace {

using graph::OpKind;

// The parameter tensors autocast casts for a layer: its weight, and its bias if it has one.
std::vector<int64_t> weight_tensors(const graph::LayerCost& cost) {
  std::vector<int64_t> out{cost.largest_param_tensor};
  if (cost.params > cost.largest_param_tensor) out.push_back(cost.params - cost.largest_param_tensor);
  return out;
}

}  // namespace

std::string cast_signature(int64_t count, int64_t elements) {
  return fmt::format("cast fp16 n{} e{}", count, elements);
}

void add_autocast_casts(StepPlan& plan, const graph::Graph& graph, int64_t batch, const KernelTimes& times) {
  const auto costs = graph::layer_costs(graph, 1, graph::DataType::fp32);
  std::vector<KernelCall> calls;
  bool input_cast = false;
  auto cast = [&](const std::string& layer, int64_t count, int64_t elements) {
    const std::string signature = cast_signature(count, elements);
    calls.push_back({Stage::forward, layer, signature, "fwd", times.time(signature, "fwd", 1), 0.0, 0.0});
  };
  for (auto& call : plan.calls) {
    const auto id = call.stage == Stage::forward ? graph.find(call.layer) : std::nullopt;
    const graph::Node* node = id ? &graph.node(*id) : nullptr;
    if (node && (node->kind == OpKind::conv || node->kind == OpKind::linear)) {
      if (!input_cast) {
        cast("input", batch, graph::elements(graph.input_shape()));
        input_cast = true;
      }
      for (int64_t elements : weight_tensors(costs[static_cast<size_t>(node->id)])) cast(call.layer, 1, elements);
    }
    calls.push_back(std::move(call));
  }
  plan.calls = std::move(calls);
}

}  // namespace dlsim::perf
