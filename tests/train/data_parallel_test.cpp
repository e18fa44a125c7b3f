// Data-parallel training on a workload small enough to follow by hand; expectation and
// simulation are printed side by side.
#include <cstdio>

#include <gtest/gtest.h>

#include "support/plan_calls.hpp"
#include "train/data_parallel.hpp"

namespace dlsim::train {
namespace {

using testing::call;

TEST(DataParallel, BucketsReduceInOrderWhileBackwardGoesOn) {
  // Forward 10 ms; two backward kernels of 5 ms, each completing a 100 MB bucket; update
  // 1 ms.  Two GPUs on two nodes joined by 1 GB/s NICs: a bucket's ring all-reduce moves
  // 2(P-1)/P x 100 MB = 100 MB each way, 0.1 s.  Bucket 0 is ready at 15 ms and reduced by
  // 115 ms; bucket 1, ready at 20 ms, waits for it and is reduced by 215 ms; the update
  // ends the step at 216 ms, of which 195 ms are communication backward did not hide.
  perf::StepPlan plan;
  plan.calls = {call(perf::Stage::forward, 10e-3), call(perf::Stage::backward, 5e-3),
                call(perf::Stage::backward, 5e-3), call(perf::Stage::update, 1e-3)};
  const std::vector<perf::GradientBucket> buckets = {{100e6, 1}, {100e6, 2}};
  DataParallelSpec spec;
  spec.cluster = {2, 1, 1, 1, 1e15, 0, 1e9, 0};
  spec.gpus = 2;
  spec.steps = 2;
  const TrainingResult r = simulate_allreduce_training(plan, buckets, spec);
  std::printf("step: expected 0.216000 s, simulated %.6f s; exposed communication: expected 0.195000 s, simulated "
              "%.6f s\n",
              r.step_time_s, r.exposed_communication_s);
  EXPECT_NEAR(r.step_time_s, 0.216, 1e-9);
  EXPECT_NEAR(r.exposed_communication_s, 0.195, 1e-9);
  EXPECT_EQ(r.devices, 2);
  EXPECT_DOUBLE_EQ(r.communicated_bytes, 200e6);
  // The NICs are the busiest links: each direction carries 200 MB a step, 2 steps in 0.432 s.
  ASSERT_FALSE(r.links.empty());
  EXPECT_NE(r.links.front().link.find(".nic "), std::string::npos) << r.links.front().link;
  EXPECT_NEAR(r.links.front().utilization, 400e6 / (1e9 * 0.432), 1e-6);
}

// One GPU computing 50 ms a step (20 forward, 30 backward), fed by `input` over PCIe of
// `pcie_Bps`.
TrainingResult one_fed_gpu(double pcie_Bps, const InputPipeline& input, int steps) {
  perf::StepPlan plan;
  plan.calls = {call(perf::Stage::forward, 20e-3), call(perf::Stage::backward, 30e-3)};
  DataParallelSpec spec;
  spec.cluster = {1, 1, 1, 1, pcie_Bps, 0, 1e9, 0};
  spec.gpus = 1;
  spec.steps = steps;
  spec.input = input;
  return simulate_allreduce_training(plan, {}, spec);
}

TEST(DataParallel, ALoaderSlowerThanTheGpuStallsEveryStep) {
  // One GPU computing 50 ms a step; its loader has one core and spends 10 ms on each of
  // the batch's 10 images, so a batch is ready every 100 ms: in the steady state the GPU
  // waits 50 ms for each (the copy over a very fast PCIe costs nothing).
  const TrainingResult r = one_fed_gpu(1e15, {false, 10, 10e-3, 602112, 1, 2}, 4);
  std::printf("step: expected 0.100000 s, simulated %.6f s; input stall: expected 0.050000 s, simulated %.6f s\n",
              r.step_time_s, r.input_stall_s);
  EXPECT_NEAR(r.step_time_s, 0.100, 1e-6);
  EXPECT_NEAR(r.input_stall_s, 0.050, 1e-6);
}

// A batch of 10 images, 100 MB, crosses 1 GB/s of PCIe in 100 ms; its loader prepares it
// in 1 ms.  Each case in its own process (one engine each).
double step_with_copy(bool ahead) {
  InputPipeline input{false, 10, 0.1e-3, 10e6, 1, 2};
  input.to_gpu = ahead;
  return one_fed_gpu(1e9, input, 5).step_time_s;
}

TEST(DataParallel, ACopyInAtTheStepsStartAddsToIt) {
  // The batch is ready long before; its copy (100 ms) then the kernels (50 ms).
  const double took = step_with_copy(false);
  std::printf("copy in the step: expected 0.150000 s, simulated %.6f s\n", took);
  EXPECT_NEAR(took, 0.150, 1e-6);
}

TEST(DataParallel, ACopyAheadRunsBesideTheKernelsAndSetsThePace) {
  // The loader prepares batches (1 ms each) while the stager copies the last (100 ms) and
  // the GPU computes.
  const double took = step_with_copy(true);
  std::printf("copy ahead: expected 0.100000 s, simulated %.6f s\n", took);
  EXPECT_NEAR(took, 0.100, 1e-6);
}

}  // namespace
}  // namespace dlsim::train
