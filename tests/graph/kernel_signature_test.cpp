#include <gtest/gtest.h>

#include <algorithm>

#include "graph/kernel_signature.hpp"
#include "graph/zoo.hpp"

namespace dlsim::graph {
namespace {

TEST(KernelSignature, ConvolutionNamesEveryDimension) {
  const Graph g = zoo_model("resnet50");
  const Node& n = g.node(*g.find("layer1.0.conv2"));
  EXPECT_EQ(kernel_signature(g, n, 32, DataType::fp16),
            "conv2d fp16 n32 c64 h56 w56 k64 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1");
  const Node& fc = g.node(*g.find("fc"));
  EXPECT_EQ(kernel_signature(g, fc, 8, DataType::fp32), "linear fp32 n8 in2048 out1000 bias");
  EXPECT_EQ(kernel_signature(g, g.node(*g.find("flatten")), 8, DataType::fp32), "");
}

TEST(KernelSignature, AProductNamesItsFactorsSize) {
  Graph g("t");
  auto x = g.input("x", {8, 4, 4});
  auto pooled = g.global_pool("pooled", x);
  EXPECT_EQ(kernel_signature(g, g.node(g.mul("scaled", x, pooled)), 2, DataType::fp32), "mul fp32 n2 e128 c8");
  EXPECT_EQ(kernel_signature(g, g.node(g.mul("squared", x, x)), 2, DataType::fp32), "mul fp32 n2 e128 c128");
}

TEST(KernelSignature, AShuffleIsAKernelASliceIsNot) {
  Graph g("t");
  auto x = g.input("x", {8, 4, 4});
  EXPECT_EQ(kernel_signature(g, g.node(g.slice("half", x, 0, 4)), 2, DataType::fp32), "");
  EXPECT_EQ(kernel_signature(g, g.node(g.channel_shuffle("shuffled", x, 2)), 2, DataType::fp32),
            "channel_shuffle fp32 n2 c8 hw16 g2");
}

TEST(KernelSignature, RepeatedLayersShareASignature) {
  const Graph g = zoo_model("resnet50");
  const auto a = kernel_signature(g, g.node(*g.find("layer1.1.conv2")), 16, DataType::fp32);
  const auto b = kernel_signature(g, g.node(*g.find("layer1.2.conv2")), 16, DataType::fp32);
  EXPECT_EQ(a, b);
}

// system.cpu_pace_by_op takes the operators kernel_operators() lists: every network of the
// zoo names none other.
TEST(KernelSignature, EveryZooKernelNamesAKnownOperator) {
  const auto known = kernel_operators();
  EXPECT_TRUE(std::is_sorted(known.begin(), known.end()));
  for (const auto& name : zoo_names()) {
    const Graph g = zoo_model(name);
    for (const auto& node : g.nodes()) {
      const std::string signature = kernel_signature(g, node, 2, DataType::fp32);
      if (signature.empty()) continue;
      EXPECT_TRUE(std::binary_search(known.begin(), known.end(), signature_operator(signature)))
          << name << ": " << signature;
    }
  }
  EXPECT_EQ(signature_operator("linear fp32 n8 in2048 out1000 bias"), "linear");
}

}  // namespace
}  // namespace dlsim::graph
