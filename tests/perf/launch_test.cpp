#include <gtest/gtest.h>

#include "perf/launch.hpp"
#include "support/plan_calls.hpp"

namespace dlsim::perf {
namespace {

using testing::call;

StepPlan plan_of(std::initializer_list<double> seconds) {
  StepPlan plan;
  for (double s : seconds) plan.calls.push_back(call(Stage::forward, s));
  return plan;
}

TEST(PipelineLaunches, LargeKernelsHideTheHostAfterTheFirst) {
  // Host: 5 us a step, 2 us a kernel: launched at 7, 9, 11 us.  Kernels of 10, 1, 1 us:
  // the first waits 7 us, the others are queued before the GPU reaches them.
  auto plan = plan_of({10e-6, 1e-6, 1e-6});
  pipeline_launches(plan, {5e-6, 2e-6});
  EXPECT_NEAR(plan.calls[0].launch_wait_s, 7e-6, 1e-15);
  EXPECT_NEAR(plan.calls[1].launch_wait_s, 0, 1e-15);
  EXPECT_NEAR(plan.calls[2].launch_wait_s, 0, 1e-15);
  const auto totals = plan.totals();
  EXPECT_NEAR(totals.seconds, 19e-6, 1e-15);
  EXPECT_NEAR(totals.launch_wait_s, 7e-6, 1e-15);
  EXPECT_NEAR(totals.seconds_by_source.at(Source::measured), 12e-6, 1e-15);
}

TEST(PipelineLaunches, SmallKernelsRunAtTheHostsPace) {
  // 1 us kernels launched every 2 us: the step is the host's 5 + 3 x 2 us, then the last kernel.
  auto plan = plan_of({1e-6, 1e-6, 1e-6});
  pipeline_launches(plan, {5e-6, 2e-6});
  EXPECT_NEAR(plan.calls[0].device_seconds(), 8e-6, 1e-15);
  EXPECT_NEAR(plan.calls[1].launch_wait_s, 1e-6, 1e-15);
  EXPECT_NEAR(plan.calls[2].launch_wait_s, 1e-6, 1e-15);
  EXPECT_NEAR(plan.totals().seconds, 5e-6 + 3 * 2e-6 + 1e-6, 1e-15);
}

TEST(PipelineLaunches, TheHostsFastAndSlowTenthWidenTheBand) {
  // 1 us kernels launched every 2 us (median), 1.5 us (fast tenth), 4 us (slow tenth):
  // the waits sum to 2 + 1 + 1, 1.5 + 0.5 + 0.5 and 4 + 3 + 3 us.  The calls keep the
  // median's.
  auto plan = plan_of({1e-6, 1e-6, 1e-6});
  pipeline_launches(plan, {0, 2e-6, 1.5e-6, 4e-6});
  EXPECT_NEAR(plan.calls[1].launch_wait_s, 1e-6, 1e-15);
  const auto totals = plan.totals();
  EXPECT_NEAR(totals.seconds, 3e-6 + 4e-6, 1e-15);
  EXPECT_NEAR(totals.p10_seconds, 3e-6 + 2.5e-6, 1e-15);  // measured kernels: no spread of their own
  EXPECT_NEAR(totals.p90_seconds, 3e-6 + 10e-6, 1e-15);
  // Without a band the host's waits are the same at both ends.
  pipeline_launches(plan, {0, 2e-6});
  EXPECT_NEAR(plan.totals().p10_seconds, 7e-6, 1e-15);
  EXPECT_NEAR(plan.totals().p90_seconds, 7e-6, 1e-15);
}

TEST(PipelineLaunches, TheHostsPerPassSpreadGivesTheWaitsAtEachPercentile) {
  // 1 us kernels launched every 2 us at the median: at 0.75x (1.5 us) the waits sum to
  // 1.5 + 0.5 + 0.5, at 1x to 2 + 1 + 1, at 2x (4 us) to 4 + 3 + 3.  The calls keep the median's.
  auto plan = plan_of({1e-6, 1e-6, 1e-6});
  pipeline_launches(plan, {0, 2e-6, 0, 0, {0.75, 0.8, 0.9, 0.95, 1, 1.1, 1.3, 1.5, 2}});
  ASSERT_EQ(plan.launch_wait_spread_s.size(), kSpreadPercentiles.size());
  EXPECT_NEAR(plan.launch_wait_spread_s.front(), 2.5e-6, 1e-15);
  EXPECT_NEAR(plan.launch_wait_spread_s[4], plan.totals().launch_wait_s, 1e-15);
  EXPECT_NEAR(plan.launch_wait_spread_s.back(), 10e-6, 1e-15);
  EXPECT_NEAR(plan.calls[1].launch_wait_s, 1e-6, 1e-15);
  pipeline_launches(plan, {0, 2e-6});
  EXPECT_TRUE(plan.launch_wait_spread_s.empty());
}

TEST(PipelineLaunches, APassHandedOverWaitsAtItsOwnPace) {
  // 1 us kernels launched every 2 us, every 3 us by a thread that took over: the waits sum
  // to 2 + 1 + 1 and 3 + 2 + 2 us; without that pace, the median's.
  auto plan = plan_of({1e-6, 1e-6, 1e-6});
  HostOverhead host{0, 2e-6};
  host.per_kernel_handoff_s = 3e-6;
  pipeline_launches(plan, host);
  EXPECT_NEAR(plan.launch_wait_handoff_s, 7e-6, 1e-15);
  EXPECT_NEAR(plan.totals().launch_wait_s, 4e-6, 1e-15);
  pipeline_launches(plan, {0, 2e-6});
  EXPECT_NEAR(plan.launch_wait_handoff_s, 4e-6, 1e-15);
}

TEST(PipelineLaunches, NoHostCostLeavesThePlanAsItWas) {
  auto plan = plan_of({3e-6, 4e-6});
  pipeline_launches(plan, {});
  EXPECT_EQ(plan.totals().launch_wait_s, 0);
  EXPECT_NEAR(plan.totals().seconds, 7e-6, 1e-15);
}

}  // namespace
}  // namespace dlsim::perf
