#pragma once
// Where a model comes from: the zoo, a TOML layer list, or an ONNX file.
//
// Model TOML schema (documented with an example in scenarios/README.md):
//   name = "tiny"            # optional; defaults to the file name
//   input = [3, 32, 32]      # per-sample shape: [C, H, W] or [features]
//   [[layer]]                # in execution order
//   op = "conv"              # conv, batch_norm, relu, relu6, sigmoid, tanh, leaky_relu, gelu,
//                            # silu, hardsigmoid, hardswish, maxpool, avgpool, global_avgpool,
//                            # global_maxpool, linear, add, mul, concat, flatten, dropout, lrn,
//                            # softmax, softmax_cross_entropy
//   name = "conv1"           # optional; defaults to "<op><index>"
//   input = "conv0"          # optional; defaults to the previous layer ("inputs" for add, mul
//                            # [tensor, factor] and concat)
//   ...                      # the operator's own keys (out_channels, kernel, stride, ...)

#include <string>

#include "graph/graph.hpp"

namespace dlsim::scenario {

// A zoo name, or a path ending in .toml or .onnx.  Throws InputError.
graph::Graph load_model(const std::string& reference);

graph::Graph parse_model_toml(const std::string& text, const std::string& source_name);

}  // namespace dlsim::scenario
