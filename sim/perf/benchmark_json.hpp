#pragma once
// Google Benchmark JSON as the kernels/ programs write it: rows named
//   "<signature> | threads=<n> | <phase>/real_time"      (CPU)
//   "<signature> | gpu | <phase>/manual_time"             (GPU, CUDA-event timing)
// one per repetition, and the machine's identity in "context".
#include <map>
#include <string>
#include <vector>

#include "perf/profile.hpp"

namespace dlsim::perf {

struct RawBenchmarks {
  std::string path;
  std::map<std::string, std::string> context;      // string-valued context entries
  std::map<KernelKey, std::vector<double>> times;  // seconds, one per repetition
  std::map<KernelKey, std::vector<double>> cpu_times;  // the process's CPU seconds per call, where timed
  std::vector<std::string> failed;                 // rows the benchmark skipped with an error
};

// Reads one file; throws InputError naming the file and what is wrong with it.
RawBenchmarks read_benchmark_json(const std::string& path);
// Parses text already read (for tests and fuzzing); `path` is for messages.
RawBenchmarks parse_benchmark_json(const std::string& text, const std::string& path);

// Median, P10 and P90 of repetitions (linear interpolation between order statistics).
Timing summarize(std::vector<double> seconds);

}  // namespace dlsim::perf
