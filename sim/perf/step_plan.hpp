#pragma once
// Workload expansion: a network and a batch become the kernels one device runs per step,
// in order, as the profile's framework runs them, each priced by KernelTimes.
//   training:  forward in graph order; backward in reverse (data then weight gradients,
//              gradient sums where a tensor feeds several layers); the optimizer update;
//              on a glibc host, the pages each stage's heap faults again ("heap", phase
//              "refault", step_allocations.hpp)
//   inference: forward only, training-only heads and dropout skipped
#include <map>
#include <string>
#include <vector>

#include "graph/cost.hpp"
#include "graph/graph.hpp"
#include "perf/features.hpp"
#include "perf/kernel_times.hpp"

namespace dlsim::perf {

enum class Stage { forward, backward, update };
std::string to_string(Stage stage);

struct KernelCall {
  Stage stage = Stage::forward;
  std::string layer;
  std::string signature;
  std::string phase;
  Answer answer;
  double launch_wait_s = 0;  // the device idle before it, waiting for the host to launch it (launch.hpp)
  double cpu_s = 0;          // a CPU kernel's core-seconds: as timed, else its time on every thread
  // How long it holds its device's stream: the wait, then the kernel.
  double device_seconds() const { return launch_wait_s + answer.seconds; }
};

struct StepTotals {
  double seconds = 0;       // sum of medians, and of the launch waits
  double launch_wait_s = 0;  // the device idle waiting for its host
  double p10_seconds = 0;   // band: errors taken as fully correlated, the cautious choice
  double p90_seconds = 0;
  double cpu_seconds = 0;   // CPU kernels' core-seconds (KernelCall::cpu_s)
  std::map<Source, double> seconds_by_source;
};

struct StepPlan {
  std::vector<KernelCall> calls;
  StepTotals totals() const;
};

// The distinct signatures a calibration must time for this network and batch, in first-use
// order: every layer's kernel, the gradient sums of tensors with several consumers, and the
// optimizer updates (SGD, SGD with momentum, Adam) over all parameters.
std::vector<std::string> calibration_signatures(const graph::Graph& graph, int64_t batch, graph::DataType type);

// `type` is the layers' compute type; the optimizer always updates fp32 weights (mixed
// precision keeps fp32 master weights).
StepPlan training_plan(const graph::Graph& graph, int64_t batch, const std::string& optimizer, int threads,
                       const KernelTimes& times, const FrameworkRules& rules,
                       graph::DataType type = graph::DataType::fp32);
// request_thread: the forward pass runs on a thread other than the process's main one, as
// in every HTTP or gRPC server (operators timed so where the profile has them).
StepPlan inference_plan(const graph::Graph& graph, int64_t batch, int threads, const KernelTimes& times,
                        const FrameworkRules& rules, graph::DataType type = graph::DataType::fp32,
                        bool request_thread = false);

}  // namespace dlsim::perf
