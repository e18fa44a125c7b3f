#pragma once
// Reads a calibration profile (the TOML `dlsim calibrate` writes, perf/profile_writer.hpp)
// with the same located, all-at-once error reporting as scenarios.
#include <string>

#include "perf/profile.hpp"

namespace dlsim::scenario {

perf::Profile parse_profile(const std::string& text, const std::string& source_name);
perf::Profile load_profile(const std::string& path);

}  // namespace dlsim::scenario
