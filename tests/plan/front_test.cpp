// A point's two axes and the Pareto front over them.
#include <cmath>

#include <gtest/gtest.h>

#include "plan/front.hpp"

namespace dlsim::plan {
namespace {

PointRecord serving(size_t i, double p99_ms, double usd_per_hour) {
  return {{i, {}}, 0, "", {{"offered_images_per_s", 2000}, {"latency_ms.p99", p99_ms}, {"cost.usd_per_hour", usd_per_hour}}};
}

TEST(Front, ServingALoadTradesP99AgainstDollarsPerHour) {
  const auto r = serving(0, 40, 1.5);
  EXPECT_EQ(axes_of(r), Axes::open_loop);
  EXPECT_DOUBLE_EQ(time_of(r), 0.040);
  EXPECT_DOUBLE_EQ(cost_of(r), 1.5);
}

TEST(Front, ThroughputIsNegatedSoThatLessIsBetter) {
  const PointRecord r{{0, {}}, 0, "", {{"throughput_images_per_s", 500}, {"cost.usd_per_million_images", 2}}};
  EXPECT_EQ(axes_of(r), Axes::throughput);
  EXPECT_DOUBLE_EQ(time_of(r), -500);
  EXPECT_TRUE(std::isnan(metric(r, "latency_ms.p99")));
}

TEST(Front, KeepsWhatNothingBeatsOnBothAxesByTime) {
  const auto a = serving(0, 20, 3), b = serving(1, 40, 1), c = serving(2, 45, 2), d = serving(3, 20, 3);
  const auto front = pareto_front({&c, &b, &a, &d});
  // c is beaten by b on both; a and d tie and neither beats the other.
  ASSERT_EQ(front.size(), 3u);
  EXPECT_EQ(front[0], &a);
  EXPECT_EQ(front[1], &d);
  EXPECT_EQ(front[2], &b);
}

}  // namespace
}  // namespace dlsim::plan
