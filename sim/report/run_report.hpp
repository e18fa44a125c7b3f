#pragma once
// `dlsim run`: the resolved scenario, the workload it implies, whether it fits the device,
// and the prediction: throughput, step time or latency with their P10/P50/P90 band, and
// the share of predicted time from each kind of answer (measured, interpolated, ...).
// Devices with no calibration yet get the sizing and a plain statement instead of a number.

#include <string>

#include <nlohmann/json.hpp>

#include "graph/graph.hpp"
#include "hardware/catalog.hpp"
#include "report/prediction.hpp"
#include "report/generator.hpp"
#include "scenario/run_spec.hpp"

namespace dlsim::report {

// Throws UnrunnableError, with the numbers, when the step does not fit the device's memory.
void check_memory(const scenario::RunSpec& spec, const graph::Graph& model, const hardware::Catalog& catalog);

// `prediction` is null when the device has no calibration to simulate with.
nlohmann::ordered_json run_json(const scenario::RunSpec& spec, const graph::Graph& model,
                                const hardware::Catalog& catalog, const Prediction* prediction);
// Every kernel call of one step as CSV: stage, layer, signature, phase, seconds, source.
std::string kernel_calls_csv(const Prediction* prediction);
std::string run_text(const scenario::RunSpec& spec, const graph::Graph& model, const hardware::Catalog& catalog,
                     const Prediction* prediction, Format format);

nlohmann::ordered_json spec_json(const scenario::RunSpec& spec);

}  // namespace dlsim::report
