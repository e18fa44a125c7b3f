#pragma once
// What produced an output: every JSON result starts with it.

#include <string>

#include <nlohmann/json.hpp>

namespace dlsim::report {

std::string version();
std::string commit();

// {"tool": "dlsim", "version": ..., "commit": ...}
nlohmann::ordered_json generator();

// table, json and csv for every report; kernels: for `dlsim model` one signature per line
// (the input of kernels/cpu and kernels/gpu), for `dlsim run` every priced kernel call.
enum class Format { table, json, csv, kernels };

}  // namespace dlsim::report
