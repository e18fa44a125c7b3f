#pragma once
// A GPU runs what its host launches.  The host's framework spends a fixed time per step
// (TensorFlow's session.run, a Python training loop's turn, a serving request's dispatch)
// and a time per kernel (the framework's op dispatch and the driver's launch), and does not
// wait for kernels to finish.  On one stream, with h the per-step and k the per-kernel time:
//   launched_i = h + (i + 1) k
//   start_i    = max(launched_i, end_{i-1}),   end_i = start_i + t_i,   end_{-1} = 0
// so the GPU idles (start_i - end_{i-1}) whenever the host falls behind: small kernels of a
// small batch or a small network run at the host's pace, large ones at the GPU's.  The
// host's costs come from the scenario (system.step_overhead, system.launch_overhead);
// timings of the kernels alone (DeepBench, dlsim-gpu-bench) hold none of them.
#include "perf/step_plan.hpp"

namespace dlsim::perf {

struct HostOverhead {
  double per_step_s = 0;
  double per_kernel_s = 0;
};

// Sets every call's launch_wait_s: how long the device idles before it, waiting for it
// to be launched.
void pipeline_launches(StepPlan& plan, const HostOverhead& host);

}  // namespace dlsim::perf
