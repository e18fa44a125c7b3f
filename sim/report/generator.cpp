#include "report/generator.hpp"

namespace dlsim::report {

nlohmann::ordered_json generator() {
  return {{"tool", "dlsim"}, {"version", version()}, {"commit", commit()}};
}

}  // namespace dlsim::report
