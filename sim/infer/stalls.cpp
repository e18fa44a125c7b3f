#include "infer/stalls.hpp"

#include <limits>
#include <utility>

#include "infer/draws.hpp"

namespace dlsim::infer {

Stalls::Stalls(perf::StallTrace trace, uint64_t seed) : trace_(std::move(trace)), random_(seed) {
  rate_per_s_ = trace_.traced_s > 0 ? static_cast<double>(trace_.durations_s.size()) / trace_.traced_s : 0;
  next_s_ = rate_per_s_ > 0 ? exponential_gap(random_, rate_per_s_) : std::numeric_limits<double>::infinity();
}

double Stalls::during(double start, double end) {
  double stalled = 0;
  while (next_s_ <= end) {
    const auto pick = static_cast<size_t>(random_() % trace_.durations_s.size());
    if (next_s_ > start) stalled += trace_.durations_s[pick];
    next_s_ += exponential_gap(random_, rate_per_s_);
  }
  return stalled;
}

}  // namespace dlsim::infer
