// Chains of ONNX nodes found before import: a malformed node where a chain would start or
// continue (too few inputs or outputs for its type) is no chain, and finding one never reads
// past a node's inputs or outputs (the ONNX fuzzer's crash of 2026-12-02: a layer norm's Sub
// with one input).
#include <gtest/gtest.h>

#include "graph/onnx_patterns.hpp"

namespace dlsim::graph {
namespace {

onnx::NodeProto& add_node(onnx::GraphProto& g, const std::string& op, std::initializer_list<const char*> inputs,
                          std::initializer_list<const char*> outputs) {
  onnx::NodeProto& n = *g.add_node();
  n.set_op_type(op);
  for (const char* in : inputs) n.add_input(in);
  for (const char* out : outputs) n.add_output(out);
  return n;
}

void over_last_axis(onnx::NodeProto& reduce_mean) {
  auto& axes = *reduce_mean.add_attribute();
  axes.set_name("axes");
  axes.add_ints(-1);
}

// x -> ReduceMean -> Sub -> Pow -> ReduceMean -> Add -> Sqrt, and Sub / Sqrt: a layer norm,
// with the Sub given `sub_inputs`.
onnx::GraphProto layer_norm(std::initializer_list<const char*> sub_inputs) {
  onnx::GraphProto g;
  over_last_axis(add_node(g, "ReduceMean", {"x"}, {"mean"}));
  add_node(g, "Sub", sub_inputs, {"centred"});
  add_node(g, "Pow", {"centred", "two"}, {"square"});
  over_last_axis(add_node(g, "ReduceMean", {"square"}, {"variance"}));
  add_node(g, "Add", {"variance", "eps"}, {"plus_eps"});
  add_node(g, "Sqrt", {"plus_eps"}, {"deviation"});
  add_node(g, "Div", {"centred", "deviation"}, {"y"});
  return g;
}

TEST(OnnxPatterns, ALayerNormChainIsFound) {
  const onnx::GraphProto g = layer_norm({"x", "mean"});
  const auto found = find_layer_norms(g, consumers_of(g), {});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found.begin()->first, "y");
  EXPECT_EQ(found.begin()->second.input, "x");
}

TEST(OnnxPatterns, MalformedNodesMakeNoChain) {
  const onnx::GraphProto one_input = layer_norm({"mean"});  // a Sub of one input
  EXPECT_TRUE(find_layer_norms(one_input, consumers_of(one_input), {}).empty());

  onnx::GraphProto no_output;
  over_last_axis(add_node(no_output, "ReduceMean", {"x"}, {}));
  add_node(no_output, "Erf", {"x"}, {});
  EXPECT_TRUE(find_layer_norms(no_output, consumers_of(no_output), {}).empty());
  EXPECT_TRUE(find_erf_gelus(no_output, consumers_of(no_output)).empty());
}

}  // namespace
}  // namespace dlsim::graph
