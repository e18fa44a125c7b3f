#include "graph/cost.hpp"

#include <algorithm>
#include <set>

namespace dlsim::graph {
namespace {

double activation_flops(ActivationKind kind) {
  switch (kind) {
    case ActivationKind::relu: return 1;
    case ActivationKind::relu6: return 2;
    case ActivationKind::leaky_relu: return 2;
    case ActivationKind::sigmoid: return 4;
    case ActivationKind::tanh: return 5;
    case ActivationKind::silu: return 5;
    case ActivationKind::hardsigmoid: return 3;
    case ActivationKind::hardswish: return 4;
    case ActivationKind::gelu: return 8;
  }
  return 1;
}

bool activation_keeps_output(ActivationKind kind) {
  return kind == ActivationKind::relu || kind == ActivationKind::relu6 || kind == ActivationKind::sigmoid ||
         kind == ActivationKind::tanh;
}

// Which tensors backward keeps: for each node, whether it keeps its own output and which
// inputs it keeps.
struct Keeps {
  bool output = false;
  bool inputs = false;
  double extra_bytes_per_element = 0;  // e.g. dropout mask
};

Keeps keeps_for_backward(const Node& n) {
  switch (n.kind) {
    case OpKind::conv:
    case OpKind::linear:
    case OpKind::batch_norm:
    case OpKind::layer_norm:
    case OpKind::mul: return {false, true, 0};
    case OpKind::activation: {
      const bool out = activation_keeps_output(std::get<ActivationAttrs>(n.attrs).kind);
      return {out, !out, 0};
    }
    case OpKind::pool:
      if (std::get<PoolAttrs>(n.attrs).kind == PoolKind::max) return {true, true, 0};
      return {};
    case OpKind::global_pool:
      if (std::get<GlobalPoolAttrs>(n.attrs).kind == PoolKind::max) return {true, true, 0};
      return {};
    case OpKind::lrn: return {true, true, 0};
    case OpKind::softmax:
    case OpKind::softmax_cross_entropy: return {true, false, 0};
    case OpKind::dropout: return {false, false, 1.0};
    default: return {};
  }
}

bool is_view(const Node& n) { return n.kind == OpKind::flatten || n.kind == OpKind::slice; }

// `tensors` trainable vectors of one value per channel (a norm's scale and shift, a layer scale).
void per_channel_params(LayerCost& c, int64_t channels, int tensors) {
  c.params = tensors * channels;
  c.param_tensors = tensors;
  c.largest_param_tensor = channels;
}

// The node whose storage a node's output lives in: itself, or a view's source.
std::vector<NodeId> storage_owners(const Graph& graph) {
  std::vector<NodeId> owner;
  for (const auto& n : graph.nodes())
    owner.push_back(is_view(n) ? owner[static_cast<size_t>(n.inputs[0])] : n.id);
  return owner;
}

}  // namespace

int bytes_per_element(DataType type) {
  switch (type) {
    case DataType::fp32:
    case DataType::tf32: return 4;
    case DataType::fp16:
    case DataType::bf16: return 2;
  }
  return 4;
}

std::string to_string(DataType type) {
  switch (type) {
    case DataType::fp32: return "fp32";
    case DataType::tf32: return "tf32";
    case DataType::fp16: return "fp16";
    case DataType::bf16: return "bf16";
  }
  return "?";
}

std::vector<LayerCost> layer_costs(const Graph& graph, int64_t batch, DataType type) {
  const auto& nodes = graph.nodes();
  const double width = bytes_per_element(type);
  const double b = static_cast<double>(batch);
  std::vector<LayerCost> costs(nodes.size());

  // Tensors kept for backward, by the node owning their storage.
  const auto owner = storage_owners(graph);
  std::set<NodeId> kept;
  for (const auto& n : nodes) {
    const Keeps k = keeps_for_backward(n);
    if (k.output) kept.insert(owner[static_cast<size_t>(n.id)]);
    if (k.inputs)
      for (auto in : n.inputs) kept.insert(owner[static_cast<size_t>(in)]);
  }

  for (const auto& n : nodes) {
    LayerCost& c = costs[static_cast<size_t>(n.id)];
    const double out = static_cast<double>(elements(n.output));
    double in = 0;
    for (auto id : n.inputs) in += static_cast<double>(elements(graph.node(id).output));
    const bool input_is_data = !n.inputs.empty() && graph.node(n.inputs[0]).kind == OpKind::input;

    switch (n.kind) {
      case OpKind::conv: {
        const auto& a = std::get<ConvAttrs>(n.attrs);
        const int64_t cin = graph.node(n.inputs[0]).output[0];
        const int64_t per_output = cin / a.groups * a.window.kernel_h * a.window.kernel_w;
        c.macs = elements(n.output) * per_output;
        c.params = a.out_channels * per_output + (a.bias ? a.out_channels : 0);
        c.param_tensors = a.bias ? 2 : 1;
        c.largest_param_tensor = a.out_channels * per_output;
        c.forward_flops = 2.0 * static_cast<double>(c.macs) + (a.bias ? out : 0);
        c.backward_data_flops = input_is_data ? 0 : 2.0 * static_cast<double>(c.macs);
        c.backward_weights_flops = 2.0 * static_cast<double>(c.macs) + (a.bias ? out : 0);
        break;
      }
      case OpKind::linear: {
        const auto& a = std::get<LinearAttrs>(n.attrs);
        const int64_t in_features = a.each_position ? graph.node(n.inputs[0]).output[0] : static_cast<int64_t>(in);
        c.macs = static_cast<int64_t>(in) * a.out_features;
        c.params = in_features * a.out_features + (a.bias ? a.out_features : 0);
        c.param_tensors = a.bias ? 2 : 1;
        c.largest_param_tensor = in_features * a.out_features;
        c.forward_flops = 2.0 * static_cast<double>(c.macs) + (a.bias ? out : 0);
        c.backward_data_flops = input_is_data ? 0 : 2.0 * static_cast<double>(c.macs);
        c.backward_weights_flops = 2.0 * static_cast<double>(c.macs) + (a.bias ? out : 0);
        break;
      }
      case OpKind::batch_norm: {
        const int64_t channels = n.output[0];
        if (std::get<BatchNormAttrs>(n.attrs).affine) per_channel_params(c, channels, 2);
        c.state = 2 * channels;
        c.forward_flops = 5 * out;
        c.backward_data_flops = 8 * out;
        c.backward_weights_flops = 2 * out;
        break;
      }
      case OpKind::layer_norm:  // a mean and a variance per position, then a scale and shift
        per_channel_params(c, n.output[0], 2);
        c.forward_flops = 8 * out;
        c.backward_data_flops = 10 * out;
        c.backward_weights_flops = 2 * out;
        break;
      case OpKind::activation: {
        const double f = activation_flops(std::get<ActivationAttrs>(n.attrs).kind);
        c.forward_flops = f * out;
        c.backward_data_flops = f * out;
        break;
      }
      case OpKind::pool: {
        const auto& a = std::get<PoolAttrs>(n.attrs);
        c.forward_flops = out * a.window.kernel_h * a.window.kernel_w;
        c.backward_data_flops = a.kind == PoolKind::max ? out : out * a.window.kernel_h * a.window.kernel_w;
        break;
      }
      case OpKind::global_pool:
      case OpKind::adaptive_avg_pool:
        c.forward_flops = in;
        c.backward_data_flops = in;
        break;
      case OpKind::add:
        c.forward_flops = in - out;
        break;
      case OpKind::mul:  // backward: x's gradient g * y, y's g * x (summed over the pixels if per channel)
        c.forward_flops = out;
        c.backward_data_flops = 2 * out;
        if (n.inputs.size() == 1) {  // a trainable factor per channel
          per_channel_params(c, n.output[0], 1);
          c.backward_data_flops = out;
          c.backward_weights_flops = 2 * out;
        }
        break;
      case OpKind::dropout:
        c.forward_flops = out;
        c.backward_data_flops = out;
        break;
      case OpKind::lrn: {
        const int size = std::get<LrnAttrs>(n.attrs).size;
        c.forward_flops = (2.0 * size + 5) * out;
        c.backward_data_flops = (2.0 * size + 7) * out;
        break;
      }
      case OpKind::softmax:
        c.forward_flops = 5 * out;
        c.backward_data_flops = 3 * out;
        break;
      case OpKind::softmax_cross_entropy:
        c.forward_flops = 5 * in + 1;
        c.backward_data_flops = in;
        break;
      case OpKind::input:
      case OpKind::concat:
      case OpKind::flatten:
      case OpKind::slice:
      case OpKind::channel_shuffle:  // moves data, computes nothing
        break;
    }

    c.forward_flops *= b;
    c.backward_data_flops *= b;
    c.backward_weights_flops *= b;
    c.macs *= batch;
    const bool moves_data = !is_view(n) && n.kind != OpKind::input;
    c.output_bytes = is_view(n) ? 0 : out * width * b;
    if (moves_data) {
      c.forward_bytes_read = in * width * b + static_cast<double>(c.params + c.state) * width;
      c.forward_bytes_written = c.output_bytes;
    }
    // The input batch itself is the data loader's, not an activation.
    if (kept.count(n.id) && moves_data) c.saved_activation_bytes += out * width * b;
    c.saved_activation_bytes += keeps_for_backward(n).extra_bytes_per_element * out * b;
  }
  return costs;
}

ModelTotals model_totals(const Graph& graph, int64_t batch, DataType type) {
  const auto costs = layer_costs(graph, batch, type);
  const auto& nodes = graph.nodes();
  ModelTotals t;
  for (const auto& n : nodes) {
    const auto& c = costs[static_cast<size_t>(n.id)];
    t.params += c.params;
    t.param_tensors += c.param_tensors;
    t.largest_param_tensor = std::max(t.largest_param_tensor, c.largest_param_tensor);
    t.state += c.state;
    t.training_flops_per_sample += (c.forward_flops + c.backward_data_flops + c.backward_weights_flops);
    t.saved_activation_bytes += c.saved_activation_bytes;
    if (!n.train_only) {
      t.macs_per_sample += c.macs;
      t.forward_other_flops_per_sample += c.forward_flops - 2.0 * static_cast<double>(c.macs);
    }
  }
  t.macs_per_sample /= batch;
  t.forward_flops_per_sample = 2.0 * static_cast<double>(t.macs_per_sample);
  t.forward_other_flops_per_sample /= static_cast<double>(batch);
  t.training_flops_per_sample /= static_cast<double>(batch);

  // Largest live set of an inference pass: a tensor lives from its producer to its last
  // consumer; views share their source's storage.
  const auto owner = storage_owners(graph);
  std::vector<NodeId> last_use(nodes.size());
  for (const auto& n : nodes) last_use[static_cast<size_t>(n.id)] = n.id;
  for (const auto& n : nodes) {
    if (n.train_only) continue;
    for (auto in : n.inputs) {
      auto& last = last_use[static_cast<size_t>(owner[static_cast<size_t>(in)])];
      last = std::max(last, n.id);
    }
  }
  const double width = bytes_per_element(type);
  double live = 0;
  std::vector<std::vector<NodeId>> frees(nodes.size());
  for (const auto& n : nodes) {
    if (n.train_only) continue;
    if (owner[static_cast<size_t>(n.id)] == n.id) {
      live += static_cast<double>(elements(n.output)) * width * static_cast<double>(batch);
      frees[static_cast<size_t>(last_use[static_cast<size_t>(n.id)])].push_back(n.id);
    }
    t.peak_inference_activation_bytes = std::max(t.peak_inference_activation_bytes, live);
    for (auto id : frees[static_cast<size_t>(n.id)])
      live -= static_cast<double>(elements(graph.node(id).output)) * width * static_cast<double>(batch);
  }
  return t;
}

}  // namespace dlsim::graph
