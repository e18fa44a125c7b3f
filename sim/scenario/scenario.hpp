#pragma once
// Scenario files (TOML) into a validated RunSpec.  The schema is documented, with an
// example per section, in scenarios/README.md.  All validation of user input lives in
// this module; every problem found is reported in one InputError.

#include <string>
#include <vector>

#include "hardware/catalog.hpp"
#include "scenario/run_spec.hpp"

namespace dlsim::scenario {

// One `--set key=value` override; the value is read as a TOML value (42, "text",
// true, [1, 2]) and, when it is not one, as a bare string.
struct Override {
  std::string key;
  std::string value;
  std::string text;  // the argument as given, for messages
};

// Parses "key=value"; throws InputError when there is no '=' or no key.
Override parse_override(const std::string& argument);

RunSpec load_scenario(const std::string& path, const std::vector<Override>& overrides,
                      const hardware::Catalog& catalog);
RunSpec parse_scenario(const std::string& text, const std::string& source_name,
                       const std::vector<Override>& overrides, const hardware::Catalog& catalog);

// The cores of the machine a CPU scenario runs on: its instance's vCPUs, else one socket of
// its catalog CPU (system.cpu), and at least its threads.
int host_cores(const SystemSpec& system, const hardware::Catalog& catalog);

}  // namespace dlsim::scenario
