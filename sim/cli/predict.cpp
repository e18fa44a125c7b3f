#include "cli/predict.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "core/error.hpp"
#include "infer/in_process.hpp"
#include "scenario/profile_reader.hpp"
#include "train/single_device.hpp"

namespace dlsim::cli {
namespace {

// Steps and requests simulated: the model is deterministic, so a few show the steady state.
constexpr int kTrainingSteps = 3;
constexpr int kRequestsPerClient = 8;

std::optional<perf::CpuScaling> cpu_scaling(const perf::Profile& profile, const scenario::RunSpec& spec,
                                            const hardware::Catalog& catalog) {
  if (spec.system.cpu.empty() || profile.cpu.empty() || spec.system.cpu == profile.cpu) return std::nullopt;
  const auto* source = catalog.find_cpu(profile.cpu);
  if (!source)
    throw UnrunnableError(fmt::format("profile {} was measured on CPU '{}', which the catalog does not know, so it "
                                      "cannot be carried to {}",
                                      profile.machine, profile.cpu, spec.system.cpu));
  const auto& from = *source;
  const auto& to = *catalog.find_cpu(spec.system.cpu);
  return perf::CpuScaling{
      from.peak_fp32_flops_per_core() / to.peak_fp32_flops_per_core(), from.base_clock_Hz / to.base_clock_Hz,
      fmt::format("carried from {} to {}: convolutions and GEMMs by per-core peak FP32 ({:.0f} vs {:.0f} GFLOP/s), "
                  "other kernels by clock ({:.2f} vs {:.2f} GHz)",
                  from.name, to.name, from.peak_fp32_flops_per_core() / 1e9, to.peak_fp32_flops_per_core() / 1e9,
                  from.base_clock_Hz / 1e9, to.base_clock_Hz / 1e9)};
}

int host_cores(const scenario::RunSpec& spec, const hardware::Catalog& catalog) {
  if (!spec.system.instance.empty()) return catalog.instance(spec.system.instance).vcpus;
  return spec.system.threads;
}

}  // namespace

std::string default_cpu_profile() {
  const char* dir = std::getenv("DLSIM_PROFILE_DIR");
  return fmt::format("{}/devbox-emerald-rapids-2vcpu-pytorch.toml", dir && *dir ? dir : DLSIM_PROFILE_DIR);
}

std::optional<report::Prediction> predict(const scenario::RunSpec& spec, const graph::Graph& model,
                                          const hardware::Catalog& catalog) {
  if (spec.system.device != "cpu" && spec.system.profile.empty()) return std::nullopt;
  if (spec.workload.precision != scenario::Precision::fp32)
    throw UnrunnableError(fmt::format("the CPU profiles time fp32 kernels only; workload.precision = \"{}\" has no "
                                      "calibration here",
                                      to_string(spec.workload.precision)));
  if (spec.serving && spec.serving->deployment != "in-process")
    throw UnrunnableError(fmt::format("serving.deployment = \"{}\" is not simulated yet; \"in-process\" is",
                                      spec.serving->deployment));
  if (spec.training && spec.training->strategy != "single")
    throw UnrunnableError(fmt::format("training.strategy = \"{}\" is not simulated on CPUs yet; \"single\" is",
                                      spec.training->strategy));
  report::Prediction p;
  p.profile = spec.system.profile.empty() ? default_cpu_profile() : spec.system.profile;
  const perf::Profile profile = scenario::load_profile(p.profile);
  p.profile_machine = profile.machine;
  p.framework = profile.framework.name;
  perf::LookupOptions options;
  options.allow_fallback = spec.system.allow_fallback;
  const std::string cpu_name = !spec.system.cpu.empty() ? spec.system.cpu : profile.cpu;
  if (const auto* cpu = catalog.find_cpu(cpu_name)) {
    options.fallback_flops_per_s = cpu->peak_fp32_flops_per_core();
    options.fallback_bytes_per_s = cpu->memory_bandwidth_Bps / cpu->cores_per_socket;
  }
  options.cpu = cpu_scaling(profile, spec, catalog);
  if (options.cpu) p.scaling = options.cpu->basis;
  const perf::KernelTimes times(profile, options);
  const int threads = spec.system.threads;
  const int cores = std::max(host_cores(spec, catalog), threads);
  if (spec.workload.kind == scenario::WorkloadKind::train) {
    p.plan = perf::training_plan(model, spec.workload.batch, spec.training->optimizer, threads, times,
                                 profile.framework);
    p.training = train::simulate_training(p.plan, {cores, threads}, kTrainingSteps);
  } else {
    p.plan = perf::inference_plan(model, spec.workload.batch, threads, times, profile.framework);
    const int concurrency = spec.serving ? spec.serving->concurrency : 1;
    p.inference = infer::simulate_in_process(p.plan, {cores, threads, concurrency, kRequestsPerClient});
  }
  p.totals = p.plan.totals();
  return p;
}

}  // namespace dlsim::cli
