#include <algorithm>
#include <cstdio>

#include <gtest/gtest.h>

#include "infer/in_process.hpp"

namespace dlsim::infer {
namespace {

// One kernel of `seconds` that keeps `cpu_s` core-seconds busy (0: as the plan left it).
perf::StepPlan forward_of(double seconds, double cpu_s = 0) {
  perf::StepPlan plan;
  plan.calls.push_back({perf::Stage::forward, "net", "sig", "fwd", {seconds, 0.0, perf::Source::measured, ""}, 0.0, cpu_s});
  return plan;
}

TEST(InProcess, OneClientWaitsOnlyForItsOwnForwardPass) {
  const auto r = simulate_in_process(forward_of(10e-3), {2, 2, 1, 5});
  std::printf("1 client, 5 requests of 10 ms: expected 0.050 s, simulated %.9f s\n", r.makespan_s);
  EXPECT_NEAR(r.makespan_s, 50e-3, 1e-9);
  for (double l : r.latencies_s) EXPECT_NEAR(l, 10e-3, 1e-9);
}

TEST(InProcess, TheForwardPassesKeepTheirThreadsCoresBusy) {
  // 2 threads of 4 cores for the whole 50 ms (the plan's 20 ms of core time a pass): half
  // the host; on a GPU, nothing of it.
  const auto r = simulate_in_process(forward_of(10e-3, 20e-3), {4, 2, 1, 5});
  std::printf("2 of 4 cores computing: expected CPU busy 0.5, simulated %.6f\n",
              r.server_cpu_s / (r.server_cores * r.makespan_s));
  EXPECT_NEAR(r.server_cpu_s, 0.1, 1e-9);
  EXPECT_EQ(r.server_cores, 4);
  EXPECT_EQ(simulate_in_process(forward_of(10e-3, 20e-3), {4, 2, 1, 5, true}).server_cpu_s, 0);
}

TEST(InProcess, ConcurrentClientsQueueForTheOneWorker) {
  const auto r = simulate_in_process(forward_of(10e-3), {2, 2, 2, 4});
  // Two requests always waiting: each waits for the other's pass, then its own.
  std::printf("2 clients, 8 requests of 10 ms: expected 0.080 s, simulated %.9f s\n", r.makespan_s);
  EXPECT_NEAR(r.makespan_s, 80e-3, 1e-9);
  EXPECT_NEAR(*std::max_element(r.latencies_s.begin(), r.latencies_s.end()), 20e-3, 1e-9);
}

TEST(InProcess, OnAGpuLoadingAndInferenceTakeTurns) {
  // One client loads a batch (6 ms on a core), then the GPU runs it (10 ms): 16 ms a
  // request, the GPU busy 10 of them; latency counts from the call, after the loading.
  const auto r = simulate_in_process(forward_of(10e-3), {4, 1, 1, 5, true, 6e-3});
  std::printf("1 client loading 6 ms, GPU 10 ms, 5 requests: expected 0.080 s, simulated %.9f s\n", r.makespan_s);
  EXPECT_NEAR(r.makespan_s, 80e-3, 1e-9);
  for (double l : r.latencies_s) EXPECT_NEAR(l, 10e-3, 1e-9);
}

TEST(InProcess, APythonApplicationsCopyIsInTheLatency) {
  // A 3 ms copy of each request's bytes into a tensor, then the GPU's 10 ms: 13 ms a
  // request, counted from the call (the loading before it is not), the copy a core's work.
  InProcessSpec spec{4, 1, 1, 5, true, 6e-3};
  spec.copy_s = 3e-3;
  const auto r = simulate_in_process(forward_of(10e-3), spec);
  std::printf("1 client loading 6 ms, copying 3 ms, GPU 10 ms, 5 requests: expected 0.095 s, simulated %.9f s\n",
              r.makespan_s);
  EXPECT_NEAR(r.makespan_s, 95e-3, 1e-9);
  for (double l : r.latencies_s) EXPECT_NEAR(l, 13e-3, 1e-9);
  EXPECT_NEAR(r.server_cpu_s, 5 * 9e-3, 1e-9);
}

TEST(InProcess, TwoClientsLoadWhileTheGpuRunsTheOthersBatch) {
  // Two clients on two cores: after the first loads, one always loads while the GPU runs
  // the other's batch; the GPU (10 ms a batch) is the bottleneck: 6 ms + 8 x 10 ms.
  const auto r = simulate_in_process(forward_of(10e-3), {2, 1, 2, 4, true, 6e-3});
  std::printf("2 clients loading 6 ms, GPU 10 ms, 8 requests: expected 0.086 s, simulated %.9f s\n", r.makespan_s);
  EXPECT_NEAR(r.makespan_s, 86e-3, 1e-9);
}

TEST(InProcess, ClientsReadingFromOneDiskShareItsOperations) {
  // Two clients read 4 files a request from a disk of 100 operations a second (bandwidth
  // and latency too large and small to matter): alone a request's reads take 40 ms, both
  // at once 80 ms; the 1 us passes barely count: 4 x 80 ms.
  InProcessSpec spec{2, 1, 2, 4};
  spec.files = {4, 1e3, 1e12, 100, 0};
  const auto r = simulate_in_process(forward_of(1e-6), spec);
  std::printf("2 clients sharing 100 IOPS, 4 files a request: expected 0.320 s, simulated %.9f s\n", r.makespan_s);
  EXPECT_NEAR(r.makespan_s, 0.320, 1e-4);
}

TEST(InProcess, EachPassOnAGpuDrawsItsHostsPace) {
  // A 10 ms kernel after a 5 ms wait for the host at its median pace, 2.5-10 ms from its
  // fastest to its slowest percentile: each pass's wait is drawn, so its latency spreads
  // between 12.5 and 20 ms around a median of 15.
  perf::StepPlan forward = forward_of(10e-3);
  forward.calls.front().launch_wait_s = 5e-3;
  forward.launch_wait_spread_s = {2.5e-3, 3e-3, 3.5e-3, 4.2e-3, 5e-3, 5.6e-3, 6.5e-3, 7.5e-3, 10e-3};
  const auto r = simulate_in_process(forward, {2, 1, 1, 400, true});
  std::vector<double> sorted = r.latencies_s;
  std::sort(sorted.begin(), sorted.end());
  const double p50 = sorted[sorted.size() / 2], p99 = sorted[sorted.size() * 99 / 100];
  std::printf("host pace drawn per pass: expected p50 0.015 s, p99 about 0.0175-0.02 s; simulated %.6f, %.6f\n", p50,
              p99);
  EXPECT_NEAR(p50, 15e-3, 0.3e-3);
  EXPECT_GT(p99, 17e-3);
  EXPECT_GE(sorted.front(), 12.5e-3 - 1e-6);
  EXPECT_LE(sorted.back(), 20e-3 + 1e-6);
}

}  // namespace
}  // namespace dlsim::infer
