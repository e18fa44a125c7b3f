#include "scenario/run_spec.hpp"

#include <fmt/format.h>

namespace dlsim::scenario {

std::string to_string(WorkloadKind kind) { return kind == WorkloadKind::train ? "train" : "infer"; }

std::string to_string(Precision precision) {
  switch (precision) {
    case Precision::fp32: return "fp32";
    case Precision::tf32: return "tf32";
    case Precision::fp16: return "fp16";
    case Precision::amp: return "amp";
  }
  return "?";
}

std::string not_simulated_yet(const RunSpec& spec) {
  const bool served = spec.serving && spec.serving->deployment != "in-process";
  const bool gpu_distributed = spec.system.device != "cpu" && (spec.training || served);
  if (!gpu_distributed && (spec.system.devices > 1 || (spec.training && spec.training->strategy != "single")))
    return fmt::format("{} devices{} are not simulated yet (one device is; a GPU fleet serves over a protocol)",
                       spec.system.devices,
                       spec.training ? fmt::format(" with training.strategy = \"{}\"", spec.training->strategy) : "");
  return "";
}

int optimizer_slots(const std::string& optimizer) {
  if (optimizer == "adam") return 2;
  if (optimizer == "sgd_momentum") return 1;
  return 0;
}

graph::DataType compute_type(Precision precision) {
  switch (precision) {
    case Precision::fp32: return graph::DataType::fp32;
    case Precision::tf32: return graph::DataType::tf32;
    case Precision::fp16:
    case Precision::amp: return graph::DataType::fp16;
  }
  return graph::DataType::fp32;
}

}  // namespace dlsim::scenario
