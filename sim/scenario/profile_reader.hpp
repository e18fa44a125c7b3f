#pragma once
// Reads a calibration profile (the TOML `dlsim calibrate` writes, perf/profile_writer.hpp)
// with the same located, all-at-once error reporting as scenarios.
#include <string>

#include "perf/profile.hpp"

namespace dlsim::scenario {

perf::Profile parse_profile(const std::string& text, const std::string& source_name);
// Each file is parsed once a process (again when it has changed since), so that a search's
// points and the children it forks share one parse.
perf::Profile load_profile(const std::string& path);

}  // namespace dlsim::scenario
