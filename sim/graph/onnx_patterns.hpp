#pragma once
// Chains of ONNX nodes that torch.onnx writes for one PyTorch kernel, found before a graph
// is imported so that each chain imports as that one kernel: a gate times its own input
// (SiLU, hard swish), a layer norm before opset 17
// (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, then the scale's Mul and the shift's
// Add), and the exact GELU before opset 20 (Div by the square root of two, Erf, Add one,
// Mul by the input, Mul by one half).

#include <map>
#include <set>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "graph/op.hpp"

namespace dlsim::graph {

// Each value's consumers; a graph output counts a null consumer.
using Consumers = std::map<std::string, std::vector<const onnx::NodeProto*>>;
Consumers consumers_of(const onnx::GraphProto& graph);

// Sigmoid and HardSigmoid nodes whose one consumer is a Mul by their own input, by the gate's
// output: x * sigmoid(x) is SiLU and x * hardsigmoid(x) hard swish, which PyTorch runs as one
// kernel (torch.onnx writes nn.SiLU and, before opset 14, nn.Hardswish as the pair).
std::map<std::string, ActivationKind> find_gates(const onnx::GraphProto& graph, const Consumers& consumers);

struct FusedChain {
  std::string input;           // the value the chain computes from
  std::set<std::string> inner;  // outputs of its nodes but the last: imported as nothing
};

// By the chain's last output.  `initializers` tells a weight operand from a computed one.
std::map<std::string, FusedChain> find_layer_norms(const onnx::GraphProto& graph, const Consumers& consumers,
                                                   const std::set<std::string>& initializers);
std::map<std::string, FusedChain> find_erf_gelus(const onnx::GraphProto& graph, const Consumers& consumers);

}  // namespace dlsim::graph
