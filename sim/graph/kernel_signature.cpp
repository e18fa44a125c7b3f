#include "graph/kernel_signature.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace dlsim::graph {

std::string kernel_signature(const Graph& graph, const Node& node, int64_t batch, DataType type) {
  const std::string dt = to_string(type);
  const Dims& out = node.output;
  const Dims* in = node.inputs.empty() ? nullptr : &graph.node(node.inputs[0]).output;
  switch (node.kind) {
    case OpKind::input:
    case OpKind::flatten:
    case OpKind::slice: return "";
    case OpKind::conv: {
      const auto& a = std::get<ConvAttrs>(node.attrs);
      return fmt::format("conv2d {} n{} c{} h{} w{} k{} r{} s{} pad{},{},{},{} str{},{} dil{},{} g{}{}", dt, batch,
                         (*in)[0], (*in)[1], (*in)[2], a.out_channels, a.window.kernel_h, a.window.kernel_w, a.window.pad_top, a.window.pad_left,
                         a.window.pad_bottom, a.window.pad_right, a.window.stride_h, a.window.stride_w, a.dilation_h, a.dilation_w, a.groups,
                         a.bias ? " bias" : "");
    }
    case OpKind::linear: {  // over each position: one product of (batch x positions) rows
      const auto& a = std::get<LinearAttrs>(node.attrs);
      const int64_t rows = a.each_position ? batch * (*in)[1] * (*in)[2] : batch;
      return fmt::format("linear {} n{} in{} out{}{}", dt, rows, (*in)[0], a.out_features, a.bias ? " bias" : "");
    }
    case OpKind::pool: {
      const auto& a = std::get<PoolAttrs>(node.attrs);
      return fmt::format("{}pool {} n{} c{} h{} w{} r{} s{} pad{},{},{},{} str{},{}{}", to_string(a.kind), dt, batch,
                         (*in)[0], (*in)[1], (*in)[2], a.window.kernel_h, a.window.kernel_w, a.window.pad_top, a.window.pad_left, a.window.pad_bottom,
                         a.window.pad_right, a.window.stride_h, a.window.stride_w, a.ceil_mode ? " ceil" : "");
    }
    case OpKind::global_pool:
    case OpKind::adaptive_avg_pool:
      return fmt::format("{} {} n{} c{} h{} w{} oh{} ow{}", op_label(node.kind, node.attrs), dt, batch, (*in)[0],
                         (*in)[1], (*in)[2], out[1], out[2]);
    case OpKind::batch_norm:
    case OpKind::layer_norm:
      return fmt::format("{} {} n{} c{} hw{}", to_string(node.kind), dt, batch, out[0], elements(out) / out[0]);
    case OpKind::concat: {
      std::string s = fmt::format("concat {} n{}", dt, batch);
      for (auto id : node.inputs) s += " " + to_string(graph.node(id).output);
      return s;
    }
    case OpKind::lrn:
      return fmt::format("lrn {} n{} c{} hw{} size{}", dt, batch, out[0], elements(out) / out[0],
                         std::get<LrnAttrs>(node.attrs).size);
    case OpKind::add:
      return fmt::format("add {} n{} e{} x{}", dt, batch, elements(out), node.inputs.size());
    case OpKind::mul:  // c: the second operand's elements per sample (x's channels if per channel)
      return fmt::format("mul {} n{} e{} c{}", dt, batch, elements(out),
                         node.inputs.size() == 1 ? out[0] : elements(graph.node(node.inputs[1]).output));
    case OpKind::activation:
    case OpKind::dropout:
    case OpKind::softmax:
      return fmt::format("{} {} n{} e{}", op_label(node.kind, node.attrs), dt, batch, elements(out));
    case OpKind::softmax_cross_entropy:
      return fmt::format("softmax_cross_entropy {} n{} classes{}", dt, batch, elements(*in));
    case OpKind::channel_shuffle:
      return fmt::format("channel_shuffle {} n{} c{} hw{} g{}", dt, batch, out[0], elements(out) / out[0],
                         std::get<ShuffleAttrs>(node.attrs).groups);
  }
  return "";
}

std::string signature_operator(const std::string& signature) { return signature.substr(0, signature.find(' ')); }

std::vector<std::string> kernel_operators() {
  std::vector<std::string> names = {"conv2d",     "linear", "adaptive_avg_pool", "batch_norm", "layer_norm",
                                    "concat",     "lrn",    "add",               "mul",        "dropout",
                                    "softmax",    "softmax_cross_entropy",       "channel_shuffle"};
  for (const auto kind : {PoolKind::max, PoolKind::avg}) {
    names.push_back(to_string(kind) + "pool");
    names.push_back("global_" + to_string(kind) + "pool");
  }
  for (const auto kind : {ActivationKind::relu, ActivationKind::relu6, ActivationKind::sigmoid, ActivationKind::tanh,
                          ActivationKind::leaky_relu, ActivationKind::gelu, ActivationKind::silu,
                          ActivationKind::hardsigmoid, ActivationKind::hardswish})
    names.push_back(to_string(kind));
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace dlsim::graph
