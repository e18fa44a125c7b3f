#include "timing.hpp"

#include <algorithm>
#include <chrono>

#include "check.hpp"
#include "spin.hpp"

namespace dlsim::kernels::gpu {
namespace {

// The lead is twice the slowest enqueue seen, plus slack for the host being descheduled,
// capped so that a slow enqueue costs time but not the run.
constexpr double kLeadSlack_s = 20e-6, kLeadCap_s = 0.05;

}  // namespace

EventTimer::EventTimer() {
  check(cudaEventCreate(&start_), "cudaEventCreate");
  check(cudaEventCreate(&stop_), "cudaEventCreate");
}

EventTimer::~EventTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

double EventTimer::time(const PhaseKernel& kernel, cudaStream_t stream, double lead_s) {
  if (lead_s > 0) launch_spin(lead_s, stream);
  check(cudaEventRecord(start_, stream), "cudaEventRecord");
  kernel.launch();
  check(cudaEventRecord(stop_, stream), "cudaEventRecord");
  check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
  return 1e-3 * ms;
}

double warm_up(const PhaseKernel& kernel, cudaStream_t stream, int warmup) {
  const int calls = std::max(warmup, 1);
  double slowest_enqueue = 0;
  for (int i = 0; i < calls; ++i) {
    const auto start = std::chrono::steady_clock::now();
    kernel.launch();
    const double enqueue = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // The first call loads modules and sets up: its enqueue time is not the steady one.
    if (i > 0 || calls == 1) slowest_enqueue = std::max(slowest_enqueue, enqueue);
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }
  return kernel.host_work ? 0 : std::min(2 * slowest_enqueue + kLeadSlack_s, kLeadCap_s);
}

Spread spread(std::vector<double> s) {
  if (s.empty()) return {};
  std::sort(s.begin(), s.end());
  const size_t mid = s.size() / 2;
  const double median = s.size() % 2 ? s[mid] : 0.5 * (s[mid - 1] + s[mid]);
  return {median, s.front(), s.back()};
}

}  // namespace dlsim::kernels::gpu
