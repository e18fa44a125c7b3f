#include "graph/op.hpp"

namespace dlsim::graph {

std::string to_string(OpKind kind) {
  switch (kind) {
    case OpKind::input: return "input";
    case OpKind::conv: return "conv";
    case OpKind::batch_norm: return "batch_norm";
    case OpKind::layer_norm: return "layer_norm";
    case OpKind::activation: return "activation";
    case OpKind::pool: return "pool";
    case OpKind::global_pool: return "global_pool";
    case OpKind::adaptive_avg_pool: return "adaptive_avg_pool";
    case OpKind::linear: return "linear";
    case OpKind::add: return "add";
    case OpKind::mul: return "mul";
    case OpKind::concat: return "concat";
    case OpKind::flatten: return "flatten";
    case OpKind::slice: return "slice";
    case OpKind::channel_shuffle: return "channel_shuffle";
    case OpKind::dropout: return "dropout";
    case OpKind::lrn: return "lrn";
    case OpKind::softmax: return "softmax";
    case OpKind::softmax_cross_entropy: return "softmax_cross_entropy";
  }
  return "?";
}

std::string to_string(ActivationKind kind) {
  switch (kind) {
    case ActivationKind::relu: return "relu";
    case ActivationKind::relu6: return "relu6";
    case ActivationKind::sigmoid: return "sigmoid";
    case ActivationKind::tanh: return "tanh";
    case ActivationKind::leaky_relu: return "leaky_relu";
    case ActivationKind::gelu: return "gelu";
    case ActivationKind::silu: return "silu";
    case ActivationKind::hardsigmoid: return "hardsigmoid";
    case ActivationKind::hardswish: return "hardswish";
  }
  return "?";
}

std::string to_string(PoolKind kind) { return kind == PoolKind::max ? "max" : "avg"; }

std::string op_label(OpKind kind, const OpAttrs& attrs) {
  if (kind == OpKind::activation) return to_string(std::get<ActivationAttrs>(attrs).kind);
  if (kind == OpKind::pool) return to_string(std::get<PoolAttrs>(attrs).kind) + "pool";
  if (kind == OpKind::global_pool) return "global_" + to_string(std::get<GlobalPoolAttrs>(attrs).kind) + "pool";
  return to_string(kind);
}

}  // namespace dlsim::graph
