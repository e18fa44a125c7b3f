#include "cli/commands.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "cli/predict.hpp"
#include "cli/serving_questions.hpp"
#include "core/error.hpp"
#include "core/suggest.hpp"
#include "report/hardware_report.hpp"
#include "report/model_report.hpp"
#include "report/run_report.hpp"
#include "report/trace.hpp"
#include "scenario/catalog_loader.hpp"
#include "scenario/model_source.hpp"
#include "scenario/scenario.hpp"

namespace dlsim::cli {
namespace {

const std::map<std::string, report::Format> kFormats = {{"table", report::Format::table},
                                                         {"json", report::Format::json},
                                                         {"csv", report::Format::csv},
                                                         {"kernels", report::Format::kernels}};

CLI::Option* add_format(CLI::App& cmd, std::string& format, const char* kernels_help = nullptr) {
  if (kernels_help)
    return cmd.add_option("--format", format, fmt::format("table, json, csv, or kernels ({})", kernels_help))
        ->check(CLI::IsMember({"table", "json", "csv", "kernels"}))
        ->default_val("table");
  return cmd.add_option("--format", format, "table, json or csv")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->default_val("table");
}

}  // namespace

void add_model_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("model", "A network's layers, parameters, FLOPs and memory");
  auto model = std::make_shared<std::string>();
  auto batch = std::make_shared<int64_t>(1);
  auto dtype = std::make_shared<std::string>("fp32");
  auto format = std::make_shared<std::string>();
  cmd->add_option("model", *model, "a zoo name, or a .toml or .onnx file")->required();
  cmd->add_option("--batch", *batch, "samples per batch")->check(CLI::Range(int64_t{1}, int64_t{1} << 20));
  cmd->add_option("--dtype", *dtype, "fp32, tf32, fp16 or bf16")->check(CLI::IsMember({"fp32", "tf32", "fp16", "bf16"}));
  add_format(*cmd, *format, "the signatures to calibrate");
  cmd->callback([=] {
    const std::map<std::string, graph::DataType> types = {{"fp32", graph::DataType::fp32},
                                                          {"tf32", graph::DataType::tf32},
                                                          {"fp16", graph::DataType::fp16},
                                                          {"bf16", graph::DataType::bf16}};
    const auto graph = scenario::load_model(*model);
    std::cout << report::model_text(graph, *batch, types.at(*dtype), kFormats.at(*format));
  });
}

void add_hw_command(CLI::App& app) {
  auto* hw = app.add_subcommand("hw", "The hardware catalog");
  hw->require_subcommand(1);
  auto format = std::make_shared<std::string>();
  auto* list = hw->add_subcommand("list", "Every GPU, CPU and instance");
  add_format(*list, *format);
  list->callback([=] { std::cout << report::catalog_text(scenario::builtin_catalog(), kFormats.at(*format)); });

  auto name = std::make_shared<std::string>();
  auto show_format = std::make_shared<std::string>();
  auto* show = hw->add_subcommand("show", "One catalog entry in full, with its sources");
  show->add_option("name", *name, "a GPU, CPU, instance, NIC, PCIe link or billing rule")->required();
  add_format(*show, *show_format);
  show->callback([=] {
    const auto& catalog = scenario::builtin_catalog();
    auto text = report::catalog_entry_text(catalog, *name, kFormats.at(*show_format));
    if (!text)
      throw InputError(Problem{{"dlsim hw show", 0, 0}, "name", *name, "names no catalog entry",
                               suggest(*name, report::catalog_entry_names(catalog))});
    std::cout << *text;
  });
}

// Writes the trace, or says why there is none; a path it cannot write is bad input.
void write_trace(const std::string& path, const scenario::RunSpec& spec, const report::Prediction* prediction) {
  if (!prediction || !prediction->training)
    throw InputError(Problem{{"dlsim run", 0, 0}, "--trace", path, "a training scenario that is simulated",
                             "traces cover training steps; drop --trace for this scenario"});
  std::ofstream out(path);
  if (!out) throw InputError(Problem{{"dlsim run", 0, 0}, "--trace", path, "a writable file path", ""});
  out << report::chrome_trace(prediction->training->trace,
                              fmt::format("{} {} b{} on {} x {}", to_string(spec.workload.kind), spec.workload.model,
                                          spec.workload.batch, spec.system.devices, spec.system.device));
}

void add_run_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "One prediction for a scenario");
  auto path = std::make_shared<std::string>();
  auto sets = std::make_shared<std::vector<std::string>>();
  auto format = std::make_shared<std::string>();
  auto trace = std::make_shared<std::string>();
  cmd->add_option("scenario", *path, "scenario file (.toml)")->required();
  cmd->add_option("--set", *sets, "override a scenario key, e.g. --set workload.batch=64")->allow_extra_args(false);
  cmd->add_option("--trace", *trace, "write the last simulated training step as a Chrome/Perfetto trace (JSON)");
  auto question = std::make_shared<ServingQuestion>();
  cmd->add_option("--max-p99", question->max_p99,
                  "serving: the most images/s with p99 under this time, over batch and concurrency (e.g. 50ms)");
  cmd->add_option("--rate", question->rate, "serving: the cheapest fleet (GPU count) that takes this many images/s")
      ->check(CLI::Validator(
          [](const std::string& text) {
            const double v = std::strtod(text.c_str(), nullptr);
            return v > 0 ? std::string() : "value '" + text + "': expected images/s above zero, e.g. --rate 400";
          },
          "RATE > 0"));
  add_format(*cmd, *format, "every priced kernel of one step, with its source, as CSV");
  cmd->callback([=] {
    if (question->any()) {
      std::cout << answer(*path, *sets, *question, *format);
      return;
    }
    std::vector<scenario::Override> overrides;
    ProblemList problems;
    for (const auto& s : *sets) {
      try {
        overrides.push_back(scenario::parse_override(s));
      } catch (const InputError& e) {
        problems.add(e);
      }
    }
    problems.throw_if_any();
    const auto& catalog = scenario::builtin_catalog();
    const auto spec = scenario::load_scenario(*path, overrides, catalog);
    const auto model = scenario::load_model(spec.workload.model);
    report::check_memory(spec, model, catalog);
    const auto prediction = predict(spec, model, catalog, {.trace = !trace->empty()});
    if (!trace->empty()) write_trace(*trace, spec, prediction ? &*prediction : nullptr);
    std::cout << report::run_text(spec, model, catalog, prediction ? &*prediction : nullptr, kFormats.at(*format));
  });
}

}  // namespace dlsim::cli
