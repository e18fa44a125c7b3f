#pragma once
// Shape arithmetic in ONNX files.  torch.onnx computes some sizes from a tensor's shape
// while the network runs (Shape, Gather, Add, Div, ... on int64 lists: torch.chunk's bounds
// in ShuffleNet); dlsim's shapes are fixed, so the importer evaluates them.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlsim::graph {

using Integers = std::vector<int64_t>;

// The value of integer operator `op` (Gather, Unsqueeze, Squeeze, Cast, Identity, Add, Sub,
// Mul, Div, Concat) on `inputs`, with `axis` its axis attribute; nullopt for any other
// operator.  Throws std::invalid_argument saying what was expected.
std::optional<Integers> integer_op(const std::string& op, const std::vector<Integers>& inputs, int64_t axis);

// A Reshape's target shape: 0 copies the input's size on that axis, -1 takes what is left.
// Throws std::invalid_argument when the element counts cannot agree.
Integers reshape_target(const Integers& input, const Integers& target);

}  // namespace dlsim::graph
