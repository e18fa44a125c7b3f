#pragma once
// One machine as SimGrid sees it when nothing crosses a network: a host with its cores,
// each computing `speed` operations per second.  Kernel durations from sim/perf become
// executions of duration x speed operations, so the simulated clock advances by exactly
// the predicted duration when the kernel has the cores it asked for.
#include <string>
#include <utility>

namespace simgrid::s4u {
class Host;
}  // namespace simgrid::s4u

namespace dlsim::platform {

// Operations per simulated second of a core: durations are executed as nanoseconds.
inline constexpr double kOpsPerSecond = 1e9;

// Builds the host as its own zone of the running engine.
simgrid::s4u::Host* build_single_host(const std::string& name, int cores);

// The host and a GPU in it (one core computing kernels), in one zone of the running engine;
// nothing travels between them.
std::pair<simgrid::s4u::Host*, simgrid::s4u::Host*> build_host_and_gpu(const std::string& name, int cores);

}  // namespace dlsim::platform
