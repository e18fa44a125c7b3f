// Serving over a protocol on a workload small enough to follow by hand; expectation and
// simulation are printed side by side.
#include <cstdio>

#include <gtest/gtest.h>

#include "infer/served.hpp"
#include "support/plan_calls.hpp"

namespace dlsim::infer {
namespace {

// A 50 ms forward pass; 100 MB requests through protocol stacks of 1 GB/s (client's and
// server's in series: 0.1 s), 1 ms per request; PCIe and the answer too fast to matter.
ServedSpec spec(bool remote) {
  ServedSpec s;
  s.cluster = {1, 1, 1, 1, 1e15, 0, 0.5e9, 0};
  s.remote = remote;
  if (remote) s.cluster.server_nodes = 1;
  s.requests_per_client = 4;
  s.rpc_bytes_per_s = 1e9;
  s.rpc_latency_s = 1e-3;
  s.request_bytes = 100e6;
  s.response_bytes = 1;
  return s;
}

perf::StepPlan forward() {
  perf::StepPlan p;
  p.calls = {testing::call(perf::Stage::forward, 50e-3)};
  return p;
}

TEST(Served, ALocalRequestSendsComputesAndAnswers) {
  // Send: 1 ms + 100 MB at 1 GB/s = 101 ms; compute 50 ms; the 1-byte answer 1 ms.
  const InferenceResult r = simulate_served(forward(), spec(false));
  std::printf("local latency: expected 0.152000 s, simulated %.6f s\n", r.latencies_s.front());
  for (double l : r.latencies_s) EXPECT_NEAR(l, 0.152, 1e-6);
  EXPECT_NEAR(r.send_s, 0.101, 1e-6);
  EXPECT_NEAR(r.compute_s, 0.050, 1e-6);
  EXPECT_NEAR(r.queue_s, 0.0, 1e-9);
  EXPECT_EQ(r.requests, 4);
}

TEST(Served, ARemoteClientIsBoundByTheSlowerNic) {
  // Across 0.5 GB/s NICs the 100 MB take 0.2 s instead of 0.1 s.
  const InferenceResult r = simulate_served(forward(), spec(true));
  std::printf("remote latency: expected 0.252000 s, simulated %.6f s\n", r.latencies_s.front());
  EXPECT_NEAR(r.latencies_s.front(), 0.252, 1e-6);
}

}  // namespace
}  // namespace dlsim::infer
