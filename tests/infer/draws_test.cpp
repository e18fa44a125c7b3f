#include <random>

#include <gtest/gtest.h>

#include "infer/draws.hpp"

namespace dlsim::infer {
namespace {

TEST(Draws, APercentileDrawFollowsItsPercentiles) {
  // Given the percentiles themselves (1, 5, ..., 99), a draw is uniform between 1 and 99,
  // with the 1% below P1 at 1 and the 1% above P99 at 99.
  const std::vector<double> at(perf::kSpreadPercentiles.begin(), perf::kSpreadPercentiles.end());
  std::mt19937_64 random(3);
  int below_25 = 0, at_ends = 0;
  constexpr int kDraws = 100000;
  for (int i = 0; i < kDraws; ++i) {
    const double v = percentile_draw(random, at);
    ASSERT_GE(v, 1);
    ASSERT_LE(v, 99);
    below_25 += v < 25;
    at_ends += v == 1 || v == 99;
  }
  EXPECT_NEAR(below_25 / double(kDraws), 0.25, 0.01);
  EXPECT_NEAR(at_ends / double(kDraws), 0.02, 0.003);
}

}  // namespace
}  // namespace dlsim::infer
