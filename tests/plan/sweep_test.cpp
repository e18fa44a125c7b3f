#include <set>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "plan/sweep.hpp"
#include "plan/sweep_records.hpp"

namespace dlsim::plan {
namespace {

TEST(Sweep, PointsAreTheProductWithTheFirstKeySlowest) {
  const std::vector<Vary> v = {parse_vary("system.devices=1,2"), parse_vary("workload.batch=32,64,128")};
  const auto points = sweep_points(v, {});
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(points[1].values, (std::vector<std::pair<std::string, std::string>>{{"system.devices", "1"},
                                                                                {"workload.batch", "64"}}));
  EXPECT_EQ(points[3].values.front().second, "2");
  EXPECT_EQ(points[3].values.back().second, "32");
}

TEST(Sweep, ShardsPartitionThePoints) {
  const std::vector<Vary> v = {parse_vary("a=1,2,3,4,5"), parse_vary("b=x,y")};
  std::set<size_t> seen;
  for (int k = 1; k <= 3; ++k)
    for (const auto& p : sweep_points(v, parse_shard(std::to_string(k) + "/3"))) EXPECT_TRUE(seen.insert(p.index).second);
  EXPECT_EQ(seen.size(), 10u);
}

TEST(Sweep, MalformedArgumentsAreInputErrors) {
  for (const char* bad : {"workload.batch", "=1,2", "workload.batch=", "workload.batch=1,,2"})
    EXPECT_THROW(parse_vary(bad), InputError) << bad;
  for (const char* bad : {"0/2", "3/2", "1", "1/0", "a/b", "1/2x"}) EXPECT_THROW(parse_shard(bad), InputError) << bad;
}

TEST(SweepRecords, RoundTripAndTheTableListsFailuresWithTheirMessage) {
  PointRecord ok{{0, {{"workload.batch", "32"}}}, 0, "", {{"throughput_images_per_s", 125.5}}};
  PointRecord failed{{1, {{"workload.batch", "0"}}}, 2, "value '0', expected 1 or more, \"quoted\"", {}};
  const std::string path = ::testing::TempDir() + "dlsim_points.jsonl";
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    const std::string text = to_json_line(failed) + to_json_line(ok);
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  const auto records = read_records(path);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records_jsonl(records), to_json_line(ok) + to_json_line(failed));  // index order
  const std::string csv = results_csv({parse_vary("workload.batch=32,0")}, records);
  EXPECT_NE(csv.find("0,32,ok,125.5,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("1,0,failed (2),"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\"value '0', expected 1 or more, \"\"quoted\"\"\""), std::string::npos) << csv;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace dlsim::plan
