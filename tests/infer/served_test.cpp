// Serving over a protocol on a workload small enough to follow by hand; expectation and
// simulation are printed side by side.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "infer/served.hpp"

namespace dlsim::infer {
namespace {

// A 50 ms forward pass; 100 MB requests through protocol stacks of 1 GB/s (client's and
// server's in series: 0.1 s), 1 ms per request; PCIe and the answer too fast to matter;
// four cores a machine, so that the stacks' work never waits for one.
ServedSpec spec(bool remote) {
  ServedSpec s;
  s.cluster = {1, 1, 1, 4, 1e15, 0, 0.5e9, 0};
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

TEST(Served, OnOneCoreTheTwoStacksTakeTurns) {
  // The same request on a machine of one core: the client's and the server's stack work
  // (0.5 ms + 100 ms each) share it, so the send takes 201 ms, not the stacks' 101.
  ServedSpec s = spec(false);
  s.cluster.host_cores = 1;
  const InferenceResult r = simulate_served(s);
  std::printf("local latency on one core: expected 0.252000 s, simulated %.6f s\n", r.latencies_s.front());
  EXPECT_NEAR(r.latencies_s.front(), 0.252, 1e-6);
  EXPECT_NEAR(r.send_s, 0.201, 1e-6);
}

// A synchronous client that loads before each of its 4 requests: every request takes
// `per_request_s` in all, latency still 152 ms from the send.
void expect_sync_client(const ServedSpec& s, double per_request_s, const char* what) {
  const InferenceResult r = simulate_served(s);
  std::printf("sync client %s: expected %.6f s, simulated %.6f s\n", what, 4 * per_request_s, r.makespan_s);
  EXPECT_NEAR(r.makespan_s, 4 * per_request_s, 1e-6);
  for (double l : r.latencies_s) EXPECT_NEAR(l, 0.152, 1e-6);
}

TEST(Served, ASyncClientLoadsItsFilesBeforeEachRequest) {
  // 30 ms of decoding before each send: 4 x (30 + 152) ms.
  ServedSpec s = spec(false);
  s.load_s = 30e-3;
  expect_sync_client(s, 0.182, "loading 30 ms");
}

TEST(Served, ASyncClientReadsItsFilesFromDiskBeforeDecoding) {
  // Four 100 KB files a request from a disk of 100 MB/s and 1 ms a read: 4 x 1 ms, then
  // 400 KB at 100 MB/s, 4 ms (its 10,000 operations a second are not the bound), then 30
  // ms of decoding: 4 x (8 + 30 + 152) ms.
  ServedSpec s = spec(false);
  s.load_s = 30e-3;
  s.files = {4, 100e3, 100e6, 10e3, 1e-3};
  expect_sync_client(s, 0.190, "reading 4 files, loading 30 ms");
}

TEST(Served, AnAsyncClientLoadsTheNextBatchWhileOneIsInFlight) {
  // Two requests in flight, loaded in turn by the client's one loader (60 ms each, longer
  // than the 50 ms pass): the loader sets the pace, sending a request every 60 ms; the last
  // is sent after 8 x 60 ms and answered one request's latency later (about 52 ms: 1 KB
  // each way and the pass, no queue).
  ServedSpec s = spec(false);
  s.request_bytes = 1e3;  // sending takes about 1 ms
  s.load_s = 60e-3;
  s.in_flight = 2;
  const InferenceResult r = simulate_served(s);
  const double one = r.latencies_s.front();  // send, compute and answer of a request alone
  const double expected = 8 * 60e-3 + one;
  std::printf("async client, 2 in flight, loading 60 ms: expected %.6f s, simulated %.6f s\n", expected, r.makespan_s);
  EXPECT_NEAR(r.makespan_s, expected, 1e-6);
  EXPECT_EQ(r.requests, 8);
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

TEST(Served, APreferredSizeIsSentWithoutWaitingForTheDelay) {
  // Three requests at once, batches of up to four, two preferred, a 1 s delay: two go
  // together at once (62 ms); the third is no preferred size and waits out its delay.
  ServedSpec s = two_clients();
  s.clients = 3;
  s.forward_s = {50e-3, 60e-3, 70e-3, 80e-3};
  s.preferred_requests = {2};
  s.max_queue_delay_s = 1.0;
  auto latencies = simulate_served(s).latencies_s;
  std::sort(latencies.begin(), latencies.end());
  std::printf("preferred: expected 0.062, 0.062 and at least 1 s, simulated %.6f, %.6f, %.6f s\n", latencies[0],
              latencies[1], latencies[2]);
  EXPECT_NEAR(latencies[0], 0.062, 1e-6);
  EXPECT_NEAR(latencies[1], 0.062, 1e-6);
  EXPECT_GT(latencies[2], 1.0);
}

TEST(Served, TwoInstancesShareTheirGpu) {
  // Two requests at once on two instances of one GPU: both forward passes run together at
  // half speed, 100 ms, and finish with the answers 1 ms later.
  ServedSpec s = two_clients();
  s.instances_per_gpu = 2;
  const auto latencies = simulate_served(s).latencies_s;
  std::printf("two instances: expected 0.102 s, simulated %.6f and %.6f s\n", latencies[0], latencies[1]);
  for (double l : latencies) EXPECT_NEAR(l, 0.102, 1e-6);
}

TEST(Served, AFleetSpreadsTheLoadOverItsServers) {
  // Two one-GPU servers, two clients: each has a server to itself, 52 ms.
  ServedSpec s = two_clients();
  s.cluster.nodes = 2;
  const auto r = simulate_served(s);
  std::printf("fleet: expected 0.052 s each, simulated %.6f and %.6f s\n", r.latencies_s[0], r.latencies_s[1]);
  for (double l : r.latencies_s) EXPECT_NEAR(l, 0.052, 1e-6);
  EXPECT_EQ(r.gpus, 2);
}

// Open loop: small requests every 100 ms to a 50 ms forward pass never queue; every 40 ms
// they do, and the queue grows by 10 ms per request.
ServedSpec open_loop(double rate) {
  ServedSpec s = two_clients();
  s.arrival = Arrival::constant;
  s.request_rate = rate;
  s.requests = 10;
  return s;
}

TEST(Served, AnOpenLoopBelowCapacityNeverQueues) {
  const auto r = simulate_served(open_loop(10));
  std::printf("open loop at 10/s: expected 0.052 s each, simulated max %.6f s\n",
              *std::max_element(r.latencies_s.begin(), r.latencies_s.end()));
  for (double l : r.latencies_s) EXPECT_NEAR(l, 0.052, 1e-6);
  EXPECT_EQ(r.peak_requests_in_servers, 1);
}

TEST(Served, AnOpenLoopAboveCapacityQueuesMoreAndMore) {
  const auto r = simulate_served(open_loop(25));
  const double last = r.latencies_s.back();
  std::printf("open loop at 25/s: last of 10 expected 0.052 + 9 x 0.010 = 0.142 s, simulated %.6f s\n", last);
  EXPECT_NEAR(last, 0.142, 1e-6);
  EXPECT_GT(r.peak_requests_in_servers, 1);
}

TEST(Served, PoissonArrivalsAreReproducibleAndHaveTheirRate) {
  const auto a = arrival_times(Arrival::poisson, 200, 20000, 7);
  EXPECT_EQ(a, arrival_times(Arrival::poisson, 200, 20000, 7));
  EXPECT_NE(a, arrival_times(Arrival::poisson, 200, 20000, 8));
  const double rate = (a.size() - 1) / a.back();
  std::printf("poisson: expected 200/s, drawn %.2f/s\n", rate);
  EXPECT_NEAR(rate, 200, 200 * 0.03);  // 20,000 gaps: the mean's standard error is 0.7%
  EXPECT_DOUBLE_EQ(arrival_times(Arrival::constant, 4, 3, 1)[2], 0.5);
}

TEST(Served, AReplaySendsAtItsIntervalsInTurn) {
  const auto t = arrival_times(Arrival::replay, 0, 5, 1, {0.1, 0.3});
  const std::vector<double> expected{0, 0.1, 0.4, 0.5, 0.8};
  ASSERT_EQ(t.size(), expected.size());
  for (size_t i = 0; i < t.size(); ++i) EXPECT_NEAR(t[i], expected[i], 1e-12) << i;
}

TEST(Served, OnACpuTheForwardPassNeedsNoCopy) {
  // No GPU: the 100 MB request is not copied anywhere after it arrives (PCIe would be 0.1 s
  // at 1 GB/s), so the latency is the local one.
  ServedSpec s = spec(false);
  s.cluster.gpus_per_node = 0;
  s.cluster.pcie_Bps = 1e9;
  s.gpus_per_server = 0;
  const InferenceResult r = simulate_served(s);
  std::printf("on a CPU: expected 0.152000 s, simulated %.6f s\n", r.latencies_s.front());
  EXPECT_NEAR(r.latencies_s.front(), 0.152, 1e-6);
}

// PCIe at 1 GB/s: a native server's 100 MB copy in takes 0.1 s beside the forward pass; a
// Python server's copies are priced in its forward pass (perf/host_copies.hpp), so the link
// carries none.  (One simulation a process: SimGrid initialises once.)
ServedSpec slow_pcie(bool copies_over_link) {
  ServedSpec s = spec(false);
  s.cluster.pcie_Bps = 1e9;
  s.copies_over_link = copies_over_link;
  return s;
}

TEST(Served, ANativeServerCopiesOverTheHostLink) {
  const InferenceResult r = simulate_served(slow_pcie(true));
  std::printf("native compute: expected 0.150000 s, simulated %.6f s\n", r.compute_s);
  EXPECT_NEAR(r.compute_s, 0.150, 1e-3);
}

TEST(Served, APythonServersCopiesAreInItsForwardPassNotOnTheLink) {
  const InferenceResult r = simulate_served(slow_pcie(false));
  std::printf("python compute: expected 0.050000 s, simulated %.6f s\n", r.compute_s);
  EXPECT_NEAR(r.compute_s, 0.050, 1e-6);
}

// A Python server on a GPU has one interpreter for its passes and its Python work.
// Alone, a request meets nothing there: 152 ms, as without, and the handler's copy adds
// its own time to the send.  Two clients: the 100 MB of each message cross outside the
// interpreter, beside the other's pass, so 8 requests take far less than 8 x 151 ms.  Four
// clients of 1 MB requests: the interpreter's work (the 50 ms passes, a 30 ms copy, 1 ms
// per request at the server's ends) never overlaps, so 16 requests take at least 16 x 81
// ms, and a pass with another request's copy in it is stretched by the copy; without the
// interpreter the copies run beside the passes, and the 50 ms passes alone bound it.
// (One simulation a process.)
ServedSpec python_server(int clients, bool one_interpreter, double copy_s = 0) {
  ServedSpec s = spec(false);
  s.clients = clients;
  s.one_interpreter = one_interpreter;
  s.handler_copy_s = copy_s;
  if (clients > 2) s.request_bytes = 1e6;
  return s;
}

TEST(Served, APythonServerAloneServesAsAnyOther) {
  const InferenceResult r = simulate_served(python_server(1, true));
  std::printf("one client, one interpreter: expected 0.152000 s, simulated %.6f s\n", r.latencies_s.front());
  for (double l : r.latencies_s) EXPECT_NEAR(l, 0.152, 1e-6);
}

TEST(Served, APythonServersHandlerCopyIsInTheSend) {
  const InferenceResult r = simulate_served(python_server(1, true, 30e-3));
  std::printf("one client, a 30 ms copy: expected 0.182000 s, simulated %.6f s\n", r.latencies_s.front());
  for (double l : r.latencies_s) EXPECT_NEAR(l, 0.182, 1e-6);
  EXPECT_NEAR(r.send_s, 0.182 - 0.050 - r.receive_s, 1e-6);
  EXPECT_GT(r.send_s, 0.130);
}

// The read into fresh pages is a system call's: in the send, outside the interpreter, so
// with four clients it runs beside the others' passes and copies: in it, 16 requests would
// take at least 16 x (81 + 20) ms.
TEST(Served, APythonServersReadFaultsAreInTheSend) {
  ServedSpec alone = python_server(1, true, 30e-3);
  alone.read_faults_s = 20e-3;
  const InferenceResult r = simulate_served(alone);
  std::printf("one client, 20 ms of read faults: expected 0.202000 s, simulated %.6f s\n", r.latencies_s.front());
  for (double l : r.latencies_s) EXPECT_NEAR(l, 0.202, 1e-6);
}

TEST(Served, APythonServersReadFaultsAreOutsideItsInterpreter) {
  ServedSpec four = python_server(4, true, 30e-3);
  four.read_faults_s = 20e-3;
  const InferenceResult r = simulate_served(four);
  std::printf("four clients, 20 ms of read faults: expected 1.296-1.616 s, simulated %.6f s\n", r.makespan_s);
  EXPECT_GE(r.makespan_s, 16 * 0.081 - 1e-6);
  EXPECT_LT(r.makespan_s, 16 * 0.101 - 0.1);
}

TEST(Served, APythonServersBytesCrossBesideItsPasses) {
  const InferenceResult r = simulate_served(python_server(2, true));
  std::printf("two clients, one interpreter: expected under 0.966 s, simulated %.6f s\n", r.makespan_s);
  EXPECT_LT(r.makespan_s, 0.8 * 8 * 0.151);
}

TEST(Served, APythonServersPythonWorkTakesTurnsAndStretchesItsPasses) {
  const InferenceResult r = simulate_served(python_server(4, true, 30e-3));
  std::printf("four clients, 30 ms copies in one interpreter: expected at least 1.296 s, simulated %.6f s; "
              "a pass 0.050-0.080 s, simulated %.6f s\n",
              r.makespan_s, r.compute_s);
  EXPECT_GE(r.makespan_s, 16 * 0.081 - 1e-6);
  EXPECT_GT(r.compute_s, 0.050 + 1e-3);
  EXPECT_LE(r.compute_s, 0.080 + 1e-6);
}

TEST(Served, ANativeServersCopyRunsBesideItsPasses) {
  const InferenceResult r = simulate_served(python_server(4, false, 30e-3));
  std::printf("four clients, 30 ms copies, no interpreter: expected under 1.0 s, simulated %.6f s\n", r.makespan_s);
  EXPECT_LT(r.makespan_s, 1.0);
  EXPECT_NEAR(r.compute_s, 0.050, 1e-6);
}

// Each message has the stack's rate to itself (a thread per connection): two clients'
// 100 MB requests arriving together each take 100 ms through the server's stack, not 200.
TEST(Served, EachMessageHasTheServersStackToItself) {
  ServedSpec s = python_server(2, false);
  s.requests_per_client = 1;
  s.forward_s = {1e-3};
  const InferenceResult r = simulate_served(s);
  const double slowest = *std::max_element(r.latencies_s.begin(), r.latencies_s.end());
  std::printf("two 100 MB requests at once: expected 0.100-0.110 s, simulated %.6f s\n", slowest);
  EXPECT_GT(slowest, 0.100);
  EXPECT_LT(slowest, 0.110);
}

TEST(Served, LocallyTheProtocolsAndTheForwardPassesAreTheHostsCpuTime) {
  // Per request, each end's stack: 1 ms + (100 MB + 1 byte) at 1 GB/s = 101 ms.  Locally
  // both ends and, on a CPU, the 50 ms pass on 2 threads share the node's 4 cores: 4
  // requests x (2 x 101 + 2 x 50) ms = 1.208 core-seconds over 4 x 0.152 s.
  ServedSpec s = spec(false);
  s.cluster.gpus_per_node = 0;
  s.cluster.host_cores = 4;
  s.gpus_per_server = 0;
  s.forward_cpu_s = {2 * 50e-3};
  const InferenceResult local = simulate_served(s);
  std::printf("local on a CPU: expected 1.208 core-s, simulated %.6f\n", local.server_cpu_s);
  EXPECT_NEAR(local.server_cpu_s, 1.208, 1e-6);
  EXPECT_EQ(local.server_cores, 4);
  EXPECT_EQ(local.client_cores, 0);
}

TEST(Served, ARemoteClientsProtocolAndDecodingAreItsMachinesCpuTime) {
  // On a GPU: the server's end of the protocol only (4 x 101 ms); the client's end on its
  // own machine, with 30 ms of decoding a request.
  ServedSpec r = spec(true);
  r.cluster.host_cores = 4;
  r.load_s = 30e-3;
  const InferenceResult remote = simulate_served(r);
  EXPECT_NEAR(remote.server_cpu_s, 4 * 0.101, 1e-6);
  EXPECT_NEAR(remote.client_cpu_s, 4 * (0.101 + 0.030), 1e-6);
  EXPECT_EQ(remote.client_cores, 4);
}

TEST(Served, EachPassOnAGpuDrawsItsHostsPace) {
  // Of the 50 ms pass, 40 ms waits for the host at its median pace, 30-80 ms from its
  // fastest to its slowest percentile: each of 400 requests (one client, so no queue)
  // takes 112 ms besides its pass's kernels and waits.  Without the spread every request
  // takes 152 ms (ALocalRequestSendsComputesAndAnswers).
  ServedSpec s = spec(false);
  s.request_bytes = 1;  // 1 ms a message each way, the pass 10 ms of kernels plus its waits
  s.requests_per_client = 400;
  s.launch_wait_s = {40e-3};
  s.launch_wait_spread_s = {{30e-3, 32e-3, 34e-3, 37e-3, 40e-3, 44e-3, 50e-3, 56e-3, 80e-3}};
  const InferenceResult r = simulate_served(s);
  std::vector<double> sorted = r.latencies_s;
  std::sort(sorted.begin(), sorted.end());
  const double p50 = sorted[sorted.size() / 2], p99 = sorted[sorted.size() * 99 / 100];
  std::printf("host pace drawn per pass: expected p50 0.052 s, p99 about 0.08-0.09 s; simulated %.6f, %.6f\n", p50,
              p99);
  EXPECT_NEAR(p50, 0.002 + 0.010 + 0.040, 2e-3);
  EXPECT_GT(p99, 0.002 + 0.010 + 0.070);
  EXPECT_GE(sorted.front(), 0.002 + 0.010 + 0.030 - 1e-6);
  EXPECT_LE(sorted.back(), 0.002 + 0.010 + 0.080 + 1e-6);
}

TEST(Served, EachPassOnACpuDrawsWhetherItsTeamRunsApart) {
  // A 50 ms pass on the CPU's two threads, the mean of 45 ms with its team on its caller's
  // core and 65 ms apart, a quarter of passes apart: each of 400 requests (one client, so
  // no queue) takes 2 ms of messages and one or the other pass, none the mean.
  ServedSpec s = spec(false);
  s.cluster.gpus_per_node = 0;
  s.gpus_per_server = 0;
  s.threads = 2;
  s.request_bytes = 1;
  s.requests_per_client = 400;
  s.apart_share = {0.25};
  s.forward_apart_beyond_s = {20e-3};
  const InferenceResult r = simulate_served(s);
  const auto apart = std::count_if(r.latencies_s.begin(), r.latencies_s.end(),
                                   [](double l) { return std::abs(l - 0.067) < 1e-4; });
  const auto shared = std::count_if(r.latencies_s.begin(), r.latencies_s.end(),
                                    [](double l) { return std::abs(l - 0.047) < 1e-4; });
  std::printf("team apart in a quarter of passes: expected about 100 of 400 at 0.067 s, the rest at 0.047 s; "
              "simulated %ld and %ld\n", static_cast<long>(apart), static_cast<long>(shared));
  EXPECT_EQ(apart + shared, 400);
  EXPECT_NEAR(static_cast<double>(apart), 100, 25);
}

TEST(Served, APassAnsweringAnotherClientThanTheLastRunsAtTheHandedOverPace) {
  // A 50 ms pass of which 40 ms waits for the host, 60 ms where its thread took over from
  // another client's.  One client: every pass answers it, so none is handed over (152 ms a
  // request).  Two clients in turn: each pass after the first answers the other client, 70
  // ms on the GPU: (50 + 7 x 70) / 8 a pass.
  ServedSpec s = spec(false);
  s.request_bytes = 1;
  s.clients = 2;
  s.launch_wait_s = {40e-3};
  s.launch_wait_handoff_s = {60e-3};
  const InferenceResult r = simulate_served(s);
  std::printf("two clients, every pass but the first handed over: expected compute 0.0675 s, simulated %.6f\n",
              r.compute_s);
  EXPECT_NEAR(r.compute_s, 0.0675, 1e-6);
}

}  // namespace
}  // namespace dlsim::infer
