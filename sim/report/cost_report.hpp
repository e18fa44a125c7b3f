#pragma once
// The "cost" of a prediction on a priced instance: a training job's billed time and
// price (when the scenario has a [job]), or serving's price per hour and per million images.
#include <nlohmann/json.hpp>

#include "cost/cost.hpp"
#include "hardware/catalog.hpp"
#include "report/prediction.hpp"
#include "scenario/run_spec.hpp"

namespace dlsim::report {

// A training job's times: the scenario's terms, its container's pull and start, and
// `learn_s` from the simulation.
cost::JobTimes job_times(const scenario::JobSpec& job, double learn_s);

// Adds out["cost"] when the instance has a price; needs the prediction's throughput.
void add_cost(nlohmann::ordered_json& out, const scenario::RunSpec& spec, const hardware::Catalog& catalog);

// The cost lines of the table, if any.
std::string cost_table(const nlohmann::ordered_json& run);

}  // namespace dlsim::report
