#pragma once
// Times a phase's calls with CUDA events: warm-up calls first (lazy module loading, cuDNN's
// first-call setup, caches and clocks stay out of the rows), then each Google Benchmark
// iteration is one call between two events, reported with SetIterationTime.

#include <vector>

#include <cuda_runtime_api.h>

#include "phase.hpp"

namespace dlsim::kernels::gpu {

class EventTimer {
 public:
  EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  ~EventTimer();

  // Seconds the GPU spent on one launch() on `stream`, behind a spin of `lead_s` seconds
  // (none when 0).
  double time(const PhaseKernel& kernel, cudaStream_t stream, double lead_s);

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// Runs `warmup` untimed calls and returns the spin lead that hides the host's enqueue
// time of one call (0 for a kernel whose host work is part of it).
double warm_up(const PhaseKernel& kernel, cudaStream_t stream, int warmup);

// Median, smallest and largest of a repetition's iteration times, in seconds.
struct Spread {
  double median = 0, min = 0, max = 0;
};
Spread spread(std::vector<double> seconds);

}  // namespace dlsim::kernels::gpu
