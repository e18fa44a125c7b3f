// dlsim-cpu-bench runs every operator kind dlsim emits (tests/data/kernels/every_op.sig)
// without an error row, and records the machine's identity in the JSON context.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/benchmark_rows.hpp"
#include "support/run_command.hpp"

namespace {

TEST(CpuBench, EveryOperatorKindRuns) {
  const std::string sig_file = DLSIM_SOURCE_DIR "/tests/data/kernels/every_op.sig";
  const auto run = dlsim::testing::run_command(
      DLSIM_CPU_BENCH,
      {"--signatures", sig_file, "--threads", "1,2", "--benchmark_min_time=0.001", "--benchmark_format=json"}, false);
  ASSERT_EQ(run.exit_code, 0);
  const auto j = nlohmann::json::parse(run.output);
  EXPECT_EQ(j["context"]["onednn_version"], "2.6.3");
  EXPECT_FALSE(j["context"]["cpu_model"].get<std::string>().empty());
  dlsim::testing::expect_every_signature_timed(j, sig_file);
}

}  // namespace
