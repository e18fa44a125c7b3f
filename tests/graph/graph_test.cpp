#include <gtest/gtest.h>

#include "graph/graph.hpp"

namespace dlsim::graph {
namespace {

ConvAttrs conv(int64_t out, int k, int stride = 1, int pad = 0, int dilation = 1, int64_t groups = 1) {
  ConvAttrs a;
  a.out_channels = out;
  a.window.kernel_h = a.window.kernel_w = k;
  a.window.stride_h = a.window.stride_w = stride;
  a.window.pad_top = a.window.pad_left = a.window.pad_bottom = a.window.pad_right = pad;
  a.dilation_h = a.dilation_w = dilation;
  a.groups = groups;
  return a;
}

TEST(Graph, ConvolutionShapeFollowsTheFormula) {
  Graph g("t");
  auto x = g.input("x", {3, 224, 224});
  // floor((224 + 2*3 - 7) / 2) + 1 = 112
  EXPECT_EQ(g.node(g.conv("c1", x, conv(64, 7, 2, 3))).output, (Dims{64, 112, 112}));
  // dilation 2 widens a 3x3 kernel to 5x5: 224 - 4 = 220
  EXPECT_EQ(g.node(g.conv("c2", x, conv(8, 3, 1, 0, 2))).output, (Dims{8, 220, 220}));
}

TEST(Graph, GroupsMustDivideChannels) {
  Graph g("t");
  auto x = g.input("x", {6, 8, 8});
  EXPECT_NO_THROW(g.conv("dw", x, conv(6, 3, 1, 1, 1, 6)));
  EXPECT_THROW(g.conv("bad", x, conv(6, 3, 1, 1, 1, 4)), GraphError);
}

TEST(Graph, CeilModePoolingFollowsPyTorch) {
  Graph g("t");
  auto x = g.input("x", {4, 112, 112});
  PoolAttrs p;
  p.window.kernel_h = p.window.kernel_w = 3;
  p.window.stride_h = p.window.stride_w = 2;
  p.ceil_mode = true;
  EXPECT_EQ(g.node(g.pool("p", x, p)).output, (Dims{4, 56, 56}));
  p.ceil_mode = false;
  EXPECT_EQ(g.node(g.pool("q", x, p)).output, (Dims{4, 55, 55}));
}

TEST(Graph, ConcatAddsChannelsAndChecksTheRest) {
  Graph g("t");
  auto a = g.input("a", {4, 8, 8});
  auto b = g.conv("b", a, conv(6, 1));
  EXPECT_EQ(g.node(g.concat("c", {a, b})).output, (Dims{10, 8, 8}));
  auto small = g.conv("s", a, conv(4, 2, 2));
  EXPECT_THROW(g.concat("bad", {a, small}), GraphError);
  EXPECT_THROW(g.add("bad_add", {a, small}), GraphError);
}

TEST(Graph, AFactorHasTheTensorsShapeOrOneValuePerChannel) {
  Graph g("t");
  auto x = g.input("x", {8, 4, 4});
  auto pooled = g.global_pool("pooled", x);
  EXPECT_EQ(to_string(g.node(g.mul("scaled", x, pooled)).output), "8x4x4");
  EXPECT_EQ(to_string(g.node(g.mul("squared", x, x)).output), "8x4x4");
  EXPECT_EQ(to_string(g.node(g.mul("flat", x, g.flatten("f", pooled))).output), "8x4x4");
  auto wrong = g.conv("wrong", x, ConvAttrs{4, {}, 1, 1, 1, false});
  EXPECT_THROW(g.mul("bad", x, wrong), GraphError);         // 4x4x4 is neither 8x4x4 nor 8x1x1
  EXPECT_THROW(g.mul("backwards", pooled, x), GraphError);  // the tensor comes first
}

// ShuffleNet's unit: half the channels as a view, the halves joined and shuffled.
TEST(Graph, ASliceIsAChannelRangeAndAShuffleKeepsTheShape) {
  Graph g("t");
  auto x = g.input("x", {8, 4, 4});
  EXPECT_EQ(to_string(g.node(g.slice("low", x, 0, 4)).output), "4x4x4");
  EXPECT_EQ(to_string(g.node(g.slice("high", x, 4, 8)).output), "4x4x4");
  EXPECT_THROW(g.slice("empty", x, 4, 4), GraphError);
  EXPECT_THROW(g.slice("past", x, 4, 9), GraphError);
  EXPECT_THROW(g.slice("flat", g.flatten("f", x), 0, 4), GraphError);
  EXPECT_EQ(to_string(g.node(g.channel_shuffle("shuffled", x, 2)).output), "8x4x4");
  EXPECT_THROW(g.channel_shuffle("uneven", x, 3), GraphError);
}

TEST(Graph, LinearNeedsAFlatInput) {
  Graph g("t");
  auto x = g.input("x", {4, 2, 2});
  EXPECT_THROW(g.linear("fc", x, 10), GraphError);
  auto f = g.flatten("f", x);
  EXPECT_EQ(g.node(g.linear("fc", f, 10)).output, (Dims{10}));
}

// A channels-last block's layers: a linear layer maps each position's channels, a layer norm
// and a layer scale keep the shape; each wants a CxHxW map.
TEST(Graph, ChannelsLastLayersKeepThePositions) {
  Graph g("t");
  auto x = g.input("x", {4, 3, 5});
  EXPECT_EQ(g.node(g.linear_each_position("up", x, 16)).output, (Dims{16, 3, 5}));
  EXPECT_EQ(g.node(g.layer_norm("norm", x)).output, (Dims{4, 3, 5}));
  EXPECT_EQ(g.node(g.channel_scale("scale", x)).output, (Dims{4, 3, 5}));
  auto f = g.flatten("f", x);
  EXPECT_THROW(g.linear_each_position("flat", f, 16), GraphError);
  EXPECT_THROW(g.channel_scale("flat_scale", f), GraphError);
  EXPECT_THROW(g.linear_each_position("none", x, 0), GraphError);
  EXPECT_THROW(g.linear_each_position("huge", x, kMaxDim + 1), GraphError);
}

TEST(Graph, NamesAreUniqueAndKernelsMustFit) {
  Graph g("t");
  auto x = g.input("x", {3, 4, 4});
  g.relu("r", x);
  EXPECT_THROW(g.relu("r", x), GraphError);
  EXPECT_THROW(g.conv("big", x, conv(8, 7)), GraphError);
  EXPECT_THROW(g.dropout("d", x, 1.0), GraphError);
}

}  // namespace
}  // namespace dlsim::graph
