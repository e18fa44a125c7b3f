// Serving over a protocol on a workload small enough to follow by hand; expectation and
// simulation are printed side by side.
#include <algorithm>
#include <cstdio>

#include <gtest/gtest.h>

#include "infer/served.hpp"

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
  s.forward_s = {50e-3};
  return s;
}

TEST(Served, ALocalRequestSendsComputesAndAnswers) {
  // Send: 1 ms + 100 MB at 1 GB/s = 101 ms; compute 50 ms; the 1-byte answer 1 ms.
  const InferenceResult r = simulate_served(spec(false));
  std::printf("local latency: expected 0.152000 s, simulated %.6f s\n", r.latencies_s.front());
  for (double l : r.latencies_s) EXPECT_NEAR(l, 0.152, 1e-6);
  EXPECT_NEAR(r.send_s, 0.101, 1e-6);
  EXPECT_NEAR(r.compute_s, 0.050, 1e-6);
  EXPECT_NEAR(r.queue_s, 0.0, 1e-9);
  EXPECT_EQ(r.requests, 4);
}

TEST(Served, ARemoteClientIsBoundByTheSlowerNic) {
  // Across 0.5 GB/s NICs the 100 MB take 0.2 s instead of 0.1 s.
  const InferenceResult r = simulate_served(spec(true));
  std::printf("remote latency: expected 0.252000 s, simulated %.6f s\n", r.latencies_s.front());
  EXPECT_NEAR(r.latencies_s.front(), 0.252, 1e-6);
}

// Two synchronous clients, small requests (1 KB, about 1 ms each way); one request alone
// takes 50 ms, two together 60 ms.
ServedSpec two_clients() {
  ServedSpec s = spec(false);
  s.clients = 2;
  s.requests_per_client = 1;
  s.request_bytes = 1000;
  s.rpc_bytes_per_s = 1e12;
  s.forward_s = {50e-3};
  return s;
}

TEST(Served, WithoutBatchingTheSecondRequestWaitsForTheFirst) {
  auto latencies = simulate_served(two_clients()).latencies_s;
  std::sort(latencies.begin(), latencies.end());
  std::printf("alone: expected 0.052 and 0.102 s, simulated %.6f and %.6f s\n", latencies[0], latencies[1]);
  EXPECT_NEAR(latencies[0], 0.052, 1e-6);
  EXPECT_NEAR(latencies[1], 0.102, 1e-6);
}

TEST(Served, TheDynamicBatcherCombinesWhatArrivesWithinItsDelay) {
  // Up to two per batch and a 5 ms delay: both are served together, 62 ms each.
  ServedSpec s = two_clients();
  s.forward_s = {50e-3, 60e-3};
  s.max_queue_delay_s = 5e-3;
  const auto latencies = simulate_served(s).latencies_s;
  std::printf("batched: expected 0.062 s, simulated %.6f and %.6f s\n", latencies[0], latencies[1]);
  for (double l : latencies) EXPECT_NEAR(l, 0.062, 1e-6);
}

}  // namespace
}  // namespace dlsim::infer
