#pragma once
// Checks shared by the tests of the kernel benchmarks (kernels/cpu, kernels/pytorch): the
// Google Benchmark JSON they write has no error row and times every signature of a file.
#include <fstream>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace dlsim::testing {

inline void expect_every_signature_timed(const nlohmann::json& output, const std::string& signature_file) {
  std::set<std::string> measured;
  for (const auto& b : output["benchmarks"]) {
    EXPECT_FALSE(b.value("error_occurred", false)) << b["name"] << ": " << b.value("error_message", "");
    const std::string name = b["name"];
    measured.insert(name.substr(0, name.find(" | ")));
  }
  std::ifstream in(signature_file);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    EXPECT_TRUE(measured.count(line)) << "not measured: " << line;
  }
}

}  // namespace dlsim::testing
