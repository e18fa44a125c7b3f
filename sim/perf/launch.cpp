#include "perf/launch.hpp"

#include <algorithm>

namespace dlsim::perf {

void pipeline_launches(StepPlan& plan, const HostOverhead& host) {
  double launched = host.per_step_s, end = 0;
  for (auto& call : plan.calls) {
    launched += host.per_kernel_s;
    const double start = std::max(launched, end);
    call.launch_wait_s = start - end;
    end = start + call.answer.seconds;
  }
}

}  // namespace dlsim::perf
