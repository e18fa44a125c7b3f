#pragma once
// A plan's chart (`dlsim plan --out DIR`: pareto.svg): every simulated configuration that
// meets the target, its Pareto front of time against cost, and the answer, on the axes of
// plan/front.hpp (billed hours and USD for a training job; p99 latency and USD per hour
// when serving a load; images/s and USD per million images otherwise).
#include <vector>

#include "plan/sweep_records.hpp"
#include "report/plot.hpp"

namespace dlsim::report {

Plot plan_plot(const std::vector<const plan::PointRecord*>& feasible, const plan::PointRecord* best);

}  // namespace dlsim::report
