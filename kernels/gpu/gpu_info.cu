// Prints the identity of each visible GPU as JSON; exits 77 (skip) without a GPU.
#include <cstdio>
#include <string>

#include <cuda_runtime.h>

#include "device_identity.hpp"

namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

int main() {
  std::string why_not;
  auto first = dlsim::kernels::device_identity(0, why_not);
  if (first.empty()) {
    std::fprintf(stderr, "dlsim-gpu-info: no usable GPU (%s); skipping\n", why_not.c_str());
    return dlsim::kernels::kNoGpuExitCode;
  }
  int count = 0;
  cudaGetDeviceCount(&count);
  std::printf("{\"devices\": [\n");
  for (int d = 0; d < count; ++d) {
    const auto identity = d == 0 ? first : dlsim::kernels::device_identity(d, why_not);
    std::printf("  {");
    for (size_t i = 0; i < identity.size(); ++i)
      std::printf("%s\"%s\": \"%s\"", i ? ", " : "", identity[i].first.c_str(), escape(identity[i].second).c_str());
    std::printf("}%s\n", d + 1 < count ? "," : "");
  }
  std::printf("]}\n");
  return 0;
}
