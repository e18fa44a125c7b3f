#pragma once
// The exact identity of a kernel launch, as calibration measures and looks it up:
// operator, batch, shapes, window geometry and data type.  Phases (forward,
// backward-data, backward-weights) share a signature and are told apart by the caller.

#include <string>
#include <vector>

#include "graph/cost.hpp"
#include "graph/graph.hpp"

namespace dlsim::graph {

// e.g. "conv2d fp32 n32 c64 h56 w56 k64 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1"
//      "linear fp32 n32 in2048 out1000 bias"
//      "relu fp32 n32 e802816"
// Returns an empty string for operators that launch no kernel (input, flatten).
std::string kernel_signature(const Graph& graph, const Node& node, int64_t batch, DataType type);

// The operator a signature names, its first word ("linear fp32 n8 in2048 out1000" -> linear).
std::string signature_operator(const std::string& signature);
// Every operator kernel_signature can name, sorted.
std::vector<std::string> kernel_operators();

}  // namespace dlsim::graph
