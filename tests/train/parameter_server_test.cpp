// Parameter servers on a workload small enough to follow by hand; expectation and
// simulation are printed side by side.
#include <cstdio>

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/plan_calls.hpp"
#include "train/parameter_server.hpp"

namespace dlsim::train {
namespace {

using testing::call;

// Two nodes of one GPU joined by 1 GB/s NICs; one server process on node 0; PCIe, the
// protocol stacks and the update so fast that only the network counts.  A step computes
// 10 ms forward and 10 ms backward, which completes one 100 MB gradient.
ParameterServerSpec two_nodes(bool synchronous) {
  ParameterServerSpec spec;
  spec.cluster = {2, 1, 1, 1, 1e15, 0, 1e9, 0};
  spec.gpus = 2;
  spec.servers = 1;
  spec.synchronous = synchronous;
  spec.steps = 4;
  spec.rpc_bytes_per_s = 1e15;
  spec.update_bytes_per_s = 1e15;
  return spec;
}

perf::StepPlan plan() {
  perf::StepPlan p;
  p.calls = {call(perf::Stage::forward, 10e-3), call(perf::Stage::backward, 10e-3), call(perf::Stage::update, 5e-3)};
  return p;
}

TEST(ParameterServer, SynchronousStepWaitsForTheFarWorker) {
  // Worker 1 pushes its 100 MB over the NICs (0.1 s) and pulls them back (0.1 s) around its
  // 20 ms of compute; worker 0, beside the server, waits for the same update: both run
  // one step per 220 ms.  The update is the server's, not the workers'.
  const TrainingResult r = simulate_ps_training(plan(), {{"layer", 100e6, 1}}, two_nodes(true));
  std::printf("synchronous step: expected 0.220000 s, simulated %.6f s\n", r.step_time_s);
  EXPECT_NEAR(r.step_time_s, 0.220, 1e-6);
  EXPECT_DOUBLE_EQ(r.update_s, 0.0);
  EXPECT_DOUBLE_EQ(r.communicated_bytes, 200e6);
}

TEST(ParameterServer, AsynchronousWorkersGoAtTheirOwnPace) {
  // Worker 0 no longer waits for worker 1: 20 ms per step against 220 ms; the cluster's
  // rate is the sum, 1/0.02 + 1/0.22 steps/s, so the mean step is 2 / that = 36.67 ms.
  const TrainingResult r = simulate_ps_training(plan(), {{"layer", 100e6, 1}}, two_nodes(false));
  const double expected = 2 / (1 / 0.020 + 1 / 0.220);
  std::printf("asynchronous step: expected %.6f s, simulated %.6f s\n", expected, r.step_time_s);
  EXPECT_NEAR(r.step_time_s / expected, 1.0, 1e-4);
}

TEST(ParameterServer, ADedicatedServerMakesEveryWorkerRemote) {
  // The server on a third node of its own: both workers push their 100 MB into its NIC at
  // once (200 MB at 1 GB/s) and pull them back the same way, around 20 ms of compute.
  ParameterServerSpec spec = two_nodes(true);
  spec.dedicated = true;
  spec.cluster.server_nodes = 1;
  const TrainingResult r = simulate_ps_training(plan(), {{"layer", 100e6, 1}}, spec);
  std::printf("dedicated server step: expected 0.420000 s, simulated %.6f s\n", r.step_time_s);
  EXPECT_NEAR(r.step_time_s, 0.420, 1e-6);
}

// TensorFlow's local_parameter_device=cpu on one GPU: 100 MB of gradients go up its
// 10 GB/s PCIe link (10 ms), the host sums and applies them (300 MB at 30 GB/s, 10 ms)
// and the GPU pulls the weights back down (10 ms) around its 20 ms of compute.
ParameterServerSpec one_device_on_its_host() {
  ParameterServerSpec spec;
  spec.cluster = {1, 1, 1, 1, 10e9, 0, 10e9, 0};
  spec.gpus = 1;
  spec.servers = 1;
  spec.steps = 4;
  spec.rpc_bytes_per_s = 1e15;
  spec.update_bytes_per_s = 30e9;
  return spec;
}

TEST(ParameterServer, OneDeviceWithItsVariablesOnTheHost) {
  const TrainingResult r = simulate_ps_training(plan(), {{"layer", 100e6, 1}}, one_device_on_its_host());
  std::printf("one device, variables on the host: expected 0.050000 s, simulated %.6f s\n", r.step_time_s);
  EXPECT_NEAR(r.step_time_s, 0.050, 1e-6);
  EXPECT_NEAR(r.exposed_communication_s, 0.030, 1e-6);
}

TEST(ParameterServer, ItsWorkersWaitForTheirLoaders) {
  // The one-device set-up above, its loader one core spending 10 ms on each of 10 images:
  // a batch every 100 ms, slower than the 50 ms step, which it then sets; the copy of
  // 10 images over 10 GB/s adds 0.6 ms.
  ParameterServerSpec spec = one_device_on_its_host();
  spec.steps = 5;
  spec.input = {false, 10, 10e-3, 602112, 1, 2};
  const TrainingResult r = simulate_ps_training(plan(), {{"layer", 100e6, 1}}, spec);
  std::printf("one device fed by a slow loader: expected 0.100 s, simulated %.6f s, stall %.6f s\n", r.step_time_s,
              r.input_stall_s);
  EXPECT_NEAR(r.step_time_s, 0.100, 1e-3);
  EXPECT_GT(r.input_stall_s, 0.040);
}

// The step time of one simulation in a child process (one SimGrid engine per process).
double step_time_in_child(const perf::StepPlan& p, const std::vector<perf::Gradient>& g,
                          const ParameterServerSpec& spec) {
  int fd[2];
  if (pipe(fd) != 0) return -1;
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    const double t = simulate_ps_training(p, g, spec).step_time_s;
    _exit(write(fd[1], &t, sizeof t) == sizeof t ? 0 : 1);
  }
  double t = -1;
  if (read(fd[0], &t, sizeof t) != sizeof t) t = -1;
  waitpid(child, nullptr, 0);
  close(fd[0]);
  close(fd[1]);
  return t;
}

// Workers simulated together (what a synchronous run without a trace does) against every
// worker apart (what a trace asks for), every link and stack finite, three gradients
// pushed as backward makes them.  4 nodes of 4 GPUs, two per PCIe switch, with 2 servers
// beside the workers: each node's workers as one (exact); with 2 servers on nodes of
// their own: every worker as one (exact).  32 nodes of 2 GPUs with 8 servers beside them
// and NICs that bind: every worker as one, within 1% (parameter_server.cpp says why not
// exact).
TEST(ParameterServer, WorkersSimulatedTogetherAgreeWithEveryWorkerApart) {
  perf::StepPlan p;
  p.calls = {call(perf::Stage::forward, 10e-3), call(perf::Stage::backward, 5e-3), call(perf::Stage::backward, 5e-3),
           call(perf::Stage::backward, 5e-3), call(perf::Stage::update, 1e-3)};
  const std::vector<perf::Gradient> g = {{"c", 30e6, 1}, {"b", 10e6, 2}, {"a", 40e6, 3}};
  struct Case {
    const char* name;
    platform::ClusterSpec cluster;
    int servers;
    bool dedicated;
    int together;
    double tolerance;
  };
  for (const Case& c : {Case{"4x4 GPUs, 2 servers beside them", {4, 4, 2, 1, 12e9, 0, 1.25e9, 5e-6, 0}, 2, false, 4, 1e-6},
                        Case{"4x4 GPUs, 2 dedicated servers", {4, 4, 2, 1, 12e9, 0, 1.25e9, 5e-6, 2}, 2, true, 16, 1e-6},
                        Case{"32x2 GPUs, 8 servers beside them, slow NICs", {32, 2, 2, 1, 12e9, 0, 0.3e9, 5e-6, 0}, 8,
                             false, 64, 0.01}}) {
    ParameterServerSpec spec;
    spec.cluster = c.cluster;
    spec.gpus = c.cluster.nodes * c.cluster.gpus_per_node;
    spec.servers = c.servers;
    spec.dedicated = c.dedicated;
    spec.rpc_bytes_per_s = 2e9;
    spec.rpc_latency_s = 100e-6;
    spec.update_bytes_per_s = 20e9;
    EXPECT_EQ(workers_simulated_as_one(spec), c.together);
    const double together = step_time_in_child(p, g, spec);
    spec.trace = true;
    EXPECT_EQ(workers_simulated_as_one(spec), 1);
    const double apart = step_time_in_child(p, g, spec);
    std::printf("%s: every worker %.6f s   %d as one %.6f s\n", c.name, apart, c.together, together);
    ASSERT_GT(apart, 0);
    EXPECT_NEAR(together / apart, 1.0, c.tolerance);
  }
}

TEST(ParameterServer, VariablesArePlacedGreedilyBySizeOrRoundRobin) {
  const std::vector<perf::Gradient> g = {{"a", 10, 0}, {"b", 400, 1}, {"c", 300, 2}, {"d", 200, 3}};
  // Largest first onto the least loaded: b -> 0, c -> 1, d -> 1 (300 < 400), a -> 0 (400 < 500).
  EXPECT_EQ(place_variables(g, 2), (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(place_variables(g, 2, false), (std::vector<int>{0, 1, 0, 1}));
}

}  // namespace
}  // namespace dlsim::train
