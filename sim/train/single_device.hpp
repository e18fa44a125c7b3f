#pragma once
// Training on one device: a SimGrid actor runs the step's kernels in order, forward,
// backward and update, each an execution on the host's cores lasting the duration sim/perf
// predicted.  Input comes from synthetic data already in memory (what the measured runs
// used), so no loader competes for the cores.
#include "perf/step_plan.hpp"
#include "platform/cluster.hpp"
#include "train/trace.hpp"

namespace dlsim::train {

struct HostSpec {
  int cores = 1;    // cores the host has
  int threads = 1;  // cores each kernel runs on
  bool trace = false;  // keep the last step's events (trace.hpp)
};

// Links a report names as the busiest of a multi-GPU simulation.
inline constexpr size_t kBusiestLinks = 5;

struct TrainingResult {
  int steps = 0;
  int devices = 1;
  double step_time_s = 0;   // simulated, mean over steps
  double forward_s = 0;     // per step, by stage, on one device
  double backward_s = 0;
  double update_s = 0;
  double launch_wait_s = 0;  // per step: the device idle waiting for its host to launch kernels
  double exposed_communication_s = 0;  // per step: communication compute did not hide
  double input_stall_s = 0;            // per step: waiting for the next batch and its copy
  double communicated_bytes = 0;       // per device and step: gradients reduced, or pushed and pulled
  int rings = 0;                       // all-reduce: the rings each bucket is split over (rings.hpp)
  // Several GPUs: where the traffic went, every simulated link direction, busiest first
  // (workers simulated together share theirs).
  std::vector<platform::LinkUse> links;
  Trace trace;                         // the last step, when asked for
};

// Simulates `steps` training steps in this process's SimGrid engine (created here: one
// simulation per process).
TrainingResult simulate_training(const perf::StepPlan& plan, const HostSpec& host, int steps);

}  // namespace dlsim::train
