// dlsim calibrate: raw benchmark files in, a fitted profile out.
//   dlsim calibrate --cpu --models resnet18,keras_mnist --batch 8,32 --threads 1,2 [--via pytorch|onednn] -o PROFILE.toml
//   dlsim calibrate RAW.json... -o PROFILE.toml
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/process.hpp"
#include "core/error.hpp"
#include "perf/benchmark_json.hpp"
#include "perf/fit.hpp"
#include "perf/profile_writer.hpp"
#include "report/generator.hpp"
#include "report/model_report.hpp"
#include "scenario/catalog_loader.hpp"
#include "scenario/model_source.hpp"

namespace dlsim::cli {
namespace {

namespace fs = std::filesystem;

struct CalibrateOptions {
  std::vector<std::string> raw;
  bool cpu = false;
  std::string via = "pytorch";
  std::vector<std::string> models;
  std::vector<int64_t> batches;
  std::vector<int> threads{1};
  int repetitions = 5;
  std::string output;
  std::string raw_dir;
  std::string machine;
  std::string catalog_cpu;
  std::string catalog_gpu;
};

std::string join(const std::vector<int>& values) {
  std::string out;
  for (int v : values) out += (out.empty() ? "" : ",") + std::to_string(v);
  return out;
}

// The command that times the signatures in `kernels` into `json`: PyTorch's own operators
// (kernels/pytorch/torch_op_bench.py; with `in_pass`, `kernels` is the model's CSV and
// each call is timed inside whole inference passes) or oneDNN and BLAS directly
// (kernels/cpu).
std::vector<std::string> bench_command(const CalibrateOptions& o, const std::string& kernels, const std::string& json,
                                       bool in_pass = false) {
  if (o.via == "pytorch") {
    const char* python = std::getenv("DLSIM_PYTHON");
    const char* script = std::getenv("DLSIM_TORCH_OP_BENCH");
    std::vector<std::string> command{
        python && *python ? python : (fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3"),
        script && *script ? script : DLSIM_SOURCE_DIR "/kernels/pytorch/torch_op_bench.py",
        "--signatures", kernels, "--threads", join(o.threads), "--repetitions", std::to_string(o.repetitions),
        "--out", json};
    if (in_pass) command.insert(command.end(), {"--in-pass", "--min-time", "0.2"});
    return command;
  }
  return {find_tool("dlsim-cpu-bench", "../../kernels/cpu/dlsim-cpu-bench", "DLSIM_CPU_BENCH"), "--signatures", kernels,
          "--threads", join(o.threads), fmt::format("--benchmark_repetitions={}", o.repetitions),
          "--benchmark_min_time=0.05", "--benchmark_out=" + json, "--benchmark_out_format=json"};
}

void run_bench(const CalibrateOptions& o, const std::vector<std::string>& command, const std::string& input) {
  const int status = run_program(command, "/dev/null");
  if (status == 0) return;
  throw UnrunnableError(fmt::format(
      "{} {} exited with status {} timing {} ({})", command[0], o.via == "pytorch" ? command[1] : "", status, input,
      o.via == "pytorch" ? "it needs PyTorch: apt-get install python3-torch, or set DLSIM_PYTHON to a Python "
                           "that has it; --via onednn times oneDNN directly"
                         : "set DLSIM_CPU_BENCH to dlsim-cpu-bench's path if it is not beside dlsim"));
}

// Times every kernel of each model and batch, and through PyTorch each inference pass's
// calls inside whole passes too; returns the raw files.
std::vector<std::string> measure_cpu(const CalibrateOptions& o) {
  fs::create_directories(o.raw_dir);
  std::vector<std::string> files;
  for (const auto& name : o.models) {
    const auto graph = scenario::load_model(name);
    for (int64_t batch : o.batches) {
      const std::string stem = fmt::format("{}/{}_b{}", o.raw_dir, fs::path(name).stem().string(), batch);
      {
        std::ofstream sig(stem + ".kernels");
        sig << report::model_text(graph, batch, graph::DataType::fp32, report::Format::kernels);
      }
      std::cerr << fmt::format("calibrate: timing {} at batch {} on {} thread(s)\n", graph.name(), batch, join(o.threads));
      run_bench(o, bench_command(o, stem + ".kernels", stem + ".json"), stem + ".kernels");
      fs::remove(stem + ".kernels");
      files.push_back(stem + ".json");
      if (o.via != "pytorch") continue;
      {
        std::ofstream listing(stem + ".csv");
        listing << report::model_text(graph, batch, graph::DataType::fp32, report::Format::csv);
      }
      run_bench(o, bench_command(o, stem + ".csv", stem + "_in_pass.json", true), stem + ".csv");
      fs::remove(stem + ".csv");
      files.push_back(stem + "_in_pass.json");
    }
  }
  return files;
}

void calibrate(const CalibrateOptions& o) {
  if (o.cpu == !o.raw.empty())
    throw InputError(Problem{{"dlsim calibrate", 0, 0}, "", "", "either --cpu (measure here) or raw JSON files",
                             "dlsim calibrate --cpu --models keras_mnist --batch 32 -o p.toml"});
  if (o.cpu && (o.models.empty() || o.batches.empty()))
    throw InputError(Problem{{"dlsim calibrate", 0, 0}, o.models.empty() ? "--models" : "--batch", "",
                             "a list with --cpu", "e.g. --models resnet18,keras_mnist --batch 8,32"});
  if (!o.catalog_cpu.empty() && !scenario::builtin_catalog().find_cpu(o.catalog_cpu))
    throw InputError(Problem{{"dlsim calibrate", 0, 0}, "--catalog-cpu", o.catalog_cpu, "a catalog CPU",
                             "dlsim hw list shows them"});
  if (!o.catalog_gpu.empty() && !scenario::builtin_catalog().find_gpu(o.catalog_gpu))
    throw InputError(Problem{{"dlsim calibrate", 0, 0}, "--catalog-gpu", o.catalog_gpu, "a catalog GPU",
                             "dlsim hw list shows them"});
  const std::vector<std::string> files = o.cpu ? measure_cpu(o) : o.raw;
  std::vector<perf::RawBenchmarks> raw;
  for (const auto& f : files) {
    raw.push_back(perf::read_benchmark_json(f));
    for (const auto& failed : raw.back().failed) std::cerr << "calibrate: " << f << ": not timed: " << failed << "\n";
  }
  const std::string machine =
      !o.machine.empty() ? o.machine : fs::path(files.front()).parent_path().filename().string();
  auto profile = perf::fit_profile(
      raw, {machine, o.catalog_cpu, report::version() + " (" + report::commit() + ")", o.catalog_gpu});
  std::ofstream out(o.output);
  if (!out) throw InputError(Problem{{"dlsim calibrate", 0, 0}, "-o", o.output, "a writable file path", ""});
  out << perf::profile_toml(profile);
  std::cerr << fmt::format("calibrate: {} kernels measured, {} models fitted, written to {}\n",
                           profile.measured.size(), profile.fits.size(), o.output);
}

}  // namespace

void add_calibrate_command(CLI::App& app) {
  auto o = std::make_shared<CalibrateOptions>();
  auto* cmd = app.add_subcommand("calibrate", "Fit a calibration profile from kernel timings (measured here with "
                                              "--cpu, or raw JSON from elsewhere)");
  cmd->add_option("raw", o->raw, "Google Benchmark JSON files from kernels/ programs")->check(CLI::ExistingFile);
  cmd->add_flag("--cpu", o->cpu, "measure this machine's CPU kernels now");
  cmd->add_option("--via", o->via,
                  "pytorch: time PyTorch's own operators (kernels/pytorch/torch_op_bench.py), for predicting PyTorch "
                  "runs; onednn: time oneDNN and BLAS directly (kernels/cpu/dlsim-cpu-bench)")
      ->check(CLI::IsMember({"pytorch", "onednn"}))
      ->default_val("pytorch");
  cmd->add_option("--models", o->models, "networks to time: zoo names or model files")->delimiter(',');
  cmd->add_option("--batch", o->batches, "batch sizes")->delimiter(',')->check(CLI::Range(int64_t{1}, int64_t{1} << 16));
  cmd->add_option("--threads", o->threads, "CPU thread counts")->delimiter(',')->check(CLI::Range(1, 1 << 12));
  cmd->add_option("--repetitions", o->repetitions, "repetitions per kernel")->check(CLI::Range(1, 1000));
  cmd->add_option("-o,--output", o->output, "profile to write (.toml)")->required();
  cmd->add_option("--raw-dir", o->raw_dir, "where --cpu keeps the raw files (default: beside the profile)");
  cmd->add_option("--machine", o->machine, "the machine's name in the profile (default: the raw files' folder)");
  cmd->add_option("--catalog-cpu", o->catalog_cpu, "the catalog CPU this machine is, for scaling to others");
  cmd->add_option("--catalog-gpu", o->catalog_gpu, "the catalog GPU that GPU kernels ran on (required for them)");
  cmd->callback([o] {
    if (o->raw_dir.empty()) o->raw_dir = (fs::path(o->output).parent_path() / (fs::path(o->output).stem().string() + "-raw")).string();
    if (o->raw_dir.front() != '/' && fs::path(o->output).parent_path().empty()) o->raw_dir = "./" + o->raw_dir;
    calibrate(*o);
  });
}

}  // namespace dlsim::cli
