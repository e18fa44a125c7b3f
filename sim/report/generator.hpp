#pragma once
// What produced an output: every JSON result starts with it.

#include <string>

#include <nlohmann/json.hpp>

namespace dlsim::report {

std::string version();
std::string commit();

// {"tool": "dlsim", "version": ..., "commit": ...}
nlohmann::ordered_json generator();

enum class Format { table, json, csv };

}  // namespace dlsim::report
