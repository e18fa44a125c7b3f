#include <gtest/gtest.h>

#include "graph/zoo.hpp"
#include "perf/buckets.hpp"
#include "support/plan_calls.hpp"

namespace dlsim::perf {
namespace {

// A plan whose every call takes one microsecond: only the order matters here.
StepPlan plan_of(const graph::Graph& g) {
  StepPlan plan;
  for (const auto& node : g.nodes()) plan.calls.push_back(testing::call(Stage::forward, 1e-6, node.name));
  for (auto it = g.nodes().rbegin(); it != g.nodes().rend(); ++it)
    plan.calls.push_back(testing::call(Stage::backward, 1e-6, it->name, "bwd_weights"));
  plan.calls.push_back(testing::call(Stage::update, 1e-6, "optimizer", "update"));
  return plan;
}

TEST(GradientBuckets, HoldEveryGradientOnceInBackwardOrder) {
  const auto g = graph::zoo_model("vgg16");
  const auto plan = plan_of(g);
  const auto buckets = gradient_buckets(plan, g, 25.0 * 1024 * 1024);
  double total = 0;
  for (size_t i = 0; i < buckets.size(); ++i) {
    total += buckets[i].bytes;
    if (i + 1 < buckets.size()) {
      EXPECT_GE(buckets[i].bytes, 25.0 * 1024 * 1024);
      EXPECT_LT(buckets[i].ready_after, buckets[i + 1].ready_after);
    }
    EXPECT_EQ(plan.calls[buckets[i].ready_after].stage, Stage::backward);
  }
  EXPECT_DOUBLE_EQ(total, 4.0 * 138357544);  // VGG-16's parameters, fp32
  // Backward reaches the classifier first: the first bucket holds fc8 and fc7 (16.4 + 67.1 MB).
  EXPECT_NEAR(buckets.front().bytes, 4.0 * (4097000 + 16781312), 1.0);
}

}  // namespace
}  // namespace dlsim::perf
