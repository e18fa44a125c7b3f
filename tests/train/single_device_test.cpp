// A workload small enough to compute by hand, simulated; expectation and simulation are
// printed side by side.
#include <cstdio>

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace dlsim::train
