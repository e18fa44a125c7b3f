#include "cli/point.hpp"

#include "cli/predict.hpp"
#include "core/error.hpp"
#include "report/run_report.hpp"
#include "scenario/catalog_loader.hpp"
#include "scenario/model_source.hpp"
#include "scenario/scenario.hpp"

namespace dlsim::cli {

plan::PointRecord predict_point(const std::string& scenario, const std::vector<std::string>& sets,
                                const plan::SweepPoint& point) {
  plan::PointRecord r{point, 0, "", {}};
  try {
    std::vector<scenario::Override> overrides;
    for (const auto& s : sets) overrides.push_back(scenario::parse_override(s));
    for (const auto& [k, v] : point.values) overrides.push_back(scenario::parse_override(k + "=" + v));
    const auto& catalog = scenario::builtin_catalog();
    const auto spec = scenario::load_scenario(scenario, overrides, catalog);
    const auto model = scenario::load_model(spec.workload.model);
    report::check_memory(spec, model, catalog);
    // A sweep or plan point answers with its latencies, not their band.
    const auto prediction = predict(spec, model, catalog, {.latency_band = false});
    r.metrics = plan::sweep_metrics(report::run_json(spec, model, catalog, prediction ? &*prediction : nullptr));
  } catch (const InputError& e) {
    r.exit_code = 2, r.error = e.what();
  } catch (const UnrunnableError& e) {
    r.exit_code = 3, r.error = e.what();
  } catch (const std::exception& e) {
    r.exit_code = 1, r.error = e.what();
  }
  return r;
}

}  // namespace dlsim::cli
