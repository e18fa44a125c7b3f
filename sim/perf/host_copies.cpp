#include "perf/host_copies.hpp"

#include <cmath>

#include <fmt/format.h>

namespace dlsim::perf {
namespace {

KernelCall copy(const std::string& layer, const std::string& phase, double bytes, const KernelTimes& times,
                double link_bytes_per_s) {
  const std::string signature = copy_signature(bytes);
  KernelCall call{Stage::forward, layer, signature, phase, {}, 0.0, 0.0};
  if (times.has_phase("memcpy", phase)) {
    call.answer = times.time(signature, phase, 1);
  } else {
    call.answer.seconds = bytes / link_bytes_per_s;
    call.answer.source = Source::fallback;
    call.answer.basis = fmt::format("the bytes over the host link's {:.1f} GB/s (the profile timed no copy)",
                                    link_bytes_per_s / 1e9);
  }
  return call;
}

}  // namespace

std::string copy_signature(double bytes) { return fmt::format("memcpy u8 b{}", std::llround(bytes)); }

void add_host_copies(StepPlan& plan, double input_bytes, double output_bytes, const KernelTimes& times,
                     double link_bytes_per_s) {
  plan.calls.insert(plan.calls.begin(), copy("input", "h2d_pageable", input_bytes, times, link_bytes_per_s));
  plan.calls.push_back(copy("output", "d2h_pageable", output_bytes, times, link_bytes_per_s));
}

}  // namespace dlsim::perf
