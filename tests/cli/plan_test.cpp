// dlsim plan finds what a sweep of the whole space would have found, simulating fewer points.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

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

// Serving a load: the cheapest fleet per hour whose p99 meets the bound, as a sweep finds
// it; its runners-up next in cost; the folder holds the summary, the simulated points and
// the chart.
TEST(Plan, FindsTheCheapestServingFleetASweepFindsAndWritesItsChart) {
  const fs::path out = fs::path(::testing::TempDir()) / "dlsim_plan_serving";
  fs::remove_all(out);
  const auto plan = dlsim::testing::run_command(DLSIM_BINARY,
                                                {"plan", DLSIM_SOURCE_DIR "/tests/data/plans/serving_small.toml",
                                                 "--format", "json", "--out", out.string()},
                                                false);
  ASSERT_EQ(plan.exit_code, 0) << plan.output;
  const auto j = nlohmann::json::parse(plan.output);
  ASSERT_FALSE(j["best"].is_null());

  const fs::path dir = fs::path(::testing::TempDir()) / "dlsim_plan_serving_sweep";
  fs::remove_all(dir);
  const auto sweep = dlsim::testing::run_command(
      DLSIM_BINARY,
      {"sweep", DLSIM_SOURCE_DIR "/scenarios/serving_fleet_resnet50.toml", "--vary",
       "system.instance=g4dn.xlarge,p3.2xlarge", "--vary", "system.devices=1,2,3", "--vary", "workload.batch=4,8",
       "--out", dir.string()},
      false);
  ASSERT_EQ(sweep.exit_code, 0);
  std::vector<double> costs;  // per hour, of every point that meets the target
  std::ifstream in(dir / "points.jsonl");
  for (std::string line; std::getline(in, line);) {
    const auto r = nlohmann::json::parse(line);
    if (r["exit_code"] != 0) continue;
    const auto& m = r["metrics"];
    if (m["latency_ms.p99"].get<double>() <= 50 && m["offered_images_per_s"].get<double>() >= 2000)
      costs.push_back(m["cost.usd_per_hour"].get<double>());
  }
  std::sort(costs.begin(), costs.end());
  ASSERT_GE(costs.size(), 3u);
  EXPECT_DOUBLE_EQ(j["best"]["metrics"]["cost.usd_per_hour"].get<double>(), costs[0]);
  ASSERT_EQ(j["runners_up"].size(), 2u);
  EXPECT_DOUBLE_EQ(j["runners_up"][0]["metrics"]["cost.usd_per_hour"].get<double>(), costs[1]);
  EXPECT_DOUBLE_EQ(j["runners_up"][1]["metrics"]["cost.usd_per_hour"].get<double>(), costs[2]);
  for (const char* file : {"plan.json", "simulated.csv", "pareto.gp", "pareto.svg"})
    EXPECT_TRUE(fs::exists(out / file)) << file;
  fs::remove_all(out);
  fs::remove_all(dir);
}

// GPU or CPU: a plan over two alternative scenarios finds what sweeps of both find, and a
// GPU scenario on a CPU-only instance is no configuration.
TEST(Plan, SearchesAlternativeScenariosSideBySide) {
  const auto plan = dlsim::testing::run_command(
      DLSIM_BINARY, {"plan", DLSIM_SOURCE_DIR "/scenarios/plan_cifar10_gpu_or_cpu.toml", "--format", "json"}, false);
  ASSERT_EQ(plan.exit_code, 0) << plan.output;
  const auto j = nlohmann::json::parse(plan.output);
  EXPECT_EQ(j["points"].get<size_t>(), 2u * 7u * 2u);
  EXPECT_EQ(j["invalid"].get<size_t>(), 4u * 2u);  // cifar10_gpu.toml on the four c5 sizes
  ASSERT_FALSE(j["best"].is_null());

  double cheapest = std::numeric_limits<double>::infinity();
  std::string cheapest_scenario;
  for (const char* alternative : {"cifar10_gpu", "cifar10_cpu"}) {
    const fs::path dir = fs::path(::testing::TempDir()) / (std::string("dlsim_plan_") + alternative);
    fs::remove_all(dir);
    const auto sweep = dlsim::testing::run_command(
        DLSIM_BINARY,
        {"sweep", std::string(DLSIM_SOURCE_DIR "/scenarios/gpu_or_cpu/") + alternative + ".toml", "--vary",
         "system.instance=p2.xlarge,g4dn.xlarge,p3.2xlarge,c5.2xlarge,c5.4xlarge,c5.9xlarge,c5.18xlarge", "--vary",
         "workload.batch=32,128", "--out", dir.string()},
        false);
    ASSERT_EQ(sweep.exit_code, 0);
    std::ifstream in(dir / "points.jsonl");
    for (std::string line; std::getline(in, line);) {
      const auto r = nlohmann::json::parse(line);
      if (r["exit_code"] != 0) continue;
      const auto& m = r["metrics"];
      if (m["cost.job.t_sum_s"].get<double>() <= 2 * 3600 && m["cost.job.usd"].get<double>() < cheapest) {
        cheapest = m["cost.job.usd"].get<double>();
        cheapest_scenario = std::string("gpu_or_cpu/") + alternative + ".toml";
      }
    }
    fs::remove_all(dir);
  }
  EXPECT_DOUBLE_EQ(j["best"]["metrics"]["cost.job.usd"].get<double>(), cheapest);
  EXPECT_EQ(j["best"]["values"]["scenario"].get<std::string>(), cheapest_scenario);
}

}  // namespace
