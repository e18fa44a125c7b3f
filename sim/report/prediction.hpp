#pragma once
// One simulated prediction, as the reporters receive it: the priced kernel plan, its band
// and provenance, and what the SimGrid simulation made of it.
#include <optional>
#include <string>

#include "infer/in_process.hpp"
#include "perf/step_plan.hpp"
#include "train/single_device.hpp"

namespace dlsim::report {

struct Prediction {
  std::string profile;        // path of the calibration profile used
  std::string profile_machine;
  std::string framework;      // the profile's framework rules
  std::string scaling;        // how the profile was carried to the scenario's device; empty if not
  std::string host_cpu;       // the catalog CPU of the scenario's machine (a GPU's host); empty if unknown
  bool on_gpu = false;        // the kernels ran on GPUs (gpu_utilization is reported)
  perf::StepPlan plan;        // one step (training) or one forward pass (inference)
  perf::StepTotals totals;
  std::optional<train::TrainingResult> training;
  std::optional<infer::InferenceResult> inference;
  // A closed loop's latency percentiles as a run timing this many requests reports them
  // (run_percentile.hpp; serving.timed_requests); 0: the simulated requests' own.
  int timed_requests = 0;
};

}  // namespace dlsim::report
