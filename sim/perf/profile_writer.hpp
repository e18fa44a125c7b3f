#pragma once
// A profile as TOML text, one measured kernel per line, deterministic (same profile, same
// bytes).  sim/scenario/profile_reader.hpp reads it back.
#include <string>

#include "perf/profile.hpp"

namespace dlsim::perf {

std::string profile_toml(const Profile& profile);

}  // namespace dlsim::perf
