// Any bytes as a scenario: parse_scenario either returns a RunSpec or throws InputError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "scenario/catalog_loader.hpp"
#include "scenario/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)dlsim::scenario::parse_scenario(text, "fuzz.toml", {}, dlsim::scenario::builtin_catalog());
  } catch (const dlsim::InputError&) {
  }
  return 0;
}
