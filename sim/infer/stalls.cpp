#include "infer/stalls.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "infer/draws.hpp"

namespace dlsim::infer {

Stalls::Stalls(perf::StallTrace trace, uint64_t seed) : trace_(std::move(trace)), random_(seed) {
  rate_per_s_ = trace_.traced_s > 0 ? static_cast<double>(trace_.durations_s.size()) / trace_.traced_s : 0;
  next_s_ = rate_per_s_ > 0 ? exponential_gap(random_, rate_per_s_) : std::numeric_limits<double>::infinity();
  if (!trace_.speed.slowdowns.empty()) first_window_ = static_cast<size_t>(random_() % trace_.speed.slowdowns.size());
}

double Stalls::at_speed(double start, double seconds) const {
  const auto& speed = trace_.speed;
  if (speed.slowdowns.empty()) return seconds;
  double t = start, work = seconds;
  for (auto window = static_cast<size_t>(std::floor(start / speed.window_s));; ++window) {
    const double slowdown = speed.slowdowns[(first_window_ + window) % speed.slowdowns.size()];
    const double end = static_cast<double>(window + 1) * speed.window_s;
    const double left = std::max(0.0, end - t);
    if (work * slowdown <= left) return t + work * slowdown - start;
    work -= left / slowdown;
    t = end;
  }
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
