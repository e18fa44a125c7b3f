#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

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

double total_bytes(const std::vector<GradientBucket>& buckets) {
  double total = 0;
  for (const auto& b : buckets) total += b.bytes;
  return total;
}

TEST(CycleBuckets, ACycleLongerThanTheStepFusesEverythingInBuffersOfTheThreshold) {
  // Every call takes 1 us; a 1 s cycle ticks once, after backward: all of VGG-16's 553 MB
  // go then, in fused buffers of at most 64 MiB (a larger gradient, fc6's or fc7's, alone).
  const auto g = graph::zoo_model("vgg16");
  const auto plan = plan_of(g);
  const double fusion = 64.0 * 1024 * 1024;
  const auto buckets = cycle_buckets(plan, g, 1.0, fusion);
  EXPECT_DOUBLE_EQ(total_bytes(buckets), 4.0 * 138357544);
  std::set<double> alone;
  for (const auto& gradient : gradients(plan, g))
    if (gradient.bytes > fusion) alone.insert(gradient.bytes);
  EXPECT_EQ(alone, (std::set<double>{4.0 * (4096 * 4096 + 4096), 4.0 * (25088 * 4096 + 4096)}));
  for (const auto& b : buckets) {
    // After backward's last call, waiting for the tick; the optimizer comes after them all.
    EXPECT_EQ(b.ready_after, plan.calls.size() - 2);
    EXPECT_DOUBLE_EQ(b.not_before_s, 1.0);
    EXPECT_TRUE(b.bytes <= fusion || alone.count(b.bytes)) << b.bytes;
  }
  EXPECT_GT(buckets.size(), 3u);
}

TEST(CycleBuckets, AShortCycleSendsEachGradientAfterTheKernelRunningAtItsTick) {
  // A cycle of sqrt(2) us never ticks exactly as a call ends.  A gradient ready at the end
  // of call i (time i + 1 us) goes at the next tick, after the call running then; no
  // fusion limit here.
  const auto g = graph::zoo_model("vgg16");
  const auto plan = plan_of(g);
  const double cycle = std::sqrt(2.0) * 1e-6;
  const auto buckets = cycle_buckets(plan, g, cycle, 1e12);
  EXPECT_DOUBLE_EQ(total_bytes(buckets), 4.0 * 138357544);
  const auto ready = gradients(plan, g);
  size_t next = 0;
  for (const auto& b : buckets) {
    const double end = static_cast<double>(ready[next].ready_after + 1) * 1e-6;
    const double tick = std::ceil(end / cycle) * cycle;
    EXPECT_EQ(b.ready_after, std::min(static_cast<size_t>(std::ceil(tick / 1e-6)) - 1, plan.calls.size() - 2))
        << "tick " << tick;
    double bytes = 0;
    while (next < ready.size() && static_cast<double>(ready[next].ready_after + 1) * 1e-6 <= tick)
      bytes += ready[next++].bytes;
    EXPECT_DOUBLE_EQ(b.bytes, bytes);
  }
  EXPECT_EQ(next, ready.size());
}

}  // namespace
}  // namespace dlsim::perf
