#pragma once
// What a simulated training step did, when, on which track (a GPU, its communication, a
// parameter server), for a Chrome/Perfetto trace (`dlsim run --trace FILE`; report/trace.hpp
// writes it).  Only the last simulated step is kept, the steady state, and only the first
// kMaxTracedDevices GPUs: in these strategies every GPU does the same.
#include <string>
#include <vector>

#include "perf/step_plan.hpp"

namespace dlsim::train {

inline constexpr int kMaxTracedDevices = 8;

struct TraceEvent {
  std::string track;
  std::string name;
  double start_s = 0;
  double duration_s = 0;
};

struct Trace {
  bool on = false;
  std::vector<TraceEvent> events;

  void add(std::string track, std::string name, double start_s, double duration_s) {
    if (on) events.push_back({std::move(track), std::move(name), start_s, duration_s});
  }
  // The plan's calls [first, end) run back to back from `start_s` on `track`.
  void kernels(const std::string& track, const perf::StepPlan& plan, size_t first, size_t end, double start_s) {
    for (size_t i = first; i < end && on; ++i) {
      const auto& c = plan.calls[i];
      start_s += c.launch_wait_s;
      add(track, c.layer + " " + c.phase, start_s, c.answer.seconds);
      start_s += c.answer.seconds;
    }
  }
};

}  // namespace dlsim::train
