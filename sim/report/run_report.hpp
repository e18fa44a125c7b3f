#pragma once
// `dlsim run`: the resolved scenario, the workload it implies and whether it fits the
// device.  The prediction itself (throughput, step time, latency) joins this report when
// the simulation exists; until then the report says so instead of printing a number.

#include <string>

#include <nlohmann/json.hpp>

#include "graph/graph.hpp"
#include "hardware/catalog.hpp"
#include "report/generator.hpp"
#include "scenario/run_spec.hpp"

namespace dlsim::report {

// Throws UnrunnableError, with the numbers, when the step does not fit the device's memory.
nlohmann::ordered_json run_json(const scenario::RunSpec& spec, const graph::Graph& model,
                                const hardware::Catalog& catalog);
std::string run_text(const scenario::RunSpec& spec, const graph::Graph& model, const hardware::Catalog& catalog,
                     Format format);

nlohmann::ordered_json spec_json(const scenario::RunSpec& spec);

}  // namespace dlsim::report
