// dlsim-gpu-bench: times on GPU 0, with cuDNN, cuBLASLt, NCCL and a few kernels of its own,
// every kernel of the signatures it is given, with Google Benchmark.  Usage:
//   dlsim-gpu-bench [--signatures FILE] [--inference] [--workspace-limit BYTES]
//                   [--warmup N] [--iterations K] [--copies] [--allreduce]
//                   [--benchmark_repetitions=5 --benchmark_out=raw.json --benchmark_out_format=json ...]
// FILE holds one signature per line, as `dlsim model NAME --format kernels` writes them
// (lines starting with # are comments).  --copies adds the host/device copy sweep and
// --allreduce the NCCL sweep over every visible GPU.  Rows are named
// "<signature> | gpu | <phase>": one per repetition, each the mean of K calls timed with
// CUDA events.  A signature the GPU cannot run is reported as an error in its rows and the
// others still run.  Without a usable GPU it exits 77 (ctest's "skipped").
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <cublasLt.h>

#include "allreduce.hpp"
#include "check.hpp"
#include "copies.hpp"
#include "device_identity.hpp"
#include "error_row.hpp"
#include "phase.hpp"
#include "timing.hpp"

namespace {

using namespace dlsim::kernels::gpu;

struct Cli {
  std::string signatures;
  Options options;
  bool copies = false;
  bool allreduce = false;
};

unsigned long long number(const std::string& flag, const std::string& value) {
  if (value.empty() || value.size() > 19 || value.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument(flag + " takes a whole number, not '" + value + "'");
  return std::stoull(value);
}

int positive(const std::string& flag, const std::string& value) {
  const unsigned long long v = number(flag, value);
  if (v < 1 || v > 1000000) throw std::invalid_argument(flag + " takes 1 to 1000000, not '" + value + "'");
  return static_cast<int>(v);
}

// Takes dlsim's own flags out of argv, leaving Google Benchmark's.
Cli parse_options(int& argc, char** argv) {
  Cli o;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--signatures" && has_value) o.signatures = argv[++i];
    else if (arg == "--inference") o.options.training = false;
    else if (arg == "--channels-last") o.options.channels_last = true;
    else if (arg == "--workspace-limit" && has_value) o.options.workspace_limit = number(arg, argv[++i]);
    else if (arg == "--warmup" && has_value) o.options.warmup = positive(arg, argv[++i]);
    else if (arg == "--iterations" && has_value) o.options.iterations = positive(arg, argv[++i]);
    else if (arg == "--copies") o.copies = true;
    else if (arg == "--allreduce") o.allreduce = true;
    else argv[kept++] = argv[i];
  }
  argc = kept;
  if (o.signatures.empty() && !o.copies && !o.allreduce)
    throw std::invalid_argument("--signatures FILE, --copies or --allreduce is required");
  return o;
}

// The case being measured, kept across the repetitions of its rows (Google Benchmark calls
// the function once per repetition) so that the algorithm search and warm-up run once, and
// freed when the next case starts.
class CaseCache {
 public:
  struct Case {
    PhaseKernel kernel;
    double lead_s = 0;
    std::string error;
  };

  Case& get(const std::string& signature, const std::string& phase, const GpuContext& gpu) {
    const std::string key = signature + " | " + phase;
    if (case_ && key == key_) return *case_;
    case_.reset();
    key_ = key;
    case_ = std::make_unique<Case>();
    try {
      case_->kernel = make_phase(dlsim::kernels::parse_signature(signature), phase, gpu);
      case_->lead_s = warm_up(case_->kernel, gpu.stream, gpu.options.warmup);
    } catch (const std::exception& e) {
      fail(e.what(), gpu);
    }
    return *case_;
  }

  // Drops the case's memory and keeps its error for the rest of its repetitions.
  void fail(const std::string& why, const GpuContext& gpu) {
    cudaStreamSynchronize(gpu.stream);
    case_->kernel = {};
    case_->error = why;
  }

