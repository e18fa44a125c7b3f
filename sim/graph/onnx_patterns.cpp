#include "graph/onnx_patterns.hpp"

namespace dlsim::graph {
namespace {

// The one node that reads `value`, if it is of type `op`.
const onnx::NodeProto* sole(const Consumers& consumers, const std::string& value, const std::string& op) {
  const auto it = consumers.find(value);
  if (it == consumers.end() || it->second.size() != 1 || !it->second[0]) return nullptr;
  const auto* n = it->second[0];
  return n->op_type() == op && n->output_size() >= 1 ? n : nullptr;
}

// The node's input other than `value` (binary nodes only), or "" where `value` is not one.
std::string other_input(const onnx::NodeProto& n, const std::string& value) {
  if (n.input_size() != 2) return "";
  if (n.input(0) == value) return n.input(1);
  if (n.input(1) == value) return n.input(0);
  return "";
}

bool over_last_axis(const onnx::NodeProto& reduce_mean) {
  for (const auto& a : reduce_mean.attribute())
    if (a.name() == "axes") return a.ints_size() == 1 && a.ints(0) == -1;
  return false;
}

}  // namespace

Consumers consumers_of(const onnx::GraphProto& graph) {
  Consumers consumers;
  for (const auto& n : graph.node())
    for (const auto& in : n.input()) consumers[in].push_back(&n);
  for (const auto& out : graph.output()) consumers[out.name()].push_back(nullptr);
  return consumers;
}

std::map<std::string, ActivationKind> find_gates(const onnx::GraphProto& graph, const Consumers& consumers) {
  std::map<std::string, ActivationKind> gates;
  for (const auto& n : graph.node()) {
    if ((n.op_type() != "Sigmoid" && n.op_type() != "HardSigmoid") || n.input_size() != 1 || n.output_size() != 1)
      continue;
    const auto found = consumers.find(n.output(0));
    if (found == consumers.end()) continue;
    const auto& users = found->second;
    if (users.size() != 1 || !users[0] || users[0]->op_type() != "Mul" || users[0]->input_size() != 2) continue;
    const auto& m = *users[0];
    const bool by_own_input = (m.input(0) == n.input(0) && m.input(1) == n.output(0)) ||
                              (m.input(1) == n.input(0) && m.input(0) == n.output(0));
    if (by_own_input) gates[n.output(0)] = n.op_type() == "Sigmoid" ? ActivationKind::silu : ActivationKind::hardswish;
  }
  return gates;
}

std::map<std::string, FusedChain> find_layer_norms(const onnx::GraphProto& graph, const Consumers& consumers,
                                                   const std::set<std::string>& initializers) {
  std::map<std::string, FusedChain> found;
  for (const auto& mean : graph.node()) {
    if (mean.op_type() != "ReduceMean" || mean.input_size() != 1 || mean.output_size() < 1 || !over_last_axis(mean))
      continue;
    const std::string& x = mean.input(0);
    const auto* centred = sole(consumers, mean.output(0), "Sub");
    if (!centred || centred->input_size() != 2 || centred->input(0) != x || centred->input(1) != mean.output(0))
      continue;
    // The centred values feed the square and the division, in either order.
    const auto users = consumers.find(centred->output(0));
    if (users == consumers.end() || users->second.size() != 2) continue;
    const onnx::NodeProto *square = nullptr, *divide = nullptr;
    for (const auto* u : users->second) {
      if (!u || u->output_size() < 1) continue;
      if (u->op_type() == "Pow") square = u;
      if (u->op_type() == "Div" && u->input_size() == 2 && u->input(0) == centred->output(0)) divide = u;
    }
    if (!square || !divide) continue;
    const auto* variance = sole(consumers, square->output(0), "ReduceMean");
    if (!variance || !over_last_axis(*variance)) continue;
    const auto* plus_eps = sole(consumers, variance->output(0), "Add");
    if (!plus_eps) continue;
    const auto* deviation = sole(consumers, plus_eps->output(0), "Sqrt");
    if (!deviation || divide->input(1) != deviation->output(0)) continue;
    FusedChain chain{x, {mean.output(0), centred->output(0), square->output(0), variance->output(0),
                         plus_eps->output(0), deviation->output(0)}};
    std::string last = divide->output(0);
    if (const auto* scale = sole(consumers, last, "Mul"); scale && initializers.count(other_input(*scale, last))) {
      chain.inner.insert(last);
      last = scale->output(0);
      if (const auto* shift = sole(consumers, last, "Add"); shift && initializers.count(other_input(*shift, last))) {
        chain.inner.insert(last);
        last = shift->output(0);
      }
    }
    found[last] = chain;
  }
  return found;
}

std::map<std::string, FusedChain> find_erf_gelus(const onnx::GraphProto& graph, const Consumers& consumers) {
  std::map<std::string, const onnx::NodeProto*> producer;
  for (const auto& n : graph.node())
    if (n.output_size() >= 1) producer[n.output(0)] = &n;
  std::map<std::string, FusedChain> found;
  for (const auto& erf : graph.node()) {
    if (erf.op_type() != "Erf" || erf.input_size() != 1 || erf.output_size() < 1) continue;
    const auto it = producer.find(erf.input(0));  // Div(x, sqrt(2))
    const onnx::NodeProto* scaled = it == producer.end() ? nullptr : it->second;
    if (!scaled || scaled->op_type() != "Div" || scaled->input_size() != 2) continue;
    const std::string& x = scaled->input(0);
    const auto* plus_one = sole(consumers, erf.output(0), "Add");
    if (!plus_one) continue;
    const auto* times_x = sole(consumers, plus_one->output(0), "Mul");
    if (!times_x || other_input(*times_x, plus_one->output(0)) != x) continue;
    const auto* halved = sole(consumers, times_x->output(0), "Mul");
    if (!halved) continue;
    found[halved->output(0)] = {x, {scaled->output(0), erf.output(0), plus_one->output(0), times_x->output(0)}};
  }
  return found;
}

}  // namespace dlsim::graph
