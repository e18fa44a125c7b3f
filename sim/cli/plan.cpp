// dlsim plan: the cheapest configuration that meets a target, or the fastest within it, out
// of a space of scenario values, without simulating every point.
//   dlsim plan PLAN.toml [--format table|json]
// Every point is first priced without simulation (cli/predict.hpp: price): one device's
// kernels alone give a configuration's best case (no communication, no stall), hence an
// upper bound on its throughput and lower bounds on its time and cost.  Points whose best
// case misses the target are dropped; the rest are simulated best bound first, and the
// search stops when no remaining point's bound can beat the best found (or, with runners-up
// asked for, the last of them).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/plan_search.hpp"
#include "cli/plots.hpp"
#include "cli/point.hpp"
#include "cli/predict.hpp"
#include "cli/process.hpp"
#include "core/error.hpp"
#include "plan/front.hpp"
#include "cost/cost.hpp"
#include "report/cost_report.hpp"
#include "report/generator.hpp"
#include "report/plan_plot.hpp"
#include "report/run_report.hpp"
#include "scenario/catalog_loader.hpp"
#include "scenario/model_source.hpp"
#include "scenario/plan_file.hpp"
#include "scenario/scenario.hpp"

namespace dlsim::cli {
namespace {

using nlohmann::ordered_json;

struct Candidate {
  plan::SweepPoint point;
  plan::Axes kind = plan::Axes::throughput;
  double throughput_bound = 0;  // images/s at best
  double time_bound_s = 0;      // a job's t_sum, or a request's forward pass, at best
  double cost_bound = 0;        // USD per job, or per hour when there is no job
  std::string invalid;          // why the point is no configuration at all
  std::optional<plan::PointRecord> simulated;
};

bool training_job(const scenario::RunSpec& spec) { return spec.job.has_value(); }

// The point's best case from its priced kernels, without simulating.
Candidate bound(const scenario::PlanSpec& plan_spec, const plan::SweepPoint& point) {
  Candidate c;
  c.point = point;
  try {
    const auto [file, keys] = scenario::scenario_of(plan_spec, point);
    std::vector<scenario::Override> overrides;
    for (const auto& s : plan_spec.sets) overrides.push_back(scenario::parse_override(s));
    for (const auto& [k, v] : keys.values) overrides.push_back(scenario::parse_override(k + "=" + v));
    const auto& catalog = scenario::builtin_catalog();
    const auto spec = scenario::load_scenario(file, overrides, catalog);
    const auto model = scenario::load_model(spec.workload.model);
    report::check_memory(spec, model, catalog);
    const double step_s = price(spec, model, catalog).totals.seconds;
    const double images = static_cast<double>(spec.workload.batch * spec.system.devices);
    c.throughput_bound = images / step_s;
    if (spec.serving) {
      c.time_bound_s = step_s;  // no request is answered before its forward pass is done
      if (spec.serving->arrival != "closed") c.kind = plan::Axes::open_loop;
    }
    const double usd_per_hour =
        spec.system.instance.empty() ? 0 : catalog.instance(spec.system.instance).price_usd_per_hour * spec.system.nodes;
    c.cost_bound = usd_per_hour;
    if (training_job(spec)) {
      c.kind = plan::Axes::job;
      const auto& j = *spec.job;
      const double steps = j.epochs * std::ceil(static_cast<double>(j.dataset_images) / images);
      const cost::JobTimes times = report::job_times(j, steps * step_s);
      const auto& instance = catalog.instance(spec.system.instance);
      c.time_bound_s = times.sum();
      c.cost_bound =
          cost::training_cost(times, j.epochs, usd_per_hour, *catalog.find_billing_rule(j.billing.empty() ? instance.billing : j.billing))
              .usd;
    }
  } catch (const std::exception& e) {
    c.invalid = e.what();
  }
  return c;
}

// What the goal minimises, simulated and at best.
double measure(const scenario::PlanSpec& p, const plan::PointRecord& r) {
  return p.goal == "cheapest" ? plan::cost_of(r) : plan::time_of(r);
}

double bound_measure(const scenario::PlanSpec& p, const Candidate& c) {
  if (c.kind == plan::Axes::throughput)
    return p.goal == "cheapest" ? c.cost_bound / (c.throughput_bound * 3600) * 1e6 : -c.throughput_bound;
  return p.goal == "cheapest" ? c.cost_bound : c.time_bound_s;
}

// Whether the best case already misses a target: then no simulation can meet it.
std::string out_of_reach(const scenario::PlanSpec& p, const Candidate& c) {
  if (p.min_throughput > 0 && c.throughput_bound < p.min_throughput)
    return fmt::format("at most {:.4g} images/s", c.throughput_bound);
  if (p.deadline_s > 0 && c.kind == plan::Axes::job && c.time_bound_s > p.deadline_s)
    return fmt::format("at least {:.0f} s", c.time_bound_s);
  if (p.max_p99_s > 0 && c.kind != plan::Axes::job && c.time_bound_s > p.max_p99_s)
    return fmt::format("a forward pass alone takes {:.3g} ms", c.time_bound_s * 1e3);
  if (p.budget_usd > 0 && c.cost_bound > p.budget_usd)
    return fmt::format("at least {:.4g} USD", c.cost_bound);
  return "";
}

bool meets(const scenario::PlanSpec& p, const plan::PointRecord& r) {
  if (r.exit_code != 0) return false;
  // An open loop's load is the offered rate; whether the servers keep up shows in p99.
  const bool open_loop = plan::axes_of(r) == plan::Axes::open_loop;
  const double images_per_s = plan::metric(r, open_loop ? "offered_images_per_s" : "throughput_images_per_s");
  if (p.min_throughput > 0 && !(images_per_s >= p.min_throughput)) return false;
  if (p.max_p99_s > 0 && !(plan::metric(r, "latency_ms.p99") <= p.max_p99_s * 1e3)) return false;
  const bool job = plan::axes_of(r) == plan::Axes::job;
  if (p.budget_usd > 0 && !((job ? plan::metric(r, "cost.job.usd") : plan::metric(r, "cost.usd_per_hour")) <= p.budget_usd))
    return false;
  if (p.deadline_s > 0 && job && !(plan::metric(r, "cost.job.t_sum_s") <= p.deadline_s)) return false;
  return true;
}

ordered_json point_json(const plan::PointRecord& r) {
  ordered_json values = ordered_json::object(), metrics = ordered_json::object();
  for (const auto& [k, v] : r.point.values) values[k] = v;
  for (const auto& [k, v] : r.metrics) metrics[k] = v;
  return {{"index", r.point.index}, {"values", values}, {"metrics", metrics}};
}

}  // namespace

ordered_json search_plan(const scenario::PlanSpec& p, const std::string& out_dir) {
  std::vector<Candidate> candidates;
  for (const auto& point : plan::sweep_points(p.space, {})) candidates.push_back(bound(p, point));
  size_t invalid = 0, unreachable = 0, simulated = 0;
  std::vector<Candidate*> order;
  for (auto& c : candidates) {
    if (!c.invalid.empty()) ++invalid;
    else if (!out_of_reach(p, c).empty()) ++unreachable;
    else order.push_back(&c);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](const Candidate* a, const Candidate* b) { return bound_measure(p, *a) < bound_measure(p, *b); });
  // The measures of the feasible points found, best first: the search stops when no bound
  // can beat the last of the best and its runners-up.
  std::vector<double> found;
  const size_t wanted = 1 + static_cast<size_t>(p.runners_up);
  for (Candidate* c : order) {
    if (found.size() >= wanted && bound_measure(p, *c) >= found[wanted - 1]) break;  // nor any later point
    const auto child = run_in_child([&](std::string& out) {
      const auto [file, keys] = scenario::scenario_of(p, c->point);
      plan::PointRecord record = predict_point(file, p.sets, keys);
      record.point = c->point;  // named with its alternative
      out = plan::to_json_line(record);
      return 0;
    });
    ++simulated;
    c->simulated = plan::read_record_line(child.output);
    if (meets(p, *c->simulated)) {
      const double m = measure(p, *c->simulated);
      found.insert(std::upper_bound(found.begin(), found.end(), m), m);
    }
  }
  std::vector<const plan::PointRecord*> feasible;
  for (const auto& c : candidates)
    if (c.simulated && meets(p, *c.simulated)) feasible.push_back(&*c.simulated);
  std::stable_sort(feasible.begin(), feasible.end(),
                   [&](const auto* a, const auto* b) { return measure(p, *a) < measure(p, *b); });
  ordered_json runners_up = ordered_json::array();
  for (size_t i = 1; i < std::min(feasible.size(), wanted); ++i) runners_up.push_back(point_json(*feasible[i]));
  ordered_json front = ordered_json::array();
  for (const auto* r : plan::pareto_front(feasible)) front.push_back(point_json(*r));
  ordered_json summary{{"generator", report::generator()},
          {"goal", p.goal},
          {"points", candidates.size()},
          {"invalid", invalid},
          {"out_of_reach_by_bound", unreachable},
          {"simulated", simulated},
          {"pruned_by_bound", order.size() - simulated},
          {"best", feasible.empty() ? ordered_json(nullptr) : point_json(*feasible.front())},
          {"runners_up", runners_up},
          {"pareto_front", front}};
  if (!out_dir.empty()) {
    std::filesystem::create_directories(out_dir);
    std::map<size_t, plan::PointRecord> records;
    for (const auto& c : candidates)
      if (c.simulated) records[c.point.index] = *c.simulated;
    std::ofstream(std::filesystem::path(out_dir) / "plan.json") << summary.dump(2) << "\n";
    std::ofstream(std::filesystem::path(out_dir) / "simulated.csv") << plan::results_csv(p.space, records);
    draw_plots({report::plan_plot(feasible, feasible.empty() ? nullptr : feasible.front())}, out_dir);
  }
  return summary;
}

