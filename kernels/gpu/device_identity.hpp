#pragma once
// The identity of the GPU a measurement ran on, for the context of every benchmark JSON:
// device name, SMs, clocks, memory, driver and library versions.

#include <string>
#include <utility>
#include <vector>

namespace dlsim::kernels {

// Exit status of a GPU program on a machine without a usable GPU; ctest treats it as "skipped".
constexpr int kNoGpuExitCode = 77;

// Key/value pairs; empty when no GPU is usable, with the reason in `why_not`.
std::vector<std::pair<std::string, std::string>> device_identity(int device, std::string& why_not);

}  // namespace dlsim::kernels
