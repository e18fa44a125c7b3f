// dlsim plan finds what a sweep of the whole space would have found, simulating fewer points.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/run_command.hpp"

namespace {

namespace fs = std::filesystem;

TEST(Plan, FindsTheCheapestConfigurationAFullSweepFindsWithFewerSimulations) {
  const auto plan = dlsim::testing::run_command(
      DLSIM_BINARY, {"plan", DLSIM_SOURCE_DIR "/tests/data/plans/resnet50_small.toml", "--format", "json"}, false);
  ASSERT_EQ(plan.exit_code, 0) << plan.output;
  const auto j = nlohmann::json::parse(plan.output);
  ASSERT_FALSE(j["best"].is_null());
  EXPECT_LT(j["simulated"].get<size_t>(), j["points"].get<size_t>());

  const fs::path dir = fs::path(::testing::TempDir()) / "dlsim_plan_sweep";
  fs::remove_all(dir);
  const auto sweep = dlsim::testing::run_command(
      DLSIM_BINARY,
      {"sweep", DLSIM_SOURCE_DIR "/scenarios/resnet50_imagenet_epoch.toml", "--vary",
       "system.devices=2,4,8", "--vary", "system.instance=p2.xlarge,p2.8xlarge,p3.2xlarge,p3.8xlarge", "--out",
       dir.string()},
      false);
  ASSERT_EQ(sweep.exit_code, 0);
  double cheapest = std::numeric_limits<double>::infinity();
  std::ifstream in(dir / "points.jsonl");
  for (std::string line; std::getline(in, line);) {
    const auto r = nlohmann::json::parse(line);
    if (r["exit_code"] != 0) continue;
    const auto& m = r["metrics"];
    if (m["cost.job.t_sum_s"].get<double>() <= 3 * 3600) cheapest = std::min(cheapest, m["cost.job.usd"].get<double>());
  }
  EXPECT_DOUBLE_EQ(j["best"]["metrics"]["cost.job.usd"].get<double>(), cheapest);
  EXPECT_LE(j["best"]["metrics"]["cost.job.t_sum_s"].get<double>(), 3 * 3600);
  fs::remove_all(dir);
}

}  // namespace
