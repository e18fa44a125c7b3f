#include "cli/protocol_costs.hpp"

#include <fmt/format.h>

#include "cli/predict.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "perf/fit.hpp"
#include "scenario/profile_reader.hpp"

namespace dlsim::cli {
namespace {

// How a stack's requests were timed, where its profile says (kernels/net/py_transfer_bench.py
// since 2026-11-29): as it serves a network, after an idle pause, or bare and back to back.
std::string how_timed(const perf::Profile& protocol) {
  const auto handler = protocol.identity.find("handler_model");
  const auto idle = protocol.identity.find("idle_ms");
  if (handler == protocol.identity.end()) return "";
  const std::string pause = idle == protocol.identity.end() || idle->second == "0" ? "back to back"
                                                                                     : "each after " + idle->second + " ms idle";
  return handler->second == "none" ? ", requests timed " + pause + " against a bare server"
                                   : ", requests timed " + pause + " as it serves " + handler->second;
}

}  // namespace

std::string protocol_profile(const std::string& protocol, const std::string& stack) {
  return profile_dir() + "/protocols/" + (stack == "native" ? "" : stack + "-") + protocol +
         "-devbox-emerald-rapids-2vcpu.toml";
}

std::string serving_protocol_profile(const scenario::RunSpec& spec) {
  const scenario::ServingSpec& s = *spec.serving;
  if (s.protocol_profile.empty()) return protocol_profile(s.protocol, s.stack);
  const perf::Profile profile = scenario::load_profile(s.protocol_profile);
  if (profile.framework.name.find(s.protocol) == std::string::npos)
    throw InputError(Problem{{spec.source, 0, 0}, "serving.protocol_profile", s.protocol_profile,
                             fmt::format("a calibration of {} (this one timed {})", s.protocol, profile.framework.name),
                             "pick the file of the scenario's serving.protocol"});
  return s.protocol_profile;
}

RpcCosts rpc_costs(const scenario::RunSpec& spec, const hardware::Catalog& catalog, const std::string& path,
                   std::string& notes) {
  const perf::Profile protocol = scenario::load_profile(path);
  const perf::FitModel* push = nullptr;
  for (const auto& f : protocol.fits)
    if (f.op == "transfer" && f.phase == "push") push = &f;
  if (!push) throw UnrunnableError("the protocol profile " + path + " has no push fit");
  const auto* from = catalog.find_cpu(protocol.cpu);
  RpcCosts c;
  c.cpu = spec.system.instance.empty() ? nullptr : catalog.find_cpu(catalog.instance(spec.system.instance).cpu);
  const double clock = from && c.cpu ? from->base_clock_Hz / c.cpu->base_clock_Hz : 1.0;
  const double per_byte = perf::coefficient(*push, "bytes");
  if (!(per_byte > 0))
    throw UnrunnableError("the protocol profile " + path + "'s push fit has no cost per byte");
  c.latency_s = perf::coefficient(*push, "one") * clock;
  c.bytes_per_s = 1 / (per_byte * clock);
  notes += fmt::format("{}{}: {} per request, {:.2f} GB/s per process (from {} on {}{}, by clock to {})",
                       notes.empty() ? "" : "; ", protocol.framework.name, format_time(c.latency_s), c.bytes_per_s / 1e9,
                       protocol.machine, protocol.cpu, how_timed(protocol), c.cpu ? c.cpu->name : "the same CPU");
  return c;
}

}  // namespace dlsim::cli
