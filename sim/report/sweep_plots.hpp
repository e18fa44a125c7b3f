#pragma once
// The charts of a sweep, from its records (plan/sweep_records.hpp):
//   throughput          images/s against the first numeric varied key (system.devices if
//                       varied), one line per combination of the other keys; against GPU
//                       counts with each line's ideal scaling from its smallest count, dashed
//   scaling_efficiency  against system.devices, when varied
//   latency_throughput  p99 latency against images/s, for serving
//   cost_time           a training job's USD against its billed hours
// Only the charts the records have data for.
#include <map>
#include <vector>

#include "plan/sweep_records.hpp"
#include "report/plot.hpp"

namespace dlsim::report {

std::vector<Plot> sweep_plots(const std::vector<plan::Vary>& varies, const std::map<size_t, plan::PointRecord>& records);

}  // namespace dlsim::report
