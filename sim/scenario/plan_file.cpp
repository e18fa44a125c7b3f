#include "scenario/plan_file.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "core/text_file.hpp"
#include "scenario/toml_reader.hpp"

namespace dlsim::scenario {

PlanSpec load_plan(const std::string& path) {
  const toml::table root = parse_document(read_text_file(path, "a readable plan file", "see scenarios/README.md"), path);
  ProblemList problems;
  TableReader top(root, "", problems);
  PlanSpec p;
  const auto resolve = [&path](const std::string& s) {
    return (std::filesystem::path(path).parent_path() / s).lexically_normal().string();
  };
  std::vector<std::string> written;
  if (!root["scenario"].is_array()) {
    if (auto s = top.string("scenario", true)) written = {*s};
  } else if (auto list = top.strings("scenario")) {  // a non-empty list, or a problem
    written = *list;
  }
  for (const auto& s : written) {
    const std::string file = resolve(s);
    if (!is_regular_file(file))
      top.problem("scenario", s, fmt::format("names a scenario file that does not exist ({})", file),
                  "paths are relative to the plan file's folder");
    if (written.size() > 1) p.alternatives.emplace_back(s, file);
  }
  if (!written.empty()) p.scenario = resolve(written.front());
  p.goal = top.choice("goal", {"cheapest", "fastest"}).value_or(p.goal);
  p.runners_up = static_cast<int>(top.integer("runners_up", 0, 100).value_or(p.runners_up));
  if (const auto* t = top.table("target")) {
    TableReader r(*t, "target", problems);
    p.deadline_s = r.quantity("deadline", UnitKind::time).value_or(0);
    p.min_throughput = r.number("min_throughput", 0, 1e12).value_or(0);
    p.max_p99_s = r.quantity("max_p99", UnitKind::time).value_or(0);
    p.budget_usd = r.number("budget", 0, 1e12).value_or(0);
    r.finish();
  }
  if (const auto* space = top.table("space")) {
    for (const auto& [key, node] : *space) {
      plan::Vary v{std::string(key.str()), {}};
      if (const auto* values = node.as_array(); values && !values->empty()) {
        for (const auto& value : *values) {
          if (value.is_string()) v.values.push_back(value.as_string()->get());
          else if (value.is_integer()) v.values.push_back(std::to_string(value.as_integer()->get()));
          else if (value.is_boolean()) v.values.push_back(value.as_boolean()->get() ? "true" : "false");
          else if (value.is_floating_point()) v.values.push_back(show(value));
        }
      }
      if (v.values.empty())
        problems.add(Problem{location_of(node), "space." + v.key, show(node),
                             "a non-empty list of values (strings, numbers or booleans)", "e.g. [1, 2, 4, 8]"});
      else
        p.space.push_back(std::move(v));
    }
  } else {
    top.problem("space", "", "a [space] table of scenario keys and their values");
  }
  if (!p.alternatives.empty()) {
    plan::Vary v{kScenarioKey, {}};
    for (const auto& a : p.alternatives) v.values.push_back(a.first);
    p.space.insert(p.space.begin(), std::move(v));
  }
  top.finish();
  problems.throw_if_any();
  return p;
}

std::pair<std::string, plan::SweepPoint> scenario_of(const PlanSpec& plan, const plan::SweepPoint& point) {
  std::pair<std::string, plan::SweepPoint> out{plan.scenario, {point.index, {}}};
  for (const auto& [key, value] : point.values) {
    if (key != kScenarioKey) {
      out.second.values.emplace_back(key, value);
      continue;
    }
    for (const auto& [name, resolved] : plan.alternatives)
      if (name == value) out.first = resolved;
  }
  return out;
}

}  // namespace dlsim::scenario
