// A run's reported percentile against the order statistics it is drawn from.
#include "report/run_percentile.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace dlsim::report {
namespace {

// 1, 2, ..., n: a population whose percentiles are easy to say.
std::vector<double> ladder(int n) {
  std::vector<double> v;
  for (int i = n; i >= 1; --i) v.push_back(i);  // any order
  return v;
}

TEST(RunPercentile, ARunOfOneRequestReportsTheMeanLatency) {
  const RunPercentile r = run_percentile(ladder(100), 0.99, 1);
  EXPECT_NEAR(r.mean, 50.5, 1e-9);
  EXPECT_EQ(r.p10, 10);
  EXPECT_EQ(r.p50, 50);
  EXPECT_EQ(r.p90, 90);
}

TEST(RunPercentile, SixteenRequestsReportTheirSlowestAsP99) {
  // The max of 16 draws from 1..1000: E = sum_j j ((j/1000)^16 - ((j-1)/1000)^16), about
  // 16/17 of the way up, well below the population's P99 (990).
  const RunPercentile r = run_percentile(ladder(1000), 0.99, 16);
  double expected = 0;
  for (int j = 1; j <= 1000; ++j) expected += j * (std::pow(j / 1000.0, 16) - std::pow((j - 1) / 1000.0, 16));
  EXPECT_NEAR(r.mean, expected, 1e-6 * expected);
  EXPECT_NEAR(r.mean, 1000.0 * 16 / 17, 2);
  // P(max <= x) = (x/1000)^16: its tenth at 0.1^(1/16), its ninth tenth at 0.9^(1/16)
  EXPECT_NEAR(r.p10, 1000 * std::pow(0.1, 1.0 / 16), 1);
  EXPECT_NEAR(r.p90, 1000 * std::pow(0.9, 1.0 / 16), 1);
  EXPECT_LT(r.p10, r.p50);
  EXPECT_LT(r.p50, r.p90);
}

TEST(RunPercentile, ManyRequestsReportThePopulationsPercentile) {
  const RunPercentile r = run_percentile(ladder(1000), 0.99, 100000);
  EXPECT_NEAR(r.mean, 990, 2);
  EXPECT_NEAR(r.p10, 990, 2);
  EXPECT_NEAR(r.p90, 990, 2);
}

TEST(RunPercentile, ASteadyLoopReportsItsOneLatencyWhateverTheRun) {
  const RunPercentile r = run_percentile(std::vector<double>(8, 0.25), 0.99, 24);
  EXPECT_DOUBLE_EQ(r.mean, 0.25);
  EXPECT_DOUBLE_EQ(r.p10, 0.25);
  EXPECT_DOUBLE_EQ(r.p90, 0.25);
}

TEST(RunPercentile, RefusesWhatIsNotARun) {
  EXPECT_THROW(run_percentile({}, 0.99, 16), std::invalid_argument);
  EXPECT_THROW(run_percentile({1.0}, 0.99, 0), std::invalid_argument);
  EXPECT_THROW(run_percentile({1.0}, 0.0, 16), std::invalid_argument);
}

}  // namespace
}  // namespace dlsim::report
