#pragma once
// The interruptions of a machine that stall a team of threads, and the drift of its speed
// between them (perf::StallTrace, traced by kernels/pytorch/stall_trace.py), replayed in
// simulated time.  A forward pass is priced from operator timings that leave both out
// (their medians); a request's tail latency is made of them.  Interruptions arrive as a
// Poisson process at the traced rate, each as long as a traced stall drawn at random, and
// a team running when one arrives is stalled for that long.  The speed trace plays in a
// loop from a window drawn at random, in order, since a VM's slow spells last a second or
// so and meet consecutive requests alike; a team's work progresses at the speed of the
// windows it runs in.  The draws come from a fixed seed with no library distribution in
// between (draws.hpp), so every run and platform gives the same times.
#include <cstdint>
#include <random>

#include "perf/profile.hpp"

namespace dlsim::infer {

class Stalls {
 public:
  Stalls(perf::StallTrace trace, uint64_t seed);
  // The stall seconds of the interruptions arriving in (start, end]; those before `start`
  // met no team.  Windows are asked in order of time.
  double during(double start, double end);
  // How long `seconds` of work at the median speed takes when it starts at `start`.
  double at_speed(double start, double seconds) const;

 private:
  perf::StallTrace trace_;
  double rate_per_s_ = 0;
  double next_s_ = 0;
  size_t first_window_ = 0;  // of the speed trace, at time 0
  std::mt19937_64 random_;
};

}  // namespace dlsim::infer
