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
  // In a pass priced between two placements of its team (StepPlan::apart_share): how much
  // longer the call takes with its team apart than on its caller's core (negative where
  // apart is faster); its seconds are the two placements' mean.
  double apart_beyond_s = 0;
  // How long it holds its device's stream: the wait, then the kernel.
  double device_seconds() const { return launch_wait_s + answer.seconds; }
};

struct StepTotals {
  double seconds = 0;       // sum of medians, and of the launch waits
  double launch_wait_s = 0;  // the device idle waiting for its host
  double p10_seconds = 0;   // band: errors taken as fully correlated, the cautious choice
  double p90_seconds = 0;
  double cpu_seconds = 0;   // CPU kernels' core-seconds (KernelCall::cpu_s)
  double apart_beyond_s = 0;  // a pass with its team apart over one on its caller's core (KernelCall's)
  std::map<Source, double> seconds_by_source;
};

struct StepPlan {
  std::vector<KernelCall> calls;
  // The calls' launch waits summed at the host's fast and slow tenth (launch.hpp): the
  // band's share of the host; pipeline_launches sets them, and a plan no host launches
  // (a CPU's) waits for none.
  double launch_wait_p10_s = 0;
  double launch_wait_p90_s = 0;
  // Summed at each percentile of the host's per-pass spread (perf::kSpreadPercentiles);
  // empty where the scenario gives none.
  std::vector<double> launch_wait_spread_s;
  // Summed at the pace of a pass whose launching thread took over from another's.
  double launch_wait_handoff_s = 0;
  // The heap's refaults (a "heap" call) at the tenths of their spread over heap states
  // (step_allocations.hpp); both 0 where the plan faults none.
  double refault_p10_s = 0;
  double refault_p90_s = 0;
  bool refaults_counted = false;  // an inference pass's count given for its stack, not the heap model's
  StallTrace stalls;  // on a CPU: the interruptions a team of its threads meets there, where traced
  // A pass taking turns runs whole with its team on its caller's core or apart (the other
  // core): the share of passes that run apart; the calls are priced at the mean of the two.
  double apart_share = 0;
  StepTotals totals() const;
};

// A team of threads woken for each operator of a pass on a server's request thread.  Once
// PyTorch has run on more than one thread of a process (a server's requests come in on
// several threads, or its main thread warmed the model), libgomp keeps a team for each, and
// where that makes more threads than cores (1 + teams x (threads - 1) > cores) their idle
// threads sleep at once, so an operator called after the framework's
// own work between operators wakes its team first, which an operator timed back to back
// never does: on the Zen 5 VM a two-thread ReLU on 1x64x56x56 took 24 us back to back and
// 54-61 us after 20-100 us of the caller's own work (8-11 us either way where the
// request thread's team was the process's only one).  Timed as "team_wake fp32 n1
// e200704" (that ReLU) on a request thread, phases "back_to_back", "idle" (100 us of the
// caller's work) and "after_idle" (that work, then the ReLU): a wake is after_idle - idle
// - back_to_back (kernels/pytorch/torch_op_bench.py).
inline constexpr const char* kTeamWakeOp = "team_wake";
std::string team_wake_signature();

// A team's idle threads spin before they sleep.  Where the process's teams fit its cores
// (PassThreads::own_cores), libgomp spins GOMP_SPINCOUNT turns (300,000 by default) before
// a thread that waits for work sleeps, so through the part of each operator the team's
// other threads sit out (a serial operator, the framework's own work before the next) they
// keep their cores busy up to that long: on the Granite Rapids VM 4.0 ms, and MobileNetV3-Small
// in process at batch 1 on two threads kept 1.00 of its cores busy, where its operators'
// own CPU times add up to 0.53.  Timed as "team_spin fp32 n1 e200704" (kTeamWakeOp's ReLU)
// on the main thread, phases "back_to_back", "long_idle" (30 ms of the caller's work) and
// "after_long_idle" (that work, then the ReLU): the spin of each idle thread is the CPU
// time of after_long_idle less long_idle's and back_to_back's, over the threads - 1 that
// wait (kernels/pytorch/torch_op_bench.py).  A spin that outlasts the wait shows the wait.
inline constexpr const char* kTeamSpinOp = "team_spin";
std::string team_spin_signature();

