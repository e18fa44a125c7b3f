#include <gtest/gtest.h>

#include <cmath>

#include "infer/stalls.hpp"

namespace dlsim::infer {
namespace {

// Ten stalls of 1 ms traced in a second: a team running all along loses 1% of its time.
TEST(Stalls, ATeamRunningThroughoutLosesTheTracedShareOfItsTime) {
  Stalls stalls({1.0, std::vector<double>(10, 1e-3), {}}, 7);
  double lost = 0;
  for (int window = 0; window < 100000; ++window) lost += stalls.during(window * 0.01, (window + 1) * 0.01);
  EXPECT_NEAR(lost / 1000.0, 0.01, 0.0005);
}

// A stall is as long as one traced: a window's loss is a sum of them, and most 1 ms
// windows meet none, so the loss is a tail, not a spread over every window.
TEST(Stalls, WindowsLoseWholeTracedStallsOrNothing) {
  Stalls stalls({1.0, {2e-3, 5e-3}, {}}, 7);
  int hit = 0;
  for (int window = 0; window < 10000; ++window) {
    const double lost = stalls.during(window * 1e-3, (window + 1) * 1e-3);
    if (lost > 0) ++hit;
    const bool sum_of_stalls = std::fmod(std::round(lost * 1e6), 1000.0) == 0 && std::round(lost * 1e6) != 1000;
    EXPECT_TRUE(lost == 0 || sum_of_stalls) << lost;
  }
  EXPECT_GT(hit, 0);
  EXPECT_LT(hit, 100);  // two stalls a second over 10 s
}

// Interruptions while no team runs stall nothing; without stalls traced, none ever.
TEST(Stalls, OnlyInterruptionsInsideTheWindowCount) {
  Stalls busy({1.0, std::vector<double>(1000, 1e-4), {}}, 3);
  EXPECT_EQ(busy.during(5.0, 5.0), 0.0);  // the interruptions of the first 5 s met no team
  EXPECT_GT(busy.during(5.0, 6.0), 0.05);
  Stalls quiet({30.0, {}, {}}, 3);
  EXPECT_EQ(quiet.during(0, 1e6), 0.0);
}

TEST(Stalls, TheSameSeedGivesTheSameStalls) {
  Stalls a({1.0, {1e-3, 4e-3, 9e-3}, {}}, 11), b({1.0, {1e-3, 4e-3, 9e-3}, {}}, 11);
  for (int window = 0; window < 1000; ++window)
    EXPECT_EQ(a.during(window * 0.01, (window + 1) * 0.01), b.during(window * 0.01, (window + 1) * 0.01));
}

// Work progresses at the speed of the windows it runs in: over windows alternately at the
// median speed and half of it, a second of work takes 4/3 s, wherever the replay begins.
TEST(Stalls, WorkProgressesAtTheSpeedOfItsWindows) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const Stalls stalls({60.0, {}, {0.010, {1.0, 2.0}}}, seed);
    EXPECT_NEAR(stalls.at_speed(0.0, 1.0), 4.0 / 3.0, 0.005);
    const double first = stalls.at_speed(0.0, 0.005);  // inside the first window: 5 or 10 ms
    EXPECT_TRUE(std::abs(first - 0.005) < 1e-12 || std::abs(first - 0.010) < 1e-12) << first;
    EXPECT_NEAR(stalls.at_speed(0.0, 0.015), 0.020, 1e-12);  // a window of each: 10 + 5 ms of work
  }
}

// A slow spell slows every pass inside it alike (consecutive requests see it together);
// without a speed trace work takes its median time.
TEST(Stalls, ASlowWindowSlowsEveryPassInsideIt) {
  const Stalls stalls({60.0, {}, {0.100, {1.3, 1.3, 1.3}}}, 5);
  for (int pass = 0; pass < 10; ++pass) EXPECT_NEAR(stalls.at_speed(pass * 0.02, 0.01), 0.013, 1e-12);
  const Stalls median({60.0, {1e-3}, {}}, 5);
  EXPECT_EQ(median.at_speed(0.37, 0.01), 0.01);
}

}  // namespace
}  // namespace dlsim::infer