 private:
  std::string key_;
  std::unique_ptr<Case> case_;
};

void run(benchmark::State& st, const std::string& signature, const std::string& phase, const GpuContext& gpu,
         CaseCache& cache, EventTimer& timer) {
  CaseCache::Case& c = cache.get(signature, phase, gpu);
  if (!c.error.empty()) {
    st.SkipWithError(c.error.c_str());
    for (auto _ : st) {
    }
    return;
  }
  std::vector<double> seconds;
  try {
    for (auto _ : st) {
      seconds.push_back(timer.time(c.kernel, gpu.stream, c.lead_s));
      st.SetIterationTime(seconds.back());
    }
  } catch (const std::exception& e) {
    cache.fail(e.what(), gpu);
    st.SkipWithError(e.what());
    return;
  }
  const Spread s = spread(seconds);
  st.counters["iteration_median_us"] = 1e6 * s.median;
  st.counters["iteration_min_us"] = 1e6 * s.min;
  st.counters["iteration_max_us"] = 1e6 * s.max;
  for (const auto& [name, value] : c.kernel.counters) st.counters[name] = value;
  if (!c.kernel.label.empty()) st.SetLabel(c.kernel.label.c_str());
}

void register_signature(const std::string& text, const GpuContext& gpu, CaseCache& cache, EventTimer& timer) {
  const std::string prefix = text + " | gpu | ";
  std::vector<std::string> phases;
  try {
    phases = phases_of(dlsim::kernels::parse_signature(text), gpu.options.training);
  } catch (const std::exception& e) {
    dlsim::kernels::register_error_row(prefix + "error", e.what());
    return;
  }
  for (const auto& phase : phases)
    benchmark::RegisterBenchmark((prefix + phase).c_str(),
                                 [text, phase, &gpu, &cache, &timer](benchmark::State& st) {
                                   run(st, text, phase, gpu, cache, timer);
                                 })
        ->UseManualTime()
        ->Iterations(gpu.options.iterations)
        ->Unit(benchmark::kMicrosecond);
}

void add_context(const std::vector<std::pair<std::string, std::string>>& identity, const Options& o, int gpus) {
  for (const auto& [key, value] : identity) benchmark::AddCustomContext(key, value);
  benchmark::AddCustomContext("nccl", nccl_version());
  benchmark::AddCustomContext("cublaslt", std::to_string(cublasLtGetVersion()));
  benchmark::AddCustomContext("gpu_count", std::to_string(gpus));
  benchmark::AddCustomContext("framework", "cudnn");
  benchmark::AddCustomContext("device", "gpu");
  benchmark::AddCustomContext("mode", o.training ? "training" : "inference");
  benchmark::AddCustomContext("workspace_limit_bytes", std::to_string(o.workspace_limit));
  benchmark::AddCustomContext("layout", o.channels_last ? "NCHW for fp32 and tf32, NHWC for fp16" : "NCHW");
  benchmark::AddCustomContext("timing", "CUDA events around each call, queued behind a spin kernel; " +
                                            std::to_string(o.warmup) + " warm-up calls, " +
                                            std::to_string(o.iterations) + " timed calls per row");
}

}  // namespace

int main(int argc, char** argv) {
  Cli cli;
  std::vector<std::string> signatures;
  try {
    cli = parse_options(argc, argv);
    if (!cli.signatures.empty()) signatures = dlsim::kernels::read_signatures(cli.signatures);
  } catch (const std::exception& e) {
    std::cerr << "dlsim-gpu-bench: " << e.what() << "\n";
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  std::string why_not;
  const auto identity = dlsim::kernels::device_identity(0, why_not);
  if (identity.empty()) {
    std::cerr << "dlsim-gpu-bench: no usable GPU (" << why_not << "); skipping\n";
    return dlsim::kernels::kNoGpuExitCode;
  }
  try {
    int gpus = 0;
    check(cudaGetDeviceCount(&gpus), "cudaGetDeviceCount");
    GpuContext gpu(cli.options);
    EventTimer timer;
    CaseCache cache;
    add_context(identity, cli.options, gpus);
    if (cli.copies)
      for (const auto& s : copy_sweep()) signatures.push_back(s);
    if (cli.allreduce)
      for (const auto& s : allreduce_sweep(gpus)) signatures.push_back(s);
    for (const auto& s : signatures) register_signature(s, gpu, cache, timer);
    benchmark::RunSpecifiedBenchmarks();
  } catch (const std::exception& e) {
    std::cerr << "dlsim-gpu-bench: " << e.what() << "\n";
    return 1;
  }
  benchmark::Shutdown();
  return 0;
}
