#include <gtest/gtest.h>

#include <map>

#include "graph/zoo.hpp"
#include "perf/engine.hpp"
#include "support/plan_calls.hpp"

namespace dlsim::perf {
namespace {

std::map<graph::OpKind, int> count_by_kind(const graph::Graph& g, bool fused) {
  std::map<graph::OpKind, int> n;
  for (const auto& node : g.nodes())
    if (fused_by_engine(g, node) == fused) ++n[node.kind];
  return n;
}

TEST(Engine, FoldsResNet50sBatchNormsActivationsAndAdditionsIntoItsConvolutions) {
  const auto g = graph::zoo_model("resnet50");
  auto fused = count_by_kind(g, true);
  auto kept = count_by_kind(g, false);
  // 53 convolutions, each followed by a batch norm; 16 residual additions; 49 ReLUs, all
  // after a batch norm or an addition.
  EXPECT_EQ(fused[graph::OpKind::batch_norm], 53);
  EXPECT_EQ(fused[graph::OpKind::add], 16);
  EXPECT_EQ(fused[graph::OpKind::activation], 49);
  EXPECT_EQ(kept[graph::OpKind::batch_norm], 0);
  EXPECT_EQ(kept[graph::OpKind::activation], 0);
  // What no convolution's epilogue can hold stays.
  EXPECT_EQ(kept[graph::OpKind::conv], 53);
  EXPECT_EQ(kept[graph::OpKind::pool], 1);
  EXPECT_EQ(fused[graph::OpKind::pool], 0);
}

TEST(Engine, KeepsWhatFollowsAPoolOrAConcatenation) {
  // DenseNet's pattern: branches meet in a concatenation, then batch norm and ReLU, which
  // no convolution produces; a ReLU after a pool likewise.  A ReLU after a fully connected
  // layer fuses into its GEMM.
  graph::Graph g("tiny");
  const auto x = g.input("input", {3, 8, 8});
  graph::ConvAttrs c;
  c.out_channels = 4;
  const auto a = g.conv("a", x, c);
  const auto b = g.conv("b", x, c);
  const auto cat = g.concat("cat", {a, b});
  const auto bn = g.batch_norm("cat.bn", cat);
  g.relu("cat.relu", bn);
  graph::PoolAttrs p;
  p.window.kernel_h = p.window.kernel_w = p.window.stride_h = p.window.stride_w = 2;
  const auto pooled = g.pool("pool", a, p);
  g.relu("pool.relu", pooled);
  const auto fc = g.linear("fc", g.flatten("flat", b), 10);
  g.relu("fc.relu", fc);
  for (const char* kept : {"cat.bn", "cat.relu", "pool.relu", "cat", "pool"})
    EXPECT_FALSE(fused_by_engine(g, g.node(*g.find(kept)))) << kept;
  EXPECT_TRUE(fused_by_engine(g, g.node(*g.find("fc.relu"))));
}

TEST(Engine, DropsTheFusedLayersCallsFromAPlan) {
  const auto g = graph::zoo_model("resnet50");
  StepPlan plan;
  for (const auto& node : g.nodes()) plan.calls.push_back(testing::call(Stage::forward, 1e-6, node.name));
  const size_t before = plan.calls.size();
  fuse_for_engine(plan, g);
  EXPECT_EQ(before - plan.calls.size(), 53u + 16u + 49u);
  for (const auto& call : plan.calls) EXPECT_FALSE(fused_by_engine(g, g.node(*g.find(call.layer)))) << call.layer;
}

}  // namespace
}  // namespace dlsim::perf
