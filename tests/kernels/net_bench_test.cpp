// dlsim-net-bench pushes and pulls small payloads through a gRPC server on loopback, and
// its JSON is what `dlsim calibrate` reads: every row timed, the stack named in the context.
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/run_command.hpp"

namespace {

TEST(NetBench, PushesAndPullsEverySizeOverGrpc) {
  const auto run = dlsim::testing::run_command(
      DLSIM_NET_BENCH, {"--max-bytes", "16384", "--benchmark_min_time=0.001", "--benchmark_format=json"}, false);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto j = nlohmann::json::parse(run.output);
  EXPECT_EQ(j["context"]["framework"], "grpc");
  EXPECT_EQ(j["context"]["device"], "network");
  std::set<std::string> names;
  for (const auto& b : j["benchmarks"]) {
    EXPECT_FALSE(b.value("error_occurred", false)) << b["name"];
    EXPECT_GT(b["real_time"].get<double>(), 0);
    names.insert(b["name"].get<std::string>());
  }
  for (const char* size : {"1024", "4096", "16384"})
    for (const char* phase : {"push", "pull"})
      EXPECT_TRUE(names.count(std::string("transfer u8 b") + size + " grpc | threads=1 | " + phase + "/real_time"))
          << size << " " << phase;
}

}  // namespace
