// dlsim-cpu-bench: times, with oneDNN, every kernel of the signatures it is given, for each
// thread count, with Google Benchmark.  Usage:
//   dlsim-cpu-bench --signatures FILE [--threads 1,2] [--inference]
//                   [--benchmark_out=raw.json --benchmark_out_format=json ...]
// FILE holds one signature per line, as `dlsim model NAME --format json` lists them under
// "kernel" (lines starting with # are comments), plus optimizer updates written
// "sgd_momentum fp32 p<parameters>" or "adam fp32 p<parameters>".  Dropout and the
// optimizers are timed as the framework's own loops (loops.hpp), the rest with oneDNN.  A signature oneDNN
// cannot run is reported as an error in its row and the others still run.
#include <omp.h>

#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <dnnl.hpp>

#include "loops.hpp"
#include "primitives.hpp"
#include "error_row.hpp"
#include "signature.hpp"

namespace {

using dlsim::kernels::Signature;

struct Options {
  std::string signatures;
  std::vector<int> threads{1};
  bool training = true;
};

std::vector<int> parse_list(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) out.push_back(std::stoi(item));
  return out;
}

// Takes dlsim's own flags out of argv, leaving Google Benchmark's.
Options parse_options(int& argc, char** argv) {
  Options o;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--signatures" && i + 1 < argc) o.signatures = argv[++i];
    else if (arg == "--threads" && i + 1 < argc) o.threads = parse_list(argv[++i]);
    else if (arg == "--inference") o.training = false;
    else argv[kept++] = argv[i];
  }
  argc = kept;
  return o;
}

std::string cpu_field(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

void add_context(const Options& o) {
  const auto* v = dnnl::version();
  benchmark::AddCustomContext("cpu_model", cpu_field("model name"));
  benchmark::AddCustomContext("cpu_flags", cpu_field("flags"));
  benchmark::AddCustomContext("cpu_logical_cores", std::to_string(omp_get_num_procs()));
  benchmark::AddCustomContext("onednn_version", std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
                                                    std::to_string(v->patch));
  benchmark::AddCustomContext("onednn_cpu_isa", dnnl_get_effective_cpu_isa() >= dnnl_cpu_isa_avx512_core ? "avx512"
                                                                                                          : "avx2-or-lower");
  std::string threads;
  for (int t : o.threads) threads += (threads.empty() ? "" : ",") + std::to_string(t);
  benchmark::AddCustomContext("threads", threads);
  benchmark::AddCustomContext("mode", o.training ? "training" : "inference");
}

std::vector<dlsim::kernels::PhaseKernel> kernels_for(const Signature& sig, const dnnl::engine& e, dnnl::stream& s,
                                                      bool training) {
  if (dlsim::kernels::is_loop_kernel(sig)) return dlsim::kernels::make_loop_kernels(sig, training);
  return dlsim::kernels::make_kernels(sig, e, s, training);
}

void register_signature(const std::string& text, int threads, bool training) {
  const std::string prefix = text + " | threads=" + std::to_string(threads) + " | ";
  std::vector<std::string> phases;
  try {
    // Phases are found by building the kernels once, small cost next to the timings.
    omp_set_num_threads(threads);
    dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    dnnl::stream stream(engine);
    for (auto& k : kernels_for(dlsim::kernels::parse_signature(text), engine, stream, training)) phases.push_back(k.phase);
  } catch (const std::exception& e) {
    dlsim::kernels::register_error_row(prefix + "error", e.what());
    return;
  }
  for (size_t p = 0; p < phases.size(); ++p) {
    benchmark::RegisterBenchmark((prefix + phases[p]).c_str(), [text, threads, training, p](benchmark::State& st) {
      omp_set_num_threads(threads);
      try {
        dnnl::engine engine(dnnl::engine::kind::cpu, 0);
        dnnl::stream stream(engine);
        auto kernels = kernels_for(dlsim::kernels::parse_signature(text), engine, stream, training);
        auto& kernel = *kernels.at(p).kernel;
        kernel.run();  // first run: JIT and page faults stay out of the timing
        for (auto _ : st) kernel.run();
        st.counters["threads"] = threads;
      } catch (const std::exception& e) {
        st.SkipWithError(e.what());  // this row fails; the others still run
      }
    })->UseRealTime()->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  std::vector<std::string> signatures;
  try {
    options = parse_options(argc, argv);
    if (options.signatures.empty()) throw std::runtime_error("--signatures FILE is required");
    signatures = dlsim::kernels::read_signatures(options.signatures);
  } catch (const std::exception& e) {
    std::cerr << "dlsim-cpu-bench: " << e.what() << "\n";
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  add_context(options);
  for (int threads : options.threads)
    for (const auto& s : signatures) register_signature(s, threads, options.training);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
