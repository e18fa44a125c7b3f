// kernels/ parses back every signature dlsim writes: the contract between the two.
#include <gtest/gtest.h>

#include "graph/kernel_signature.hpp"
#include "graph/zoo.hpp"
#include "signature.hpp"

namespace dlsim {
namespace {

TEST(KernelSignature, EveryZooSignatureParses) {
  for (const auto& name : graph::zoo_names()) {
    const auto g = graph::zoo_model(name);
    for (const auto& node : g.nodes()) {
      const std::string text = graph::kernel_signature(g, node, 8, graph::DataType::fp32);
      if (text.empty()) continue;
      const auto sig = kernels::parse_signature(text);
      EXPECT_EQ(sig.dtype, "fp32") << text;
      EXPECT_EQ(sig.get("n"), 8) << text;
      if (sig.op == "conv2d") {
        EXPECT_EQ(sig.get("c"), g.node(node.inputs[0]).output[0]) << text;
        EXPECT_EQ(sig.list("pad", 4).size(), 4u) << text;
        EXPECT_EQ(sig.list("str", 2).size(), 2u) << text;
      }
      if (sig.op == "concat") {
        EXPECT_EQ(sig.shapes.size(), node.inputs.size()) << text;
      }
    }
  }
}

TEST(KernelSignature, MalformedWordsAreErrors) {
  EXPECT_THROW(kernels::parse_signature("conv2d"), std::invalid_argument);
  EXPECT_THROW(kernels::parse_signature("conv2d fp32 n3x"), std::invalid_argument);
  EXPECT_THROW(kernels::parse_signature("relu fp32 n8").get("e"), std::invalid_argument);
}

}  // namespace
}  // namespace dlsim
