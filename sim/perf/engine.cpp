#include "perf/engine.hpp"

#include <algorithm>

namespace dlsim::perf {

using graph::OpKind;

bool fused_by_engine(const graph::Graph& graph, const graph::Node& node) {
  const bool epilogue = node.kind == OpKind::batch_norm || node.kind == OpKind::activation || node.kind == OpKind::add;
  if (!epilogue || node.inputs.empty()) return false;
  // A residual addition fuses into the convolution producing either operand (the other is
  // read in the epilogue); batch norm and activations into their one producer.
  return std::any_of(node.inputs.begin(), node.inputs.end(), [&](graph::NodeId in) {
    const graph::Node& producer = graph.node(in);
    return producer.kind == OpKind::conv || producer.kind == OpKind::linear || fused_by_engine(graph, producer);
  });
}

void fuse_for_engine(StepPlan& plan, const graph::Graph& graph) {
  std::erase_if(plan.calls, [&](const KernelCall& call) {
    const auto id = graph.find(call.layer);
    return id && fused_by_engine(graph, graph.node(*id));
  });
}

}  // namespace dlsim::perf
