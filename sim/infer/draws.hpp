#pragma once
// Draws from a seeded std::mt19937_64 with no library distribution in between, so that
// one seed gives the same numbers on every platform and standard library.
#include <cmath>
#include <random>
#include <vector>

#include "perf/launch.hpp"

namespace dlsim::infer {

// Uniform in (0, 1], from the top 53 bits.
inline double uniform_draw(std::mt19937_64& random) {
  return (static_cast<double>(random() >> 11) + 1.0) * 0x1.0p-53;
}

// The gap to the next arrival of a Poisson process of `rate` a second.
inline double exponential_gap(std::mt19937_64& random, double rate) { return -std::log(uniform_draw(random)) / rate; }

// A value drawn from its distribution given at perf::kSpreadPercentiles: linear between
// them, the first below P1 and the last above P99.
inline double percentile_draw(std::mt19937_64& random, const std::vector<double>& at_percentiles) {
  const auto& p = perf::kSpreadPercentiles;
  const double u = 100 * uniform_draw(random);
  if (u <= p.front()) return at_percentiles.front();
  for (size_t i = 1; i < p.size(); ++i)
    if (u <= p[i])
      return at_percentiles[i - 1] + (at_percentiles[i] - at_percentiles[i - 1]) * (u - p[i - 1]) / (p[i] - p[i - 1]);
  return at_percentiles.back();
}

}  // namespace dlsim::infer
