#include <gtest/gtest.h>

#include "cost/cost.hpp"

namespace dlsim::cost {
namespace {

const hardware::BillingRule per_second{"aws-per-second", 1, 60, "", "", ""};
const hardware::BillingRule per_hour{"aws-per-hour", 3600, 3600, "", "", ""};
const hardware::BillingRule ten_minutes{"gcp-per-minute-10min", 60, 600, "", "", ""};

TEST(Billing, RoundsUpToTheStepAndNeverBelowTheMinimum) {
  EXPECT_DOUBLE_EQ(billed_seconds(12.2, per_second), 60);      // the minute's minimum
  EXPECT_DOUBLE_EQ(billed_seconds(61.2, per_second), 62);
  EXPECT_DOUBLE_EQ(billed_seconds(3600.5, per_hour), 7200);    // a second into the next hour
  EXPECT_DOUBLE_EQ(billed_seconds(300, ten_minutes), 600);
  EXPECT_DOUBLE_EQ(billed_seconds(601, ten_minutes), 660);
  EXPECT_DOUBLE_EQ(billed_seconds(3 * 0.1 * 600, ten_minutes), 600);  // 180.00000000000003 s is not 181
}

TEST(Billing, AJobPaysForEveryTermOfItsBilledTime) {
  // Study B's t_sum: 60 + 180 + 10 + 5 + 2539 + 5 + 2 + 30 = 2831 s, per minute: 2880 s.
  const JobTimes t{60, 180, 10, 5, 2539, 5, 2, 30};
  EXPECT_DOUBLE_EQ(t.sum(), 2831);
  const hardware::BillingRule per_minute{"azure-per-minute", 60, 60, "", "", ""};
  const JobCost c = training_cost(t, 12, 1.8, per_minute);
  EXPECT_DOUBLE_EQ(c.billed_s, 2880);
  EXPECT_DOUBLE_EQ(c.usd, 1.44);
  EXPECT_DOUBLE_EQ(c.usd_per_epoch, 2539.0 / 12 / 3600 * 1.8);
  EXPECT_DOUBLE_EQ(training_cost(t, 12, 1.8, per_hour).usd, 1.8);
}

TEST(Billing, ServingCostsItsHourlyPriceOverTheImagesOfAnHour) {
  EXPECT_DOUBLE_EQ(usd_per_million_images(1000, 3.6), 1.0);  // 3.6 M images an hour for 3.6 USD
  EXPECT_DOUBLE_EQ(usd_per_million_images(0, 3.6), 0.0);
}

}  // namespace
}  // namespace dlsim::cost
