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
// A shared host's pace is not one number: a pass at batch 1 on a lent H100's 16 vCPUs took
// 3.4-3.8 ms on the fastest and 5.1-6.8 on the slowest, which were slow changing within
// minutes (validation/host_pace.py).  Where the scenario gives the time per kernel at the
// host's fast and slow tenth too, the step's band carries the waits at each.
// On one vCPU the pace moves from pass to pass as well: a pass over its vCPU's median had a
// P99 of 1.55-3.63 in seven maps on two days (validation/host_pace.py's spread), so a
// served run on one thread meets a tail the median pace does not show.  Where the scenario
// gives that spread (the time per kernel over its median at kSpreadPercentiles), the plan
// holds its waits at each, and a server draws one for every pass (infer/draws.hpp).
// A pass launched by a thread that took over from another (a Python server's threads, one
// per connection, taking turns with the model) runs slower still: on the 02:31 H100 lease
// four threads taking ResNet-50's batch-1 passes in turn took 5.8-6.3 ms on vCPUs where the
// pass pinned alone took 3.7-5.4 (kernels/pytorch/pass_after_idle.py's turns mode): 35.1 us
// a launch where the pinned passes' slow tenth was 32.2, and 34.5 against 37.6 on a fresh
// machine at 02:53.  The plan holds the waits at that pace too (the scenario's, or else its
// slow tenth's).
#include <array>
#include <vector>

#include "perf/step_plan.hpp"

namespace dlsim::perf {

struct HostOverhead {
  double per_step_s = 0;
  double per_kernel_s = 0;
  double per_kernel_p10_s = 0;  // the host's time per kernel at its fast tenth; 0: per_kernel_s
  double per_kernel_p90_s = 0;  // and at its slow tenth
  std::vector<double> spread{};  // a pass's time per kernel over its median, at kSpreadPercentiles; empty: none
  double per_kernel_handoff_s = 0;  // a pass whose thread took over from another's; 0: per_kernel_s
};

// The percentiles of a host's per-pass spread (system.launch_spread).
inline constexpr std::array<double, 9> kSpreadPercentiles = {1, 5, 10, 25, 50, 75, 90, 95, 99};

// Sets every call's launch_wait_s: how long the device idles before it, waiting for it
// to be launched; and the plan's launch waits summed at the host's fast and slow pace, at
// each percentile of its per-pass spread, and at the pace of a pass handed over.
void pipeline_launches(StepPlan& plan, const HostOverhead& host);

}  // namespace dlsim::perf
