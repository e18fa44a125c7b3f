#pragma once
// A plan file (`dlsim plan PLAN.toml`): a scenario, the space of configurations to search
// and what the answer must meet.
//   scenario = "../scenarios/study_c_allreduce.toml"    relative to the plan file; or a list
//                                                        of alternatives (a GPU and a CPU way
//                                                        to run one job), searched as the
//                                                        space's first key, "scenario"
//   goal     = "cheapest" | "fastest"                    cheapest meeting the targets, or
//                                                        fastest within them (and the budget)
//   runners_up = 3                                       the next best configurations, also
//                                                        found with certainty
//   [target]  deadline (time, a training job's billed t_sum), min_throughput (images/s),
//             max_p99 (time, serving), budget (USD: per job, or per hour when serving)
//   [space]   "scenario.key" = [values, ...], any scenario keys; the product is searched
#include <string>
#include <vector>

#include "plan/sweep.hpp"

namespace dlsim::scenario {

inline constexpr const char* kScenarioKey = "scenario";

struct PlanSpec {
  std::string scenario;  // resolved against the plan file's folder; the first alternative
  std::vector<std::pair<std::string, std::string>> alternatives;  // as written, resolved
  std::string goal = "cheapest";
  int runners_up = 3;
  double deadline_s = 0;        // 0: none
  double min_throughput = 0;    // images/s; 0: none
  double max_p99_s = 0;         // 0: none
  double budget_usd = 0;        // 0: none
  std::vector<plan::Vary> space;
  std::vector<std::string> sets;  // key=value overrides of every point, besides the space's
};

PlanSpec load_plan(const std::string& path);

// The scenario file a point runs (the alternative it names, else the plan's), and the
// point's values without that name: the scenario keys to override.
std::pair<std::string, plan::SweepPoint> scenario_of(const PlanSpec& plan, const plan::SweepPoint& point);

}  // namespace dlsim::scenario
