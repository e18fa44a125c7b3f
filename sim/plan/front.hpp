#pragma once
// A predicted point's time and cost, the two axes a plan trades off, and the Pareto front
// over them.  Which time and which cost depend on what was predicted:
//   job         a training job (a scenario with [job]): its billed-time sum (s) and USD;
//   open_loop   serving an offered load: p99 latency (s) and the fleet's USD per hour;
//   throughput  anything else: images/s, negated so that less is better, and USD per
//               million images.
#include <string>
#include <vector>

#include "plan/sweep_records.hpp"

namespace dlsim::plan {

enum class Axes { job, open_loop, throughput };

Axes axes_of(const PointRecord& r);
double time_of(const PointRecord& r);
double cost_of(const PointRecord& r);
// A metric's value, NaN when the record lacks it.
double metric(const PointRecord& r, const std::string& key);

// The points no other beats on both axes, by time.
std::vector<const PointRecord*> pareto_front(const std::vector<const PointRecord*>& points);

}  // namespace dlsim::plan
