#include "report/run_report.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/units.hpp"
#include "graph/memory.hpp"
#include "report/cost_report.hpp"
#include "report/prediction_report.hpp"

namespace dlsim::report {

using nlohmann::ordered_json;
using scenario::WorkloadKind;

ordered_json spec_json(const scenario::RunSpec& spec) {
  ordered_json out;
  out["source"] = spec.source;
  out["workload"] = {{"kind", to_string(spec.workload.kind)},
                     {"model", spec.workload.model},
                     {"batch", spec.workload.batch},
                     {"precision", to_string(spec.workload.precision)}};
  out["system"] = {{"instance", spec.system.instance}, {"device", spec.system.device},
                   {"devices", spec.system.devices},   {"nodes", spec.system.nodes},
                   {"threads", spec.system.threads},   {"profile", spec.system.profile},
                   {"network_bandwidth_Bps", spec.system.network_bandwidth_Bps},
                   {"network_latency_s", spec.system.network_latency_s}};
  if (spec.training) out["training"] = {{"strategy", spec.training->strategy}, {"optimizer", spec.training->optimizer}};
  if (spec.serving)
    out["serving"] = {{"deployment", spec.serving->deployment},
                      {"protocol", spec.serving->protocol},
                      {"mode", spec.serving->mode},
                      {"concurrency", spec.serving->concurrency},
                      {"client_instance", spec.serving->client_instance}};
  return out;
}

namespace {

struct Fit {
  graph::MemoryEstimate need;
  double capacity_bytes = 0;  // 0 when unknown
  std::string capacity_of;
};

Fit memory_fit(const scenario::RunSpec& spec, const graph::Graph& model, const hardware::Catalog& catalog) {
  Fit fit;
  const auto type = scenario::compute_type(spec.workload.precision);
  fit.need = spec.workload.kind == WorkloadKind::train
                 ? graph::training_memory(model, spec.workload.batch, type,
                                          scenario::optimizer_slots(spec.training->optimizer),
                                          spec.workload.precision == scenario::Precision::amp)
                 : graph::inference_memory(model, spec.workload.batch, type);
  if (spec.system.device != "cpu") {
    fit.capacity_bytes = catalog.gpu(spec.system.device).memory_bytes;
    fit.capacity_of = spec.system.device + " memory";
  } else if (!spec.system.instance.empty()) {
    fit.capacity_bytes = catalog.instance(spec.system.instance).memory_bytes;
    fit.capacity_of = spec.system.instance + " host memory";
  }
  return fit;
}

}  // namespace

void check_memory(const scenario::RunSpec& spec, const graph::Graph& model, const hardware::Catalog& catalog) {
  const Fit fit = memory_fit(spec, model, catalog);
  if (fit.capacity_bytes > 0 && fit.need.total_bytes() > fit.capacity_bytes)
    throw UnrunnableError(fmt::format(
        "{} at batch {} needs {} per device ({} weights, {} gradients, {} optimizer state, {} activations) but the "
        "{} is {}; lower workload.batch, use precision = \"amp\", or pick a device with more memory",
        model.name(), spec.workload.batch, format_bytes(fit.need.total_bytes()), format_bytes(fit.need.weights_bytes),
        format_bytes(fit.need.gradients_bytes), format_bytes(fit.need.optimizer_bytes),
        format_bytes(fit.need.activations_bytes), fit.capacity_of, format_bytes(fit.capacity_bytes)));
}

ordered_json run_json(const scenario::RunSpec& spec, const graph::Graph& model, const hardware::Catalog& catalog,
                      const Prediction* prediction) {
  check_memory(spec, model, catalog);
  const auto type = scenario::compute_type(spec.workload.precision);
  const auto totals = graph::model_totals(model, spec.workload.batch, type);
  const Fit fit = memory_fit(spec, model, catalog);
  ordered_json out;
  out["generator"] = generator();
  out["scenario"] = spec_json(spec);
  out["model"] = {{"name", model.name()},
                  {"params", totals.params},
                  {"forward_flops_per_sample", totals.forward_flops_per_sample},
                  {"training_flops_per_sample", totals.training_flops_per_sample},
                  {"notes", model.notes()}};
  const double samples = static_cast<double>(spec.workload.batch);
  out["work_per_step"] = {
      {"flops", (spec.workload.kind == WorkloadKind::train
                     ? totals.training_flops_per_sample
                     : totals.forward_flops_per_sample + totals.forward_other_flops_per_sample) *
                    samples},
      {"samples", spec.workload.batch}};
  out["memory"] = {{"per_device_bytes", fit.need.total_bytes()},
                   {"weights_bytes", fit.need.weights_bytes},
                   {"gradients_bytes", fit.need.gradients_bytes},
                   {"optimizer_bytes", fit.need.optimizer_bytes},
                   {"activations_bytes", fit.need.activations_bytes},
                   {"capacity_bytes", fit.capacity_bytes},
                   {"excludes", "framework workspace and allocator slack (calibrated per device)"}};
  if (prediction) {
    add_prediction(out, *prediction, spec.workload.batch);
    add_cost(out, spec, catalog);
  } else {
    out["prediction"] = nullptr;
    out["prediction_status"] =
        fmt::format("not simulated: {}; the workload is sized above", scenario::not_simulated_yet(spec));
  }
  return out;
}

std::string kernel_calls_csv(const Prediction* prediction) {
  std::string out = "stage,layer,signature,phase,seconds,source,rel_error,cpu_seconds\n";
  if (!prediction) return out;
  for (const auto& c : prediction->plan.calls)
    out += fmt::format("{},{},\"{}\",{},{:.6g},{},{:.3g},{:.6g}\n", perf::to_string(c.stage), c.layer, c.signature,
                       c.phase, c.answer.seconds, perf::to_string(c.answer.source), c.answer.rel_error, c.cpu_s);
  return out;
}

std::string run_text(const scenario::RunSpec& spec, const graph::Graph& model, const hardware::Catalog& catalog,
                     const Prediction* prediction, Format format) {
  if (format == Format::kernels) return kernel_calls_csv(prediction);
  const auto j = run_json(spec, model, catalog, prediction);
  if (format == Format::json) return j.dump(2) + "\n";
  if (format == Format::csv) {
    auto value = [&j](const char* key) {
      return j.contains(key) ? fmt::format("{:.6g}", j[key].get<double>()) : std::string();
    };
    return fmt::format("model,batch,precision,device,devices,threads,params,step_flops,memory_per_device_bytes,"
                       "throughput_images_per_s,step_time_s\n"
                       "{},{},{},{},{},{},{},{:.6g},{:.0f},{},{}\n",
                       model.name(), spec.workload.batch, to_string(spec.workload.precision), spec.system.device,
                       spec.system.devices, spec.system.threads, j["model"]["params"].get<int64_t>(),
                       j["work_per_step"]["flops"].get<double>(), j["memory"]["per_device_bytes"].get<double>(),
                       value("throughput_images_per_s"), value("step_time_s"));
  }
  std::string out = fmt::format("scenario {}\n", spec.source);
  out += fmt::format("  {} {} at batch {} in {} on {} x {}{}\n", to_string(spec.workload.kind), model.name(),
                     spec.workload.batch, to_string(spec.workload.precision), spec.system.devices, spec.system.device,
                     spec.system.instance.empty() ? "" : fmt::format(" ({}, {} node(s))", spec.system.instance,
                                                                     spec.system.nodes));
  out += fmt::format("  parameters {}; {:.4g} GFLOP per step per device\n", j["model"]["params"].get<int64_t>(),
                     j["work_per_step"]["flops"].get<double>() / 1e9);
  const auto& m = j["memory"];
  out += fmt::format("  memory per device {} (weights {}, gradients {}, optimizer {}, activations {}){}\n",
                     format_bytes(m["per_device_bytes"]), format_bytes(m["weights_bytes"]),
                     format_bytes(m["gradients_bytes"]), format_bytes(m["optimizer_bytes"]),
                     format_bytes(m["activations_bytes"]),
                     m["capacity_bytes"].get<double>() > 0
                         ? fmt::format(" of {}", format_bytes(m["capacity_bytes"].get<double>()))
                         : "");
  for (const auto& note : model.notes()) out += fmt::format("  note: {}\n", note);
  out += prediction ? prediction_table(j) + cost_table(j)
                    : fmt::format("  prediction: {}\n", j["prediction_status"].get<std::string>());
  return out;
}

}  // namespace dlsim::report
