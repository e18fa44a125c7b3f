#include "perf/profile.hpp"

#include <algorithm>

namespace dlsim::perf {

std::vector<int> Profile::threads() const {
  std::vector<int> out;
  for (const auto& [key, t] : measured)
    if (std::find(out.begin(), out.end(), key.threads) == out.end()) out.push_back(key.threads);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace dlsim::perf
