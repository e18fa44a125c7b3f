// dlsim sweep and dlsim merge on a small sweep: shards merged equal the unsharded sweep
// byte for byte, charts included, an interrupted sweep resumes, a failing point is recorded and the others
// go on.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "support/run_command.hpp"

namespace {

namespace fs = std::filesystem;

int dlsim(std::vector<std::string> args) {
  return dlsim::testing::run_command(DLSIM_BINARY, std::move(args), false).exit_code;
}

std::vector<std::string> sweep_args(const std::string& out) {
  return {"sweep", DLSIM_SOURCE_DIR "/scenarios/study_c_allreduce.toml", "--vary", "system.devices=2,4,8",
          "--vary", "workload.model=resnet50,vgg16", "--jobs", "2", "--out", out};
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void expect_same_folder(const fs::path& a, const fs::path& b) {
  for (const char* f : {"sweep.json", "points.jsonl", "results.csv", "throughput.gp", "throughput.svg",
                        "scaling_efficiency.gp", "scaling_efficiency.svg"})
    EXPECT_EQ(read(a / f), read(b / f)) << f;
}

TEST(Sweep, ShardsMergeIntoExactlyTheUnshardedSweep) {
  const fs::path dir = fs::path(::testing::TempDir()) / "dlsim_sweep_shards";
  fs::remove_all(dir);
  ASSERT_EQ(dlsim(sweep_args((dir / "all").string())), 0);
  for (const char* shard : {"1/2", "2/2"}) {
    auto args = sweep_args((dir / (std::string("shard") + shard[0])).string());
    args.insert(args.end(), {"--shard", shard});
    ASSERT_EQ(dlsim(args), 0) << shard;
  }
  ASSERT_EQ(dlsim({"merge", (dir / "shard1").string(), (dir / "shard2").string(), "--out", (dir / "merged").string()}),
            0);
  expect_same_folder(dir / "all", dir / "merged");
  const std::string csv = read(dir / "all" / "results.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);  // the header and six points
  EXPECT_NE(read(dir / "all" / "throughput.svg").find("<svg"), std::string::npos);
  fs::remove_all(dir);
}

TEST(Sweep, AnInterruptedSweepResumesWhereItStopped) {
  const fs::path dir = fs::path(::testing::TempDir()) / "dlsim_sweep_resume";
  fs::remove_all(dir);
  ASSERT_EQ(dlsim(sweep_args((dir / "all").string())), 0);
  // The first shard's records stand for a sweep stopped half way; its sweep.json is the
  // unsharded sweep's, as an interrupted run of it would have left.
  auto half = sweep_args((dir / "half").string());
  half.insert(half.end(), {"--shard", "1/2"});
  ASSERT_EQ(dlsim(half), 0);
  fs::copy_file(dir / "all" / "sweep.json", dir / "half" / "sweep.json", fs::copy_options::overwrite_existing);
  fs::remove(dir / "half" / "results.csv");
  const auto r = dlsim::testing::run_command(DLSIM_BINARY, sweep_args((dir / "half").string()));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("resuming, 3 of 6 points already done"), std::string::npos) << r.output;
  expect_same_folder(dir / "all", dir / "half");
  fs::remove_all(dir);
}

TEST(Sweep, AFailingPointIsRecordedAndTheOthersGoOn) {
  const fs::path dir = fs::path(::testing::TempDir()) / "dlsim_sweep_failing";
  fs::remove_all(dir);
  ASSERT_EQ(dlsim({"sweep", DLSIM_SOURCE_DIR "/scenarios/study_c_allreduce.toml", "--vary", "workload.batch=32,0,4000",
                   "--set", "system.devices=2", "--out", dir.string()}),
            0);
  const std::string csv = read(dir / "results.csv");
  EXPECT_NE(csv.find("0,32,ok,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("1,0,failed (2),"), std::string::npos) << csv;
  EXPECT_NE(csv.find("2,4000,failed (3),"), std::string::npos) << csv;
  EXPECT_NE(csv.find("but the k80 memory is"), std::string::npos) << csv;
  fs::remove_all(dir);
}

}  // namespace
