#include "perf/launch.hpp"

#include <algorithm>

namespace dlsim::perf {

namespace {

// The device's waits for its host, call by call, at `per_kernel_s` a launch.
template <typename Wait>
void pipeline(const StepPlan& plan, double per_step_s, double per_kernel_s, Wait&& wait) {
  double launched = per_step_s, end = 0;
  for (size_t i = 0; i < plan.calls.size(); ++i) {
    launched += per_kernel_s;
    const double start = std::max(launched, end);
    wait(i, start - end);
    end = start + plan.calls[i].answer.seconds;
  }
}

double total_wait(const StepPlan& plan, double per_step_s, double per_kernel_s) {
  double total = 0;
  pipeline(plan, per_step_s, per_kernel_s, [&](size_t, double wait) { total += wait; });
  return total;
}

}  // namespace

void pipeline_launches(StepPlan& plan, const HostOverhead& host) {
  pipeline(plan, host.per_step_s, host.per_kernel_s, [&](size_t i, double wait) { plan.calls[i].launch_wait_s = wait; });
  const auto or_median = [&](double s) { return s > 0 ? s : host.per_kernel_s; };
  plan.launch_wait_p10_s = total_wait(plan, host.per_step_s, or_median(host.per_kernel_p10_s));
  plan.launch_wait_p90_s = total_wait(plan, host.per_step_s, or_median(host.per_kernel_p90_s));
}

}  // namespace dlsim::perf
