// Costs of tiny graphs computed by hand.
#include <gtest/gtest.h>

#include "graph/cost.hpp"

namespace dlsim::graph {
namespace {

TEST(Cost, ConvolutionFlopsParamsAndBytesByHand) {
  Graph g("t");
  auto x = g.input("x", {3, 8, 8});
  ConvAttrs a;
  a.out_channels = 4;
  a.window.kernel_h = a.window.kernel_w = 3;
  a.window.pad_top = a.window.pad_left = a.window.pad_bottom = a.window.pad_right = 1;
  a.bias = true;
  auto c = g.conv("c", x, a);
  auto r = g.relu("r", c);
  auto c2 = g.conv("c2", r, a);
  (void)c2;
  const auto costs = layer_costs(g, 2, DataType::fp32);
  const auto& k = costs[static_cast<size_t>(c)];
  // output 4x8x8 = 256 elements, each 3*3*3 = 27 MACs: 6912 MACs per sample, 13824 for batch 2
  EXPECT_EQ(k.macs, 13824);
  EXPECT_EQ(k.params, 4 * 27 + 4);
  EXPECT_DOUBLE_EQ(k.forward_flops, 2 * 13824 + 2 * 256);
  EXPECT_DOUBLE_EQ(k.backward_data_flops, 0);  // the graph input needs no gradient
  EXPECT_DOUBLE_EQ(k.backward_weights_flops, 2 * 13824 + 2 * 256);
  EXPECT_DOUBLE_EQ(k.forward_bytes_read, (2 * 3 * 64 + 112) * 4.0);
  EXPECT_DOUBLE_EQ(k.forward_bytes_written, 2 * 256 * 4.0);
  // c2 computes a data gradient
  EXPECT_GT(costs[static_cast<size_t>(c2)].backward_data_flops, 0);
  // The conv output is not kept (in-place ReLU keeps its own output, which c2 also keeps):
  EXPECT_DOUBLE_EQ(k.saved_activation_bytes, 0);
  EXPECT_DOUBLE_EQ(costs[static_cast<size_t>(r)].saved_activation_bytes, 2 * 256 * 4.0);
}

TEST(Cost, HalfPrecisionHalvesBytesNotFlops) {
  Graph g("t");
  auto x = g.input("x", {16});
  g.linear("fc", x, 8);
  const auto f32 = layer_costs(g, 4, DataType::fp32)[1];
  const auto f16 = layer_costs(g, 4, DataType::fp16)[1];
  EXPECT_DOUBLE_EQ(f32.forward_flops, f16.forward_flops);
  EXPECT_DOUBLE_EQ(f32.forward_bytes_written, 2 * f16.forward_bytes_written);
  EXPECT_EQ(f32.params, 16 * 8 + 8);
}

TEST(Cost, BatchNormParamsAndStateArePerChannel) {
  Graph g("t");
  auto x = g.input("x", {5, 2, 2});
  auto bn = g.batch_norm("bn", x);
  const auto c = layer_costs(g, 1, DataType::fp32)[static_cast<size_t>(bn)];
  EXPECT_EQ(c.params, 10);
  EXPECT_EQ(c.state, 10);
}

// A linear layer over each of 3x3 positions: 4 -> 6 channels, 24 weights and 6 biases; a
// layer norm's scale and shift and a layer scale's factor are one value per channel.
TEST(Cost, ChannelsLastLayersCountTheirWeightsOnce) {
  Graph g("t");
  auto x = g.input("x", {4, 3, 3});
  auto up = g.linear_each_position("up", x, 6);
  auto norm = g.layer_norm("norm", up);
  auto scale = g.channel_scale("scale", norm);
  const auto costs = layer_costs(g, 2, DataType::fp32);
  const auto& l = costs[static_cast<size_t>(up)];
  EXPECT_EQ(l.params, 4 * 6 + 6);
  EXPECT_EQ(l.macs, 2 * 9 * 4 * 6);
  EXPECT_EQ(l.largest_param_tensor, 24);
  EXPECT_EQ(costs[static_cast<size_t>(norm)].params, 12);
  EXPECT_EQ(costs[static_cast<size_t>(scale)].params, 6);
  EXPECT_DOUBLE_EQ(costs[static_cast<size_t>(scale)].backward_weights_flops, 2 * 2 * 54);
}

// A squeeze-and-excitation product: 2x3x3 features times one factor per channel.
TEST(Cost, AProductKeepsBothOperandsAndComputesBothGradients) {
  Graph g("t");
  auto x = g.input("x", {2, 3, 3});
  auto r = g.activation("r", x, ActivationKind::hardswish);
  auto s = g.global_pool("s", r);
  auto gate = g.activation("gate", s, ActivationKind::hardsigmoid);
  auto m = g.mul("m", r, gate);
  EXPECT_EQ(to_string(g.node(m).output), "2x3x3");
  const auto costs = layer_costs(g, 2, DataType::fp32);
  const auto& c = costs[static_cast<size_t>(m)];
  EXPECT_DOUBLE_EQ(c.forward_flops, 2 * 18);
  EXPECT_DOUBLE_EQ(c.backward_data_flops, 2 * 2 * 18);  // g * factor, and g * x summed per channel
  EXPECT_DOUBLE_EQ(c.forward_bytes_read, 2 * (18 + 2) * 4.0);
  EXPECT_EQ(c.params, 0);
  // Both operands are kept for backward: the features (against r) and the factors (gate).
  EXPECT_DOUBLE_EQ(costs[static_cast<size_t>(r)].saved_activation_bytes, 2 * 18 * 4.0);
  EXPECT_DOUBLE_EQ(costs[static_cast<size_t>(gate)].saved_activation_bytes, 2 * 2 * 4.0);
}

// A slice is a view (no bytes moved, no storage of its own); a shuffle copies its input.
TEST(Cost, ASliceMovesNothingAShuffleCopiesOnce) {
  Graph g("t");
  auto x = g.input("x", {8, 4, 4});
  auto half = g.slice("half", x, 4, 8);
  auto shuffled = g.channel_shuffle("shuffled", g.relu("r", half), 2);
  const auto costs = layer_costs(g, 2, DataType::fp32);
  const auto& s = costs[static_cast<size_t>(half)];
  EXPECT_DOUBLE_EQ(s.forward_bytes_read + s.forward_bytes_written + s.output_bytes, 0.0);
  const auto& c = costs[static_cast<size_t>(shuffled)];
  EXPECT_DOUBLE_EQ(c.forward_flops, 0.0);
  EXPECT_DOUBLE_EQ(c.forward_bytes_read, 2 * 64 * 4.0);
  EXPECT_DOUBLE_EQ(c.forward_bytes_written, 2 * 64 * 4.0);
}

TEST(Cost, InferencePeakCountsLiveTensorsOnly) {
  Graph g("t");
  auto x = g.input("x", {100});
  auto a = g.relu("a", x);   // x (100) + a (100) live
  auto b = g.relu("b", a);   // x dead after a; a + b live
  g.add("c", {a, b});        // a + b + c live = 300
  const auto t = model_totals(g, 1, DataType::fp32);
  EXPECT_DOUBLE_EQ(t.peak_inference_activation_bytes, 300 * 4.0);
}

TEST(Cost, TrainOnlyNodesCountParamsButNotInferenceFlops) {
  Graph g("t");
  auto x = g.input("x", {10});
  g.linear("main", x, 10);
  g.set_train_only(true);
  g.linear("aux", x, 10);
  g.set_train_only(false);
  const auto t = model_totals(g, 1, DataType::fp32);
  EXPECT_EQ(t.params, 2 * 110);
  EXPECT_EQ(t.macs_per_sample, 100);
}

}  // namespace
}  // namespace dlsim::graph
