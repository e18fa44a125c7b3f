// An in-process application's copies around a GPU forward pass: the input before its
// first kernel, the answer after its last, priced by the profile's timed copies where it
// has them and by the host link otherwise.
#include <gtest/gtest.h>

#include "perf/fit.hpp"
#include "perf/host_copies.hpp"
#include "support/plan_calls.hpp"

namespace dlsim::perf {
namespace {

const GpuRates gpu{"gpu", 10, 10e12, 20e12, 0, 0, 500e9};

KernelTimes times_of(const Profile& profile) {
  LookupOptions options;
  options.gpu = GpuTarget{gpu, gpu};
  options.allow_fallback = true;
  return KernelTimes(profile, options);
}

// Pageable copies timed as dlsim-gpu-bench --copies names them: 10 us plus 10 GB/s in,
// 5 GB/s out.
Profile profile_with_copies() {
  RawBenchmarks raw;
  raw.path = "copies.json";
  for (double bytes : {1e6, 4e6, 16e6}) {
    raw.times[{copy_signature(bytes), "h2d_pageable", 1}] = {10e-6 + bytes / 10e9};
    raw.times[{copy_signature(bytes), "d2h_pageable", 1}] = {10e-6 + bytes / 5e9};
  }
  return fit_profile({raw}, {"m", "", "test", "gpu"});
}

StepPlan two_kernels() {
  StepPlan plan;
  plan.calls = {testing::call(Stage::forward, 1e-3, "conv1"), testing::call(Stage::forward, 1e-3, "fc")};
  return plan;
}

TEST(HostCopies, InputBeforeTheFirstKernelAndTheAnswerAfterTheLast) {
  const Profile profile = profile_with_copies();
  StepPlan plan = two_kernels();
  add_host_copies(plan, 4e6, 8000, times_of(profile), 50e9);
  ASSERT_EQ(plan.calls.size(), 4u);
  EXPECT_EQ(plan.calls.front().signature, "memcpy u8 b4000000");
  EXPECT_EQ(plan.calls.front().phase, "h2d_pageable");
  EXPECT_EQ(plan.calls.front().answer.source, Source::measured);
  EXPECT_NEAR(plan.calls.front().answer.seconds, 410e-6, 1e-9);
  EXPECT_EQ(plan.calls.back().signature, "memcpy u8 b8000");
  EXPECT_EQ(plan.calls.back().phase, "d2h_pageable");
  // 8 kB was not timed: the fitted line through the timed sizes.
  EXPECT_EQ(plan.calls.back().answer.source, Source::fitted);
  EXPECT_NEAR(plan.calls.back().answer.seconds, 10e-6 + 8000 / 5e9, 0.1e-6);
}

TEST(HostCopies, WithoutTimedCopiesTheBytesCrossTheHostLink) {
  static const Profile empty;
  StepPlan plan = two_kernels();
  add_host_copies(plan, 4e6, 8000, times_of(empty), 16e9);
  EXPECT_EQ(plan.calls.front().answer.source, Source::fallback);
  EXPECT_DOUBLE_EQ(plan.calls.front().answer.seconds, 4e6 / 16e9);
  EXPECT_NE(plan.calls.front().answer.basis.find("16.0 GB/s"), std::string::npos);
}

TEST(HostCopies, AHostCopyIsNotCarriedToAnotherGpuByItsMemory) {
  // The copies cross the host's link, not the GPU's memory: a profile carried to a GPU
  // with twice the memory bandwidth prices them as timed.
  const Profile profile = profile_with_copies();
  LookupOptions options;
  GpuRates faster = gpu;
  faster.name = "faster";
  faster.bandwidth_Bps *= 2;
  options.gpu = GpuTarget{gpu, faster};
  const KernelTimes times(profile, options);
  EXPECT_NEAR(times.time(copy_signature(4e6), "h2d_pageable", 1).seconds, 410e-6, 1e-9);
}

}  // namespace
}  // namespace dlsim::perf
