// How long dlsim takes to simulate data-parallel training steps of ResNet-50 on 8 to
// 1,024 GPUs: 8 V100s per node with NVLink (through NVSwitch, or a hybrid cube mesh with
// NCCL's six rings), 100 Gbit/s NICs; ring all-reduce of 25 MB buckets (one step), or
// synchronous parameter servers, one per node (the three steps a parameter-server
// prediction simulates, for its steady state).  SimGrid allows one engine per process, so
// every iteration simulates in a child process; the wall time includes the platform's
// construction, and the child's peak memory is reported beside it (goal: 1,024 GPUs under
// 1 s, memory at most linear); and a serving fleet of 1 to 256 nodes.
#include <tuple>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <benchmark/benchmark.h>

#include "graph/zoo.hpp"
#include "infer/served.hpp"
#include "perf/buckets.hpp"
#include "perf/kernel_times.hpp"
#include "scenario/profile_reader.hpp"
#include "train/data_parallel.hpp"
#include "train/parameter_server.hpp"

namespace {

using namespace dlsim;

struct Workload {
  perf::StepPlan plan;
  std::vector<perf::GradientBucket> buckets;
  std::vector<perf::Gradient> gradients;
};

Workload resnet50_on_v100() {
  static const perf::Profile profile = scenario::load_profile(DLSIM_PROFILE_DIR "/gpu/v100-sxm2.toml");
  const perf::GpuRates v100{"v100-sxm2", 80, 15.7e12, 31.4e12, 0, 125e12, 900e9};
  perf::LookupOptions options;
  options.allow_fallback = true;
  options.gpu = perf::GpuTarget{v100, v100};
  const perf::KernelTimes times(profile, options);
  const auto model = graph::zoo_model("resnet50");
  Workload w;
  w.plan = perf::training_plan(model, 64, "sgd_momentum", 1, times, profile.framework);
  w.buckets = perf::gradient_buckets(w.plan, model, 25.0 * 1024 * 1024);
  w.gradients = perf::gradients(w.plan, model);
  return w;
}

platform::ClusterSpec v100_nodes(int gpus) {
  return {std::max(1, gpus / 8), std::min(gpus, 8), 1, 8, 12.5e9, 150e9, 100e9 / 8, 5e-6};
}

// Runs `simulate` in a child process (one SimGrid engine per process) and reports its
// peak memory.
template <typename F>
void in_children(benchmark::State& state, F simulate) {
  long peak_kib = 0;
  for (auto _ : state) {
    const pid_t child = fork();
    if (child == 0) {
      simulate();
      _exit(0);
    }
    int status = 0;
    rusage usage{};
    wait4(child, &status, 0, &usage);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) state.SkipWithError("the simulation failed");
    peak_kib = std::max(peak_kib, usage.ru_maxrss);
  }
  state.counters["peak_rss_MiB"] = static_cast<double>(peak_kib) / 1024;
}

void BM_RingStep(benchmark::State& state) {
  const int gpus = static_cast<int>(state.range(0));
  const Workload w = resnet50_on_v100();
  train::DataParallelSpec spec;
  spec.cluster = v100_nodes(gpus);
  spec.gpus = gpus;
  spec.steps = 1;
  in_children(state, [&] { train::simulate_allreduce_training(w.plan, w.buckets, spec); });
  state.counters["kernels_per_gpu"] = static_cast<double>(w.plan.calls.size());
}

// The same on p3.16xlarge-like nodes: NVLink as the V100 hybrid cube mesh, link by link,
// and NCCL's six rings along it through every node.
void BM_MeshRingStep(benchmark::State& state) {
  const int gpus = static_cast<int>(state.range(0));
  const Workload w = resnet50_on_v100();
  train::DataParallelSpec spec;
  spec.cluster = v100_nodes(gpus);
  spec.cluster.nvlink_Bps = 0;
  for (auto [a, b, links] : {std::tuple{0, 1, 1}, {0, 2, 1}, {0, 3, 2}, {0, 4, 2}, {1, 2, 2}, {1, 3, 1}, {1, 5, 2},
                             {2, 3, 2}, {2, 6, 1}, {3, 7, 1}, {4, 5, 1}, {4, 6, 1}, {4, 7, 2}, {5, 6, 2}, {5, 7, 1},
                             {6, 7, 2}})
    if (a < spec.cluster.gpus_per_node && b < spec.cluster.gpus_per_node)
      spec.cluster.nvlink_pairs.push_back({a, b, links, links * 25e9});
  spec.gpus = gpus;
  spec.steps = 1;
  in_children(state, [&] { train::simulate_allreduce_training(w.plan, w.buckets, spec); });
}

void BM_ParameterServerSteps(benchmark::State& state) {
  const int gpus = static_cast<int>(state.range(0));
  const Workload w = resnet50_on_v100();
  train::ParameterServerSpec spec;
  spec.cluster = v100_nodes(gpus);
  spec.gpus = gpus;
  spec.servers = std::max(1, gpus / 8);
  spec.rpc_bytes_per_s = 1.15e9;  // gRPC as calibrated on the development VM
  spec.rpc_latency_s = 120e-6;
  spec.update_bytes_per_s = 77e9;
  in_children(state, [&] { train::simulate_ps_training(w.plan, w.gradients, spec); });
}

// Serving: a fleet of nodes with one V100 each behind gRPC, four synchronous clients per
// node sending batches of 8 images (2,000 requests in all, dynamic batching up to four
// requests), as `dlsim plan` simulates each configuration it tries for a serving target.
void BM_ServedFleet(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  infer::ServedSpec spec;
  spec.cluster = {nodes, 1, 1, 8, 12.5e9, 0, 25e9 / 8, 5e-6};
  spec.clients = 4 * nodes;
  spec.requests_per_client = 2000 / spec.clients + 1;
  spec.rpc_bytes_per_s = 1.15e9;  // gRPC as calibrated on the development VM
  spec.rpc_latency_s = 120e-6;
  spec.request_bytes = 8 * 602112.0;
  spec.response_bytes = 8 * 4000.0;
  spec.forward_s = {0.004, 0.0065, 0.009, 0.0115};  // ResNet-50 at 8 to 32 images on a V100
  spec.max_queue_delay_s = 0.001;
  in_children(state, [&] { infer::simulate_served(spec); });
}

BENCHMARK(BM_RingStep)->Arg(8)->Arg(64)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MeshRingStep)->Arg(8)->Arg(64)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ParameterServerSteps)->Arg(8)->Arg(64)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ServedFleet)->Arg(1)->Arg(16)->Arg(64)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
