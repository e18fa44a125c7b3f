// A run's reported percentile: perf_analyzer's rank over runs of consecutive requests.
#include "report/run_percentile.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace dlsim::report {
namespace {

// 1, 2, ..., n in an order no run favours (a fixed shuffle): requests that meet no spell.
std::vector<double> shuffled_ladder(int n) {
  std::vector<double> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 1.0);
  std::shuffle(v.begin(), v.end(), std::mt19937_64(7));
  return v;
}

// `periods` times: `fast` requests of 1 s, then `slow` of 2 s (a slow spell).
std::vector<double> spells(int periods, int fast, int slow) {
  std::vector<double> v;
  for (int p = 0; p < periods; ++p) {
    v.insert(v.end(), static_cast<size_t>(fast), 1.0);
    v.insert(v.end(), static_cast<size_t>(slow), 2.0);
  }
  return v;
}

TEST(RunPercentile, ARunOfOneRequestReportsTheMeanLatency) {
  const RunPercentile r = run_percentile(shuffled_ladder(100), 0.99, 1);
  EXPECT_NEAR(r.mean, 50.5, 1e-9);
  EXPECT_EQ(r.p10, 11);  // index 0.1 x 99 + 0.5 = 10.4 -> 10, the eleventh
  EXPECT_EQ(r.p50, 51);
  EXPECT_EQ(r.p90, 90);
}

TEST(RunPercentile, ARunReportsItsPercentileAsPerfAnalyzerPicksIt) {
  // perf_analyzer's P99 over N sorted latencies is the one at index 0.99 (N - 1) + 0.5,
  // truncated: of 48 the slowest; of 160 the 158th (157.91 -> 157), where the nearest rank,
  // ceil(0.99 N), would take the 159th; of 256 the 253rd.
  EXPECT_EQ(run_percentile(shuffled_ladder(48), 0.99, 48).mean, 48);
  EXPECT_EQ(run_percentile(shuffled_ladder(160), 0.99, 160).mean, 158);
  EXPECT_EQ(run_percentile(shuffled_ladder(256), 0.99, 256).mean, 253);
  EXPECT_EQ(run_percentile(shuffled_ladder(48), 0.5, 48).mean, 25);  // 23.5 + 0.5 -> 24, rounded up
}

TEST(RunPercentile, SixteenRequestsThatMeetNoSpellReportTheirSlowestAsOrderStatisticsSay) {
  // Independent requests: the max of 16 draws from 1..n lies about 16/17 of the way up,
  // well below the population's P99; P(max <= x) = (x/n)^16 puts its tenth at 0.1^(1/16).
  const int n = 20000;
  const RunPercentile r = run_percentile(shuffled_ladder(n), 0.99, 16);
  EXPECT_NEAR(r.mean / n, 16.0 / 17, 0.005);
  EXPECT_NEAR(r.p10 / n, std::pow(0.1, 1.0 / 16), 0.005);
  EXPECT_NEAR(r.p90 / n, std::pow(0.9, 1.0 / 16), 0.005);
  EXPECT_LT(r.p10, r.p50);
  EXPECT_LT(r.p50, r.p90);
}

TEST(RunPercentile, ARunMeetsTheSlowSpellsItOverlapsNotOnesDrawnApart) {
  // Periods of 100 fast requests then 20 slow: a run of 16 reports 2 s where it overlaps a
  // spell (35 of every 120 starts) and 1 s elsewhere; drawn apart, 16 requests would meet
  // one almost always (1 - (100/120)^16 = 95%).
  const RunPercentile r = run_percentile(spells(50, 100, 20), 0.99, 16);
  EXPECT_NEAR(r.mean, 1 + 35.0 / 120, 0.01);
  EXPECT_EQ(r.p10, 1);
  EXPECT_EQ(r.p50, 1);
  EXPECT_EQ(r.p90, 2);
}

TEST(RunPercentile, RequestsBeyondTheSimulatedOnesReportTheirPercentile) {
  const RunPercentile r = run_percentile(shuffled_ladder(1000), 0.99, 100000);
  EXPECT_EQ(r.mean, 990);
  EXPECT_EQ(r.p10, 990);
  EXPECT_EQ(r.p90, 990);
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
