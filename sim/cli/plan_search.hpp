#pragma once
// The planner's search (plan.cpp), shared by `dlsim plan` and the questions `dlsim run`
// answers for a serving scenario (serving_questions.cpp).
#include <string>

#include <nlohmann/json.hpp>

#include "scenario/plan_file.hpp"

namespace dlsim::cli {

// Searches the plan's space; with `out_dir`, writes plan.json, simulated.csv (every point
// simulated, met or not) and the chart (pareto.gp, pareto.svg) there.
nlohmann::ordered_json search_plan(const scenario::PlanSpec& p, const std::string& out_dir);
std::string plan_text(const nlohmann::ordered_json& summary);

}  // namespace dlsim::cli
