#include "report/model_report.hpp"

#include <set>

#include <fmt/format.h>

#include "core/units.hpp"
#include "graph/kernel_signature.hpp"
#include "graph/memory.hpp"
#include "perf/step_plan.hpp"

namespace dlsim::report {

using namespace dlsim::graph;

nlohmann::ordered_json model_json(const Graph& graph, int64_t batch, DataType type) {
  const auto totals = model_totals(graph, batch, type);
  const auto costs = layer_costs(graph, batch, type);
  nlohmann::ordered_json out;
  out["generator"] = generator();
  out["model"] = graph.name();
  out["batch"] = batch;
  out["dtype"] = to_string(type);
  out["input_shape"] = graph.input_shape();
  out["params"] = totals.params;
  out["non_trainable_state"] = totals.state;
  out["forward_flops_per_sample"] = totals.forward_flops_per_sample;
  out["forward_other_flops_per_sample"] = totals.forward_other_flops_per_sample;
  out["forward_macs_per_sample"] = totals.macs_per_sample;
  out["training_flops_per_sample"] = totals.training_flops_per_sample;
  out["saved_activation_bytes"] = totals.saved_activation_bytes;
  out["peak_inference_activation_bytes"] = totals.peak_inference_activation_bytes;
  out["notes"] = graph.notes();
  auto& layers = out["layers"] = nlohmann::ordered_json::array();
  for (const auto& n : graph.nodes()) {
    const auto& c = costs[static_cast<size_t>(n.id)];
    nlohmann::ordered_json inputs = nlohmann::ordered_json::array();
    for (auto id : n.inputs) inputs.push_back(graph.node(id).name);
    Dims shape = {batch};
    shape.insert(shape.end(), n.output.begin(), n.output.end());
    layers.push_back({{"name", n.name},
                      {"op", op_label(n.kind, n.attrs)},
                      {"inputs", inputs},
                      {"output_shape", shape},
                      {"train_only", n.train_only},
                      {"params", c.params},
                      {"macs", c.macs},
                      {"forward_flops", c.forward_flops},
                      {"backward_data_flops", c.backward_data_flops},
                      {"backward_weights_flops", c.backward_weights_flops},
                      {"bytes_read", c.forward_bytes_read},
                      {"bytes_written", c.forward_bytes_written},
                      {"saved_activation_bytes", c.saved_activation_bytes},
                      {"kernel", kernel_signature(graph, n, batch, type)}});
  }
  return out;
}

namespace {

std::string csv(const Graph& graph, int64_t batch, DataType type) {
  const auto costs = layer_costs(graph, batch, type);
  std::string out =
      "name,op,output_shape,train_only,params,macs,forward_flops,backward_data_flops,backward_weights_flops,"
      "bytes_read,bytes_written,saved_activation_bytes,kernel\n";
  for (const auto& n : graph.nodes()) {
    const auto& c = costs[static_cast<size_t>(n.id)];
    out += fmt::format("{},{},{}x{},{},{},{},{:.0f},{:.0f},{:.0f},{:.0f},{:.0f},{:.0f},\"{}\"\n", n.name,
                       op_label(n.kind, n.attrs), batch, to_string(n.output), n.train_only ? 1 : 0, c.params, c.macs,
                       c.forward_flops, c.backward_data_flops, c.backward_weights_flops, c.forward_bytes_read,
                       c.forward_bytes_written, c.saved_activation_bytes, kernel_signature(graph, n, batch, type));
  }
  return out;
}

std::string table(const Graph& graph, int64_t batch, DataType type) {
  const auto totals = model_totals(graph, batch, type);
  const auto costs = layer_costs(graph, batch, type);
  std::string out = fmt::format("{:<36} {:<18} {:<18} {:>12} {:>12} {:>11}\n", "layer", "op", "output", "params",
                                "fwd GFLOP", "saved");
  for (const auto& n : graph.nodes()) {
    const auto& c = costs[static_cast<size_t>(n.id)];
    out += fmt::format("{:<36} {:<18} {:<18} {:>12} {:>12.4f} {:>11}{}\n", n.name, op_label(n.kind, n.attrs),
                       fmt::format("{}x{}", batch, to_string(n.output)), c.params, c.forward_flops / 1e9,
                       format_bytes(c.saved_activation_bytes), n.train_only ? "  (training only)" : "");
  }
  out += fmt::format("\nmodel {}  batch {}  {}\n", graph.name(), batch, to_string(type));
  out += fmt::format("  parameters              {:>16}  (+{} batch-norm running statistics)\n", totals.params,
                     totals.state);
  out += fmt::format("  forward per sample      {:>13.4f} GFLOP  ({:.4f} G multiply-adds, 2 FLOPs each)\n",
                     totals.forward_flops_per_sample / 1e9, static_cast<double>(totals.macs_per_sample) / 1e9);
  out += fmt::format("  + element-wise          {:>13.4f} GFLOP  (biases, normalisation, activations, pooling)\n",
                     totals.forward_other_flops_per_sample / 1e9);
  out += fmt::format("  training per sample     {:>13.4f} GFLOP  (forward + backward)\n",
                     totals.training_flops_per_sample / 1e9);
  out += fmt::format("  kept for backward       {:>16}  per batch\n", format_bytes(totals.saved_activation_bytes));
  out += fmt::format("  inference peak          {:>16}  per batch\n",
                     format_bytes(totals.peak_inference_activation_bytes));
  for (const auto& note : graph.notes()) out += fmt::format("  note: {}\n", note);
  return out;
}

std::string kernel_list(const Graph& graph, int64_t batch, DataType type) {
  std::string out = fmt::format("# {} at batch {}, {}: `dlsim model {} --batch {} --format kernels`\n", graph.name(),
                                batch, to_string(type), graph.name(), batch);
  for (const auto& sig : perf::calibration_signatures(graph, batch, type)) out += sig + "\n";
  return out;
}

}  // namespace

std::string model_text(const Graph& graph, int64_t batch, DataType type, Format format) {
  switch (format) {
    case Format::json: return model_json(graph, batch, type).dump(2) + "\n";
    case Format::csv: return csv(graph, batch, type);
    case Format::table: return table(graph, batch, type);
    case Format::kernels: return kernel_list(graph, batch, type);
  }
  return "";
}

}  // namespace dlsim::report
