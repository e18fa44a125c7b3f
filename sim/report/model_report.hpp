#pragma once
// `dlsim model`: a network's layers and totals at a batch size and data type.

#include <string>

#include <nlohmann/json.hpp>

#include "graph/cost.hpp"
#include "report/generator.hpp"

namespace dlsim::report {

// JSON keys fixed by DESIGN.md: params, forward_flops_per_sample (2 FLOPs per multiply-add of
// the convolutions and fully connected layers, as published counts are), layers.  The other
// operators' arithmetic is forward_other_flops_per_sample; per-layer forward_flops include it.
nlohmann::ordered_json model_json(const graph::Graph& graph, int64_t batch, graph::DataType type);
std::string model_text(const graph::Graph& graph, int64_t batch, graph::DataType type, Format format);

}  // namespace dlsim::report