std::string plan_text(const ordered_json& j) {
  std::string out = fmt::format(
      "plan: {} points: {} not configurations, {} out of reach by their best case, {} simulated, {} pruned by bound\n",
      j["points"].get<size_t>(), j["invalid"].get<size_t>(), j["out_of_reach_by_bound"].get<size_t>(),
      j["simulated"].get<size_t>(), j["pruned_by_bound"].get<size_t>());
  auto line = [](const ordered_json& r) {
    std::string values;
    for (const auto& [k, v] : r["values"].items()) values += (values.empty() ? "" : " ") + k + "=" + v.get<std::string>();
    const auto& m = r["metrics"];
    std::string figures =
        fmt::format("{:.4g} images/s", m.value("offered_images_per_s", m.value("throughput_images_per_s", 0.0)));
    if (m.contains("cost.job.usd"))
      figures += fmt::format(", job {:.0f} s, {:.4g} USD", m["cost.job.t_sum_s"].get<double>(), m["cost.job.usd"].get<double>());
    else if (m.contains("offered_images_per_s"))
      figures += fmt::format(" offered, p99 {:.4g} ms, {:.4g} USD/h", m["latency_ms.p99"].get<double>(),
                             m["cost.usd_per_hour"].get<double>());
    else if (m.contains("cost.usd_per_million_images"))
      figures += fmt::format("{}, {:.4g} USD per million images",
                             m.contains("latency_ms.p99") ? fmt::format(", p99 {:.4g} ms", m["latency_ms.p99"].get<double>())
                                                          : "",
                             m["cost.usd_per_million_images"].get<double>());
    return values + ": " + figures;
  };
  out += j["best"].is_null() ? "  nothing meets the target\n"
                             : fmt::format("  {} meeting the target: {}\n", j["goal"].get<std::string>(), line(j["best"]));
  if (!j["runners_up"].empty()) out += "  runners-up:\n";
  for (const auto& r : j["runners_up"]) out += "    " + line(r) + "\n";
  out += "  time against cost (Pareto front of what was simulated):\n";
  for (const auto& r : j["pareto_front"]) out += "    " + line(r) + "\n";
  return out;
}

void add_plan_command(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("plan", "The cheapest (or fastest) configuration meeting a target");
  cmd->add_option("plan", *path, "plan file (.toml)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--format", *format, "table or json")->check(CLI::IsMember({"table", "json"}))->default_val("table");
  cmd->add_option("--out", *out, "folder for plan.json, simulated.csv and the chart (pareto.svg)");
  cmd->callback([=] {
    const auto j = search_plan(scenario::load_plan(*path), *out);
    std::cout << (*format == "json" ? j.dump(2) + "\n" : plan_text(j));
  });
}

}  // namespace dlsim::cli
