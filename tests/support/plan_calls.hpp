#pragma once
// A kernel call of a step plan whose time is given: the workloads small enough to follow
// by hand that the simulation tests build.
#include <string>

#include "perf/step_plan.hpp"

namespace dlsim::testing {

inline perf::KernelCall call(perf::Stage stage, double seconds, const std::string& layer = "layer",
                             const std::string& phase = "fwd") {
  return {stage, layer, "sig", phase, {seconds, 0.0, perf::Source::measured, "given"}};
}

}  // namespace dlsim::testing