// The distinct signatures a calibration must time for this network and batch, in first-use
// order: every layer's kernel, the gradient sums of tensors with several consumers, the
// optimizer updates (SGD, SGD with momentum, Adam) over all parameters, the page price and
// the team wake-up.
std::vector<std::string> calibration_signatures(const graph::Graph& graph, int64_t batch, graph::DataType type);

// `type` is the layers' compute type; the optimizer always updates fp32 weights (mixed
// precision keeps fp32 master weights).
StepPlan training_plan(const graph::Graph& graph, int64_t batch, const std::string& optimizer, int threads,
                       const KernelTimes& times, const FrameworkRules& rules,
                       graph::DataType type = graph::DataType::fp32);
// Where an inference pass runs, as libgomp's teams decide its operators' speed.
enum class PassThreads {
  // Its team's idle threads spin: the process's teams fit the machine's cores.
  own_cores,
  // Other threads of its process keep OpenMP teams of their own, more runtime threads than
  // cores, so libgomp lets idle ones sleep at once, and one request thread runs pass after
  // pass (a loader thread kept a team beside it): operators timed so (on a request thread
  // beside the main thread's team) where the profile has them, each waking its team where
  // the profile timed that on more than one thread.
  one_request_thread,
  // The same with the passes taking turns on several request threads (a server's
  // connections, or gRPC's pool).  Where the profile timed passes with the team on its
  // caller's core (kInferInPassSharedCore), a share of the passes runs with its team apart
  // (one_request_thread) and the rest on the caller's core, the share set by how much of the
  // pass's work its team's other threads do (kApartPerWorkerShare), the calls priced at the
  // mean of the two places; else operators timed inside passes taking turns
  // (kInferInPassTakingTurns), their wakes in them, where the profile has them; else as
  // one_request_thread.
  taking_turns,
  // A request thread whose team is pinned to its own core: its threads take turns on it, a
  // context switch a wake (kInferInPassSharedCore, else as one_request_thread).
  shared_core,
};

// The share of passes taking turns that run with their team apart rather than on the
// caller's core: this many times the share of the pass's work its team's other threads add
// on the caller's core (the pass there over the pass on the main thread, less one), at most
// all.  A team with little to do between a pass's serial operators stays on its caller's
// core, a context switch a wake; one with work of its own is pulled to the idle core, where
// every wake waits for the host on a VM that halts idle vCPUs.  A pass stays where its team
// is woken first: traced on the Granite Rapids VM (2026-12-02 08:01, ShuffleNet V2 x1.0 at
// batch 1 served with two clients, validation/data/slow_passes_devbox_granite_0810/), each
// pass ran with its worker on the caller's vCPU throughout (27-28.5 ms) or on the other
// vCPU throughout (41-45 ms, every parallel region waiting for two wakes of halted vCPUs),
// apart in 5% of the passes over HTTP, 30% over gRPC.  Fitted, as a mean over passes, on the
// Granite Rapids VM's passes in every place (2026-12-01 03:08, eight networks at batches 1
// and 8, validation/data/pass_placement_devbox_granite_0311.jsonl): 1.4-1.5 price its
// passes taking turns within 8.0% (1.0 9.2%, 2.0 8.5%); three networks timed at 06:00 after
// (pass_placement_devbox_granite_0600.jsonl) came within -3.1..+9.1%.  Checked again once
// the apart place's convolutions were priced with their parallel regions (2026-12-02, the
// refitted profiles, at pace 1 and no page faults, so not the figures above): 0.5, 1.0 and
// 1.5 price the same rows within 10.9%, 12.7% and 12.9%, those of 08:15 13.0%, 10.8% and
// 11.7%, 2026-12-02 08:07's 6.1%, 6.6% and 7.8%; no share better across them, so it stays.
inline constexpr double kApartPerWorkerShare = 1.5;

StepPlan inference_plan(const graph::Graph& graph, int64_t batch, int threads, const KernelTimes& times,
                        const FrameworkRules& rules, graph::DataType type = graph::DataType::fp32,
                        PassThreads where = PassThreads::own_cores);

// The plan on its machine at another pace than its calibration's: every call's time and
// CPU time, and the band of its refaulted pages, `pace` times the profile's; a call of an
// operator `by_operator` names (its signature's first word), that operator's pace times.
void at_pace(StepPlan& plan, double pace, const std::map<std::string, double>& by_operator = {});

}  // namespace dlsim::perf
