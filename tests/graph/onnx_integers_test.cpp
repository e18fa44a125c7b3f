// Shape arithmetic as torch.onnx writes it for torch.chunk's bounds, and Reshape targets.
#include <gtest/gtest.h>

#include "graph/onnx_integers.hpp"

namespace dlsim::graph {
namespace {

TEST(OnnxIntegers, ChunkBoundsFromAShape) {
  const Integers shape{1, 116, 28, 28};
  const auto channels = integer_op("Gather", {shape, {1}}, 0);
  ASSERT_TRUE(channels);
  EXPECT_EQ(*channels, (Integers{116}));
  const auto half = integer_op("Div", {*integer_op("Add", {*channels, {1}}, 0), {2}}, 0);
  EXPECT_EQ(*half, (Integers{58}));
  EXPECT_EQ(*integer_op("Mul", {*half, {2}}, 0), (Integers{116}));
  EXPECT_EQ(*integer_op("Sub", {Integers{5, 6}, {1}}, 0), (Integers{4, 5}));
  EXPECT_EQ(*integer_op("Add", {Integers{}, {1}}, 0), Integers{});  // a single value over none
  EXPECT_EQ(*integer_op("Mul", {Integers{3}, {}}, 0), Integers{});
  EXPECT_EQ(*integer_op("Concat", {{1}, {-1}, {28, 28}}, 0), (Integers{1, -1, 28, 28}));
  EXPECT_EQ(*integer_op("Gather", {shape, {-1}}, 0), (Integers{28}));
  EXPECT_EQ(*integer_op("Unsqueeze", {{58}, {0}}, 0), (Integers{58}));
  EXPECT_FALSE(integer_op("Relu", {{1}}, 0));  // not shape arithmetic
}

TEST(OnnxIntegers, BadArithmeticSaysWhy) {
  EXPECT_THROW(integer_op("Div", {{1}, {0}}, 0), std::invalid_argument);
  EXPECT_THROW(integer_op("Gather", {{1, 2}, {2}}, 0), std::invalid_argument);
  EXPECT_THROW(integer_op("Gather", {{1, 2}, {0}}, 1), std::invalid_argument);
  EXPECT_THROW(integer_op("Add", {{1, 2}, {1, 2, 3}}, 0), std::invalid_argument);
  EXPECT_THROW(integer_op("Mul", {{INT64_MAX}, {2}}, 0), std::invalid_argument);
  EXPECT_THROW(integer_op("Div", {{INT64_MIN}, {-1}}, 0), std::invalid_argument);
}

TEST(OnnxIntegers, ReshapeTargetsKeepAndInfer) {
  const Integers x{1, 116, 28, 28};
  EXPECT_EQ(reshape_target(x, {1, 2, 58, 28, 28}), (Integers{1, 2, 58, 28, 28}));
  EXPECT_EQ(reshape_target(x, {0, -1}), (Integers{1, 90944}));
  EXPECT_EQ(reshape_target(x, {1, -1, 28, 28}), (Integers{1, 116, 28, 28}));
  EXPECT_THROW(reshape_target(x, {1, 3, -1}), std::invalid_argument);    // 3 does not divide
  EXPECT_THROW(reshape_target(x, {-1, -1}), std::invalid_argument);
  EXPECT_THROW(reshape_target(x, {1, 116, 28}), std::invalid_argument);  // elements differ
  EXPECT_THROW(reshape_target(x, {1, -2}), std::invalid_argument);
  EXPECT_THROW(reshape_target({1, 2}, {0, 0, 0}), std::invalid_argument);  // no axis 2 to keep
}

}  // namespace
}  // namespace dlsim::graph
