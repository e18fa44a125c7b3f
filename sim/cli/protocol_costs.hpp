#pragma once
// What a protocol stack costs a request: the calibration a scenario's protocol is priced
// from (kernels/net) and its cost per request and per byte, carried to the scenario's CPU.
#include <string>

#include "hardware/catalog.hpp"
#include "scenario/run_spec.hpp"

namespace dlsim::cli {

// The calibration of a protocol ("grpc", "http") as a stack implements it ("native": C++,
// kernels/net/dlsim-net-bench; "python": kernels/net/serving_stack.py), timed on the
// development VM.
std::string protocol_profile(const std::string& protocol, const std::string& stack = "native");

// The protocol calibration a serving scenario names, else the development VM's for its stack
// and protocol; it must have timed that protocol.
std::string serving_protocol_profile(const scenario::RunSpec& spec);

// A protocol's cost per request and per byte (its profile's push fit: "one" and "bytes";
// a simulated link is linear, so the further cost of messages glibc maps afresh,
// "mapped_bytes", is left out), carried to the instance's CPU by clock; says what it
// assumed in `notes`.
struct RpcCosts {
  double latency_s = 0;
  double bytes_per_s = 0;
  const hardware::Cpu* cpu = nullptr;  // the instance's, when known
};
RpcCosts rpc_costs(const scenario::RunSpec& spec, const hardware::Catalog& catalog, const std::string& path,
                   std::string& notes);

}  // namespace dlsim::cli
