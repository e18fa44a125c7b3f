#include "report/run_percentile.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace dlsim::report {

double reported_percentile(const std::vector<double>& sorted, double q) {
  const auto index = static_cast<size_t>(std::floor(q * static_cast<double>(sorted.size() - 1) + 0.5));
  return sorted[std::min(index, sorted.size() - 1)];
}

RunPercentile run_percentile(const std::vector<double>& latencies, double q, int requests) {
  if (latencies.empty() || requests < 1 || !(q > 0 && q <= 1))
    throw std::invalid_argument("run_percentile: latencies, q in (0, 1] and at least one request");
  const size_t n = std::min(latencies.size(), static_cast<size_t>(requests));
  std::vector<double> runs;
  runs.reserve(latencies.size() - n + 1);
  for (size_t first = 0; first + n <= latencies.size(); ++first) {
    std::vector<double> run(latencies.begin() + static_cast<std::ptrdiff_t>(first),
                            latencies.begin() + static_cast<std::ptrdiff_t>(first + n));
    std::sort(run.begin(), run.end());
    runs.push_back(reported_percentile(run, q));
  }
  std::sort(runs.begin(), runs.end());
  RunPercentile out;
  out.mean = std::accumulate(runs.begin(), runs.end(), 0.0) / static_cast<double>(runs.size());
  out.p10 = reported_percentile(runs, 0.1);
  out.p50 = reported_percentile(runs, 0.5);
  out.p90 = reported_percentile(runs, 0.9);
  return out;
}

}  // namespace dlsim::report
