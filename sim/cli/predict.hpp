#pragma once
// From a validated scenario to a simulated prediction: find the calibration profile,
// price the step's kernels (sim/perf), and simulate them (sim/train, sim/infer).
#include <optional>

#include "graph/graph.hpp"
#include "hardware/catalog.hpp"
#include "perf/kernel_times.hpp"
#include "perf/profile.hpp"
#include "report/prediction.hpp"
#include "scenario/run_spec.hpp"

namespace dlsim::cli {

// Nothing when the scenario is not simulated yet (scenario::not_simulated_yet says why).  Throws UnrunnableError when the
// GPU has no profile, or a kernel has no basis and the fallback is not allowed.
// Everything a prediction knows before it simulates: the profile and the step's kernels,
// priced (p.plan, p.totals): one device's compute alone, a bound no simulation beats.
report::Prediction price(const scenario::RunSpec& spec, const graph::Graph& model, const hardware::Catalog& catalog);

struct PredictOptions {
  bool trace = false;         // keep the last training step's events (train/trace.hpp)
  bool latency_band = true;   // an open loop's latency band: two more serving simulations
};
std::optional<report::Prediction> predict(const scenario::RunSpec& spec, const graph::Graph& model,
                                          const hardware::Catalog& catalog, PredictOptions options = {});

// What prices kernels on one catalog GPU: its profile (the named one, or the GPU's own
// under calibration/profiles/gpu/), and how it is carried to the GPU when measured on another.
struct GpuPricing {
  std::string path;
  perf::Profile profile;
  perf::LookupOptions options;
  std::string scaling;  // empty when the profile was measured on this GPU
};
GpuPricing gpu_pricing(const std::string& gpu, const std::string& named_profile, bool allow_fallback,
                       const hardware::Catalog& catalog);

// The directory profiles are read from: DLSIM_PROFILE_DIR, else the repository's.
std::string profile_dir();
// The profile a CPU scenario uses when it names none, and a GPU's (calibration/profiles/gpu/).
std::string default_cpu_profile();
std::string default_gpu_profile(const std::string& gpu);
// The profile kernels on `device` ("cpu" or a catalog GPU) are priced from: the one named,
// or the device's own.
std::string profile_path(const std::string& device, const std::string& named);

}  // namespace dlsim::cli
