// A workload small enough to compute by hand, simulated; expectation and simulation are
// printed side by side.
#include <cstdio>

#include <gtest/gtest.h>

#include "perf/launch.hpp"
#include "support/plan_calls.hpp"
#include "train/single_device.hpp"

namespace dlsim::train {
namespace {

using testing::call;

TEST(SingleDevice, StepTimeIsTheSumOfItsKernels) {
  perf::StepPlan plan;
  plan.calls = {call(perf::Stage::forward, 1e-3), call(perf::Stage::forward, 2e-3), call(perf::Stage::backward, 4e-3),
                call(perf::Stage::update, 0.5e-3)};
  const double expected = 1e-3 + 2e-3 + 4e-3 + 0.5e-3;
  const TrainingResult r = simulate_training(plan, {2, 2}, 4);
  std::printf("4 kernels (1 + 2 + 4 + 0.5 ms) on 2 cores: expected %.9f s, simulated %.9f s per step\n", expected,
              r.step_time_s);
  EXPECT_NEAR(r.step_time_s, expected, 1e-12);
  EXPECT_NEAR(r.forward_s, 3e-3, 1e-12);
  EXPECT_NEAR(r.backward_s, 4e-3, 1e-12);
  EXPECT_NEAR(r.update_s, 0.5e-3, 1e-12);
}

TEST(SingleDevice, AGpuWaitsForItsHostToLaunchSmallKernels) {
  // Host: 0.2 ms a step, 0.05 ms a kernel; kernels of 0.01, 1, 0.01 and 0.01 ms.  Launched
  // at 0.25, 0.30, 0.35, 0.40 ms: the first runs 0.25-0.26, the second 0.30-1.30, the
  // others right after it (already launched): 1.32 ms a step, 0.29 of it waiting.
  perf::StepPlan plan;
  plan.calls = {call(perf::Stage::forward, 0.01e-3), call(perf::Stage::forward, 1e-3),
                call(perf::Stage::backward, 0.01e-3), call(perf::Stage::update, 0.01e-3)};
  perf::pipeline_launches(plan, {0.2e-3, 0.05e-3});
  const double expected = 1.32e-3;
  const TrainingResult r = simulate_training(plan, {1, 1}, 3);
  std::printf("host 0.2 ms + 0.05 ms per kernel, kernels 0.01, 1, 0.01, 0.01 ms: expected %.9f s, simulated %.9f s "
              "per step\n",
              expected, r.step_time_s);
  EXPECT_NEAR(r.step_time_s, expected, 1e-12);
  EXPECT_NEAR(r.launch_wait_s, 0.29e-3, 1e-12);
  EXPECT_NEAR(r.forward_s, 1.01e-3, 1e-12);
}

}  // namespace
}  // namespace dlsim::train
