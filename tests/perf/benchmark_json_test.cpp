#include <gtest/gtest.h>

#include "core/error.hpp"
#include "perf/benchmark_json.hpp"

namespace dlsim::perf {
namespace {

const char* kRaw = R"({
  "context": {"cpu_model": "Test CPU", "onednn_version": "2.6.3", "num_cpus": 2},
  "benchmarks": [
    {"name": "relu fp32 n2 e8 | threads=1 | fwd/real_time", "run_type": "iteration", "real_time": 10, "time_unit": "us"},
    {"name": "relu fp32 n2 e8 | threads=1 | fwd/real_time", "run_type": "iteration", "real_time": 12, "time_unit": "us"},
    {"name": "relu fp32 n2 e8 | threads=1 | fwd/real_time", "run_type": "iteration", "real_time": 14, "time_unit": "us"},
    {"name": "relu fp32 n2 e8 | threads=2 | fwd", "run_type": "iteration", "real_time": 8, "process_cpu_time": 13, "cpu_time": 7, "time_unit": "us"},
    {"name": "relu fp32 n2 e8 | threads=1 | fwd/real_time_median", "run_type": "aggregate", "real_time": 12, "time_unit": "us"},
    {"name": "conv2d fp32 n1 | threads=2 | error", "run_type": "iteration", "error_occurred": true, "error_message": "no"}
  ]})";

TEST(BenchmarkJson, ReadsRepetitionsAndSkipsAggregatesAndErrors) {
  const auto raw = parse_benchmark_json(kRaw, "raw.json");
  ASSERT_EQ(raw.times.size(), 2u);
  const auto& t = raw.times.at({"relu fp32 n2 e8", "fwd", 1});
  ASSERT_EQ(t.size(), 3u);
  EXPECT_DOUBLE_EQ(t[0], 10e-6);
  // The process's CPU time where the row has it; Google Benchmark's cpu_time (the calling
  // thread's) is not read.
  EXPECT_EQ(raw.cpu_times.count({"relu fp32 n2 e8", "fwd", 1}), 0u);
  ASSERT_EQ(raw.cpu_times.at({"relu fp32 n2 e8", "fwd", 2}).size(), 1u);
  EXPECT_DOUBLE_EQ(raw.cpu_times.at({"relu fp32 n2 e8", "fwd", 2})[0], 13e-6);
  EXPECT_EQ(raw.context.at("cpu_model"), "Test CPU");
  EXPECT_EQ(raw.context.count("num_cpus"), 0u);  // only string context is kept
  ASSERT_EQ(raw.failed.size(), 1u);
}

TEST(BenchmarkJson, ReadsNonFiniteStatisticsAsNull) {
  // Google Benchmark's coefficient of variation of a counter that is zero in every
  // repetition is a bare NaN; the timed rows around it still read, and a string that holds
  // the word is left alone.
  const auto raw = parse_benchmark_json(R"({"context": {"note": "NaN Infinity"}, "benchmarks": [
    {"name": "relu fp32 n2 e8 | gpu | fwd/manual_time", "run_type": "iteration", "real_time": 3, "time_unit": "us", "algo": 0},
    {"name": "relu fp32 n2 e8 | gpu | fwd/manual_time_cv", "run_type": "aggregate", "real_time": 0.1, "algo": NaN, "x": -Infinity}
  ]})", "gpu.json");
  ASSERT_EQ(raw.times.at({"relu fp32 n2 e8", "fwd", 1}).size(), 1u);
  EXPECT_EQ(raw.context.at("note"), "NaN Infinity");
  EXPECT_THROW(parse_benchmark_json(R"({"benchmarks": [{"name": "relu fp32 n1 e1 | gpu | fwd", "real_time": NaN}]})",
                                    "nan.json"),
               InputError);
}

TEST(BenchmarkJson, SummaryGivesMedianAndDeciles) {
  const Timing t = summarize({5, 1, 4, 2, 3});
  EXPECT_DOUBLE_EQ(t.median_s, 3);
  EXPECT_DOUBLE_EQ(t.p10_s, 1.4);
  EXPECT_DOUBLE_EQ(t.p90_s, 4.6);
  EXPECT_EQ(t.repetitions, 5);
}

TEST(BenchmarkJson, RejectsWhatIsNotBenchmarkOutput) {
  EXPECT_THROW(parse_benchmark_json("not json", "x.json"), InputError);
  EXPECT_THROW(parse_benchmark_json(R"({"benchmarks": []})", "x.json"), InputError);
  EXPECT_THROW(parse_benchmark_json(R"({"benchmarks": [{"name": "BM_foo", "real_time": 1}]})", "x.json"), InputError);
  try {
    parse_benchmark_json(R"({"benchmarks": [{"name": "relu fp32 n1 e1 | threads=1 | fwd", "real_time": -1}]})",
                         "neg.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("neg.json"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("positive time"), std::string::npos);
  }
}

}  // namespace
}  // namespace dlsim::perf
