// dlsim plan: the cheapest configuration that meets a target, or the fastest within it, out
// of a space of scenario values, without simulating every point.
//   dlsim plan PLAN.toml [--format table|json]
// Every point is first priced without simulation (cli/predict.hpp: price): one device's
// kernels alone give a configuration's best case (no communication, no stall), hence an
// upper bound on its throughput and lower bounds on its time and cost.  Points whose best
// case misses the target are dropped; the rest are simulated best bound first, and the
// search stops when no remaining point's bound can beat the best found.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/point.hpp"
#include "cli/predict.hpp"
#include "cli/process.hpp"
#include "core/error.hpp"
#include "cost/cost.hpp"
#include "report/generator.hpp"
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
  double throughput_bound = 0;  // images/s at best
  double time_bound_s = 0;      // a job's t_sum at best (training with a [job]); 0 otherwise
  double cost_bound = 0;        // USD per job, or per hour when there is no job
  std::string invalid;          // why the point is no configuration at all
  std::optional<plan::PointRecord> simulated;
};

bool training_job(const scenario::RunSpec& spec) { return spec.job.has_value(); }

// The point's best case from its priced kernels, without simulating.
Candidate bound(const scenario::PlanSpec& plan_spec, const plan::SweepPoint& point) {
  Candidate c{point};
  try {
    std::vector<scenario::Override> overrides;
    for (const auto& [k, v] : point.values) overrides.push_back(scenario::parse_override(k + "=" + v));
    const auto& catalog = scenario::builtin_catalog();
    const auto spec = scenario::load_scenario(plan_spec.scenario, overrides, catalog);
    const auto model = scenario::load_model(spec.workload.model);
    report::check_memory(spec, model, catalog);
    const double step_s = price(spec, model, catalog).totals.seconds;
    const double images = static_cast<double>(spec.workload.batch * spec.system.devices);
    c.throughput_bound = images / step_s;
    const double usd_per_hour =
        spec.system.instance.empty() ? 0 : catalog.instance(spec.system.instance).price_usd_per_hour * spec.system.nodes;
    c.cost_bound = usd_per_hour;
    if (training_job(spec)) {
      const auto& j = *spec.job;
      const double steps = j.epochs * std::ceil(static_cast<double>(j.dataset_images) / images);
      const cost::JobTimes times{j.startup_s, j.install_s, j.data_load_s, j.start_s, steps * step_s,
                                 j.verify_s,  j.save_data_s, j.poweroff_s};
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

double metric(const plan::PointRecord& r, const char* key) {
  const auto it = r.metrics.find(key);
  return it == r.metrics.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
}

// What the goal minimises: a job's USD or its billed-time sum; serving's USD per million
// images, or the negative of images/s.
double measure(const scenario::PlanSpec& p, const plan::PointRecord& r) {
  const bool job = r.metrics.count("cost.job.usd") > 0;
  if (p.goal == "cheapest") return job ? metric(r, "cost.job.usd") : metric(r, "cost.usd_per_million_images");
  return job ? metric(r, "cost.job.t_sum_s") : -metric(r, "throughput_images_per_s");
}

double bound_measure(const scenario::PlanSpec& p, const Candidate& c) {
  if (p.goal == "cheapest") return c.time_bound_s > 0 ? c.cost_bound : c.cost_bound / (c.throughput_bound * 3600) * 1e6;
  return c.time_bound_s > 0 ? c.time_bound_s : -c.throughput_bound;
}

// Whether the best case already misses a target: then no simulation can meet it.
std::string out_of_reach(const scenario::PlanSpec& p, const Candidate& c) {
  if (p.min_throughput > 0 && c.throughput_bound < p.min_throughput)
    return fmt::format("at most {:.4g} images/s", c.throughput_bound);
  if (p.deadline_s > 0 && c.time_bound_s > p.deadline_s) return fmt::format("at least {:.0f} s", c.time_bound_s);
  if (p.budget_usd > 0 && c.time_bound_s > 0 && c.cost_bound > p.budget_usd)
    return fmt::format("at least {:.4g} USD", c.cost_bound);
  return "";
}

bool meets(const scenario::PlanSpec& p, const plan::PointRecord& r) {
  if (r.exit_code != 0) return false;
  if (p.min_throughput > 0 && !(metric(r, "throughput_images_per_s") >= p.min_throughput)) return false;
  if (p.max_p99_s > 0 && !(metric(r, "latency_ms.p99") <= p.max_p99_s * 1e3)) return false;
  const bool job = r.metrics.count("cost.job.usd") > 0;
  if (p.budget_usd > 0 && !((job ? metric(r, "cost.job.usd") : metric(r, "cost.usd_per_hour")) <= p.budget_usd))
    return false;
  if (p.deadline_s > 0 && job && !(metric(r, "cost.job.t_sum_s") <= p.deadline_s)) return false;
  return true;
}

std::string describe(const plan::SweepPoint& p) {
  std::string out;
  for (const auto& [k, v] : p.values) out += (out.empty() ? "" : " ") + k + "=" + v;
  return out;
}

ordered_json point_json(const plan::PointRecord& r) {
  ordered_json values = ordered_json::object(), metrics = ordered_json::object();
  for (const auto& [k, v] : r.point.values) values[k] = v;
  for (const auto& [k, v] : r.metrics) metrics[k] = v;
  return {{"index", r.point.index}, {"values", values}, {"metrics", metrics}};
}

// The simulated points that meet the targets and that no other beats on both time (or
// throughput) and cost.
std::vector<const plan::PointRecord*> pareto(const std::vector<const plan::PointRecord*>& feasible) {
  auto time_of = [](const plan::PointRecord* r) {
    return r->metrics.count("cost.job.t_sum_s") ? metric(*r, "cost.job.t_sum_s") : -metric(*r, "throughput_images_per_s");
  };
  auto cost_of = [](const plan::PointRecord* r) {
    return r->metrics.count("cost.job.usd") ? metric(*r, "cost.job.usd") : metric(*r, "cost.usd_per_million_images");
  };
  std::vector<const plan::PointRecord*> front;
  for (const auto* a : feasible) {
    bool dominated = false;
    for (const auto* b : feasible)
      dominated = dominated || (b != a && time_of(b) <= time_of(a) && cost_of(b) <= cost_of(a) &&
                                (time_of(b) < time_of(a) || cost_of(b) < cost_of(a)));
    if (!dominated) front.push_back(a);
  }
  std::sort(front.begin(), front.end(), [&](auto* x, auto* y) { return time_of(x) < time_of(y); });
  return front;
}

ordered_json search(const scenario::PlanSpec& p) {
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
  double best = std::numeric_limits<double>::infinity();
  for (Candidate* c : order) {
    if (bound_measure(p, *c) >= best) break;  // neither this nor any later point can do better
    const auto child = run_in_child([&](std::string& out) {
      out = plan::to_json_line(predict_point(p.scenario, {}, c->point));
      return 0;
    });
    ++simulated;
    c->simulated = plan::read_record_line(child.output);
    if (meets(p, *c->simulated)) best = std::min(best, measure(p, *c->simulated));
  }
  std::vector<const plan::PointRecord*> feasible;
  for (const auto& c : candidates)
    if (c.simulated && meets(p, *c.simulated)) feasible.push_back(&*c.simulated);
  const plan::PointRecord* chosen = nullptr;
  for (const auto* r : feasible)
    if (!chosen || measure(p, *r) < measure(p, *chosen)) chosen = r;
  ordered_json front = ordered_json::array();
  for (const auto* r : pareto(feasible)) front.push_back(point_json(*r));
  return {{"generator", report::generator()},
          {"goal", p.goal},
          {"points", candidates.size()},
          {"invalid", invalid},
          {"out_of_reach_by_bound", unreachable},
          {"simulated", simulated},
          {"pruned_by_bound", order.size() - simulated},
          {"best", chosen ? point_json(*chosen) : ordered_json(nullptr)},
          {"pareto_front", front}};
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
    std::string figures = fmt::format("{:.4g} images/s", m.value("throughput_images_per_s", 0.0));
    if (m.contains("cost.job.usd"))
      figures += fmt::format(", job {:.0f} s, {:.4g} USD", m["cost.job.t_sum_s"].get<double>(), m["cost.job.usd"].get<double>());
    else if (m.contains("cost.usd_per_million_images"))
      figures += fmt::format(", {:.4g} USD per million images", m["cost.usd_per_million_images"].get<double>());
    return values + ": " + figures;
  };
  out += j["best"].is_null() ? "  nothing meets the target\n"
                             : fmt::format("  {} meeting the target: {}\n", j["goal"].get<std::string>(), line(j["best"]));
  out += "  time against cost (Pareto front of what was simulated):\n";
  for (const auto& r : j["pareto_front"]) out += "    " + line(r) + "\n";
  return out;
}

}  // namespace

void add_plan_command(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("plan", "The cheapest (or fastest) configuration meeting a target");
  cmd->add_option("plan", *path, "plan file (.toml)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--format", *format, "table or json")->check(CLI::IsMember({"table", "json"}))->default_val("table");
  cmd->callback([=] {
    const auto j = search(scenario::load_plan(*path));
    std::cout << (*format == "json" ? j.dump(2) + "\n" : plan_text(j));
  });
}

}  // namespace dlsim::cli
