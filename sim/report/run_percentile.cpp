#include "report/run_percentile.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dlsim::report {
namespace {

// P(Binomial(n, p) >= k), summing the shorter tail's terms.
double at_least(int n, int k, double p) {
  if (k <= 0 || p >= 1) return 1;
  if (k > n || p <= 0) return 0;
  const double log_p = std::log(p), log_q = std::log1p(-p), log_n = std::lgamma(n + 1.0);
  const auto term = [&](int i) {
    return std::exp(log_n - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) + i * log_p + (n - i) * log_q);
  };
  double sum = 0;
  if (n - k + 1 <= k) {
    for (int i = k; i <= n; ++i) sum += term(i);
    return std::min(sum, 1.0);
  }
  for (int i = 0; i < k; ++i) sum += term(i);
  return std::clamp(1 - sum, 0.0, 1.0);
}

}  // namespace

RunPercentile run_percentile(std::vector<double> sample, double q, int requests) {
  if (sample.empty() || requests < 1 || !(q > 0 && q <= 1))
    throw std::invalid_argument("run_percentile: a sample, q in (0, 1] and at least one request");
  std::sort(sample.begin(), sample.end());
  const int rank = std::max(1, static_cast<int>(std::ceil(q * requests - 1e-9)));
  const double m = static_cast<double>(sample.size());
  RunPercentile out;
  double below = 0;  // P(the statistic < sample[j])
  bool p10 = false, p50 = false, p90 = false;
  for (size_t j = 0; j < sample.size(); ++j) {
    const double upto = at_least(requests, rank, static_cast<double>(j + 1) / m);
    out.mean += sample[j] * (upto - below);
    below = upto;
    if (!p10 && upto >= 0.1) out.p10 = sample[j], p10 = true;
    if (!p50 && upto >= 0.5) out.p50 = sample[j], p50 = true;
    if (!p90 && upto >= 0.9) out.p90 = sample[j], p90 = true;
  }
  return out;
}

}  // namespace dlsim::report
