#include "perf/launch.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace dlsim::perf {

namespace {

// The device's wait for its host before each call, at `per_kernel_s` a launch.
std::vector<double> launch_waits(const StepPlan& plan, double per_step_s, double per_kernel_s) {
  std::vector<double> waits;
  double launched = per_step_s, end = 0;
  for (const auto& call : plan.calls) {
    launched += per_kernel_s;
    const double start = std::max(launched, end);
    waits.push_back(start - end);
    end = start + call.answer.seconds;
  }
  return waits;
}

double total_wait(const StepPlan& plan, double per_step_s, double per_kernel_s) {
  const auto waits = launch_waits(plan, per_step_s, per_kernel_s);
  return std::accumulate(waits.begin(), waits.end(), 0.0);
}

}  // namespace

void pipeline_launches(StepPlan& plan, const HostOverhead& host) {
  const auto waits = launch_waits(plan, host.per_step_s, host.per_kernel_s);
  for (size_t i = 0; i < waits.size(); ++i) plan.calls[i].launch_wait_s = waits[i];
  const auto or_median = [&](double s) { return s > 0 ? s : host.per_kernel_s; };
  plan.launch_wait_p10_s = total_wait(plan, host.per_step_s, or_median(host.per_kernel_p10_s));
  plan.launch_wait_p90_s = total_wait(plan, host.per_step_s, or_median(host.per_kernel_p90_s));
  plan.launch_wait_handoff_s = total_wait(plan, host.per_step_s, or_median(host.per_kernel_handoff_s));
  plan.launch_wait_spread_s.clear();
  for (double ratio : host.spread)
    plan.launch_wait_spread_s.push_back(total_wait(plan, host.per_step_s, ratio * host.per_kernel_s));
}

}  // namespace dlsim::perf
