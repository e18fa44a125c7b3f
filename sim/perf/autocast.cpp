#include "perf/autocast.hpp"

#include <fmt/format.h>

namespace dlsim::perf {
namespace {

using graph::OpKind;

// The parameter tensors autocast casts for a layer: its weight, and its bias if it has one.
std::vector<int64_t> weight_tensors(const graph::Graph& graph, const graph::Node& node) {
  const graph::Dims& in = graph.node(node.inputs[0]).output;
  if (node.kind == OpKind::conv) {
    const auto& a = std::get<graph::ConvAttrs>(node.attrs);
    const int64_t weight = a.out_channels * (in[0] / a.groups) * a.window.kernel_h * a.window.kernel_w;
    return a.bias ? std::vector<int64_t>{weight, a.out_channels} : std::vector<int64_t>{weight};
  }
  const auto& a = std::get<graph::LinearAttrs>(node.attrs);
  const int64_t weight = graph::elements(in) * a.out_features;
  return a.bias ? std::vector<int64_t>{weight, a.out_features} : std::vector<int64_t>{weight};
}

}  // namespace

std::string cast_signature(int64_t count, int64_t elements) {
  return fmt::format("cast fp16 n{} e{}", count, elements);
}

void add_autocast_casts(StepPlan& plan, const graph::Graph& graph, int64_t batch, const KernelTimes& times) {
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
      for (int64_t elements : weight_tensors(graph, *node)) cast(call.layer, 1, elements);
    }
    calls.push_back(std::move(call));
  }
  plan.calls = std::move(calls);
}

}  // namespace dlsim::perf
