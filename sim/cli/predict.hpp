#pragma once
// From a validated scenario to a simulated prediction: find the calibration profile,
// price the step's kernels (sim/perf), and simulate them (sim/train, sim/infer).
#include <optional>

#include "graph/graph.hpp"
#include "hardware/catalog.hpp"
#include "report/prediction.hpp"
#include "scenario/run_spec.hpp"

namespace dlsim::cli {

// Nothing when the scenario's device has no profile yet (GPUs until they are calibrated).
// Throws UnrunnableError when a kernel has no basis and the fallback is not allowed.
std::optional<report::Prediction> predict(const scenario::RunSpec& spec, const graph::Graph& model,
                                          const hardware::Catalog& catalog);

// The profile a CPU scenario uses when it names none.
std::string default_cpu_profile();

}  // namespace dlsim::cli
