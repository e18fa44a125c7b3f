#include "report/cost_report.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/units.hpp"
#include "cost/cost.hpp"

namespace dlsim::report {

using nlohmann::ordered_json;

cost::JobTimes job_times(const scenario::JobSpec& j, double learn_s) {
  return {j.startup_s, j.install_with_container_s(), j.data_load_s, j.start_with_container_s(), learn_s,
          j.verify_s,  j.save_data_s,                j.poweroff_s};
}

void add_cost(ordered_json& out, const scenario::RunSpec& spec, const hardware::Catalog& catalog) {
  if (spec.system.instance.empty() || !out.contains("throughput_images_per_s")) return;
  const auto& instance = catalog.instance(spec.system.instance);
  // Dedicated parameter servers rent an instance each, beside the workers' nodes.
  const auto& t = spec.training;
  const int nodes = spec.system.nodes + (t && t->strategy.rfind("ps_", 0) == 0 && t->ps_hosts == "dedicated"
                                             ? t->parameter_servers
                                             : 0);
  const double usd_per_hour = instance.price_usd_per_hour * nodes;
  ordered_json cost{{"usd_per_hour", usd_per_hour},
                    {"price", fmt::format("{} x {} at {:.4g} USD/h ({})", nodes, instance.name,
                                          instance.price_usd_per_hour, instance.price_date)}};
  const double images_per_s = out["throughput_images_per_s"].get<double>();
  if (spec.workload.kind == scenario::WorkloadKind::infer)
    cost["usd_per_million_images"] = cost::usd_per_million_images(images_per_s, usd_per_hour);
  if (spec.job) {
    const auto& j = *spec.job;
    const auto* rule = catalog.find_billing_rule(j.billing.empty() ? instance.billing : j.billing);
    const double images_per_step = static_cast<double>(spec.workload.batch * spec.system.devices);
    const double steps_per_epoch = std::ceil(static_cast<double>(j.dataset_images) / images_per_step);
    const double step_s = out["step_time_s"].get<double>();
    const cost::JobTimes times = job_times(j, j.epochs * steps_per_epoch * step_s);
    const auto c = cost::training_cost(times, j.epochs, usd_per_hour, *rule);
    ordered_json terms = ordered_json::object();
    for (const auto& [name, s] : times.terms()) terms[name] = s;
    cost["job"] = {{"epochs", j.epochs},        {"steps_per_epoch", steps_per_epoch},
                   {"time_s", terms},           {"t_sum_s", times.sum()},
                   {"billing", c.billing},      {"billed_s", c.billed_s},
                   {"usd", c.usd},              {"usd_per_epoch", c.usd_per_epoch}};
  }
  out["cost"] = cost;
}

std::string cost_table(const ordered_json& run) {
  if (!run.contains("cost")) return "";
  const auto& c = run["cost"];
  std::string out = fmt::format("  price {:.4g} USD/h: {}\n", c["usd_per_hour"].get<double>(),
                                c["price"].get<std::string>());
  if (c.contains("usd_per_million_images"))
    out += fmt::format("  cost {:.4g} USD per million images\n", c["usd_per_million_images"].get<double>());
  if (c.contains("job")) {
    const auto& j = c["job"];
    out += fmt::format("  job: {} epochs of {} steps, learning {} of {} in all, billed {} ({}): {:.4g} USD, {:.4g} USD "
                       "per epoch\n",
                       j["epochs"].get<int>(), j["steps_per_epoch"].get<double>(),
                       format_time(j["time_s"]["learn"].get<double>()), format_time(j["t_sum_s"].get<double>()),
                       format_time(j["billed_s"].get<double>()), j["billing"].get<std::string>(), j["usd"].get<double>(),
                       j["usd_per_epoch"].get<double>());
  }
  return out;
}

}  // namespace dlsim::report
