#pragma once
// How SimGrid computes the time of a transfer, chosen on purpose.
//
// dlsim uses SimGrid's CM02 model with cross-traffic off, every correction factor at 1 and
// the TCP window bound off, so that one flow alone on a path takes exactly the alpha-beta
// time
//     t = sum of link latencies + bytes / min link bandwidth
// and flows that share a link divide its bandwidth fairly (max-min).  SimGrid's default
// (LV08) multiplies latency by 13.01 and bandwidth by 0.97, factors fitted to TCP over
// 2000s Ethernet; on a 1 MB ring all-reduce over 64 GPUs that made the time 10x the
// alpha-beta time (../shared/NOTES-SIMGRID.md).  What a real NIC, NCCL or gRPC stack adds
// to alpha-beta is measured by the network calibration and enters through the factors
// below, never through SimGrid's built-in constants.

#include <string>
#include <vector>

namespace dlsim::platform {

struct NetworkModelConfig {
  double latency_factor = 1.0;    // multiplies every link latency
  double bandwidth_factor = 1.0;  // multiplies every link bandwidth
  double tcp_gamma_bytes = 0.0;   // TCP window bound (rate <= gamma / 2 RTT); 0 disables it
  bool cross_traffic = false;     // acknowledgements loading the reverse direction
};

// SimGrid configuration items ("network/model:CM02", ...) for Engine::set_config, to be
// applied after the engine is created and before the platform is built.
std::vector<std::string> simgrid_config(const NetworkModelConfig& config);

// Applies them to the running process's engine.
void apply(const NetworkModelConfig& config);

}  // namespace dlsim::platform
