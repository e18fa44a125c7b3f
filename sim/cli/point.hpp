#pragma once
// One point of a sweep or a plan: the scenario with its overrides, predicted in the calling
// process (a child: one SimGrid engine per process), as the record a sweep keeps.
#include <string>
#include <vector>

#include "plan/sweep.hpp"
#include "plan/sweep_records.hpp"

namespace dlsim::cli {

// Never throws: a point that cannot be predicted is a record with its exit code and message.
plan::PointRecord predict_point(const std::string& scenario, const std::vector<std::string>& sets,
                                const plan::SweepPoint& point);

}  // namespace dlsim::cli
