// dlsim-net-bench pushes and pulls small payloads through a gRPC or an HTTP server on
// loopback, and its JSON is what `dlsim calibrate` reads: every row timed, the stack named
// in the context.
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/run_command.hpp"

namespace {

void expect_every_size(const std::string& protocol) {
  const auto run = dlsim::testing::run_command(DLSIM_NET_BENCH,
                                               {"--protocol", protocol, "--max-bytes", "16384",
                                                "--benchmark_min_time=0.001", "--benchmark_format=json"},
                                               false);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto j = nlohmann::json::parse(run.output);
  EXPECT_EQ(j["context"]["framework"], protocol);
  EXPECT_EQ(j["context"]["device"], "network");
  std::set<std::string> names;
  for (const auto& b : j["benchmarks"]) {
    EXPECT_FALSE(b.value("error_occurred", false)) << b["name"];
    EXPECT_GT(b["real_time"].get<double>(), 0);
    names.insert(b["name"].get<std::string>());
  }
  for (const char* size : {"1024", "4096", "16384"})
    for (const char* phase : {"push", "pull"})
      EXPECT_TRUE(names.count("transfer u8 b" + std::string(size) + " " + protocol + " | threads=1 | " + phase +
                              "/real_time"))
          << size << " " << phase;
}

TEST(NetBench, PushesAndPullsEverySizeOverGrpc) { expect_every_size("grpc"); }

TEST(NetBench, PushesAndPullsEverySizeOverHttp) { expect_every_size("http"); }

TEST(NetBench, RefusesAnUnknownProtocol) {
  const auto run = dlsim::testing::run_command(DLSIM_NET_BENCH, {"--protocol", "quic"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find("grpc or http"), std::string::npos) << run.output;
}

}  // namespace
