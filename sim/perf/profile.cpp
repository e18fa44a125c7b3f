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

bool Profile::pytorch_cpu_ops() const {
  return device == "cpu" && framework.kernels_from == "framework" && framework.name.rfind("pytorch-", 0) == 0;
}

}  // namespace dlsim::perf
