#pragma once
// Turns raw benchmark files into a profile: measured times per kernel, and per operator,
// phase and thread count a linear model of time over the kernel's features, fitted with
// Eigen by least squares on log(predicted / measured) (Gauss-Newton from the least
// squares on relative error), coefficients kept non-negative.
#include <vector>

#include "perf/benchmark_json.hpp"
#include "perf/profile.hpp"

namespace dlsim::perf {

struct FitInputs {
  std::string machine;
  std::string cpu;        // catalog CPU, may be empty
  std::string fitted_by;  // dlsim version and commit
  std::string gpu;        // catalog GPU, required for GPU kernels
};

// Throws InputError when the files disagree about the machine they measured.
Profile fit_profile(const std::vector<RawBenchmarks>& raw, const FitInputs& inputs);

// One model from (features, seconds) points; exposed for tests.
FitModel fit_model(const std::vector<std::vector<double>>& x, const std::vector<double>& seconds,
                   std::vector<std::string> features);

// The model's answer for one kernel's feature values.
double predict(const FitModel& model, const std::vector<double>& x);

// The model's cost per unit of a named feature; 0 when the model does not use it.
double coefficient(const FitModel& model, const std::string& feature);

}  // namespace dlsim::perf
