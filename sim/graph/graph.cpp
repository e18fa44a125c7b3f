#include "graph/graph.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace dlsim::graph {
namespace {

int64_t axis_output(int64_t size, int pad_begin, int pad_end, int kernel, int stride, int dilation, bool ceil_mode) {
  const int64_t span = static_cast<int64_t>(dilation) * (kernel - 1) + 1;
  const int64_t padded = size + pad_begin + pad_end - span;
  if (padded < 0) return 0;
  int64_t out = (ceil_mode ? (padded + stride - 1) / stride : padded / stride) + 1;
  // PyTorch's rule: with ceil_mode, the last window must start inside the input or left padding.
  if (ceil_mode && (out - 1) * stride >= size + pad_begin) --out;
  return out;
}

// Output height and width of a window sliding over a CxHxW input.
std::pair<int64_t, int64_t> window_output(const Dims& x, const Window& w, int dilation_h, int dilation_w,
                                          bool ceil_mode) {
  return {axis_output(x[1], w.pad_top, w.pad_bottom, w.kernel_h, w.stride_h, dilation_h, ceil_mode),
          axis_output(x[2], w.pad_left, w.pad_right, w.kernel_w, w.stride_w, dilation_w, ceil_mode)};
}

void check_window(const std::string& name, const char* what, const Window& w) {
  for (int v : {w.kernel_h, w.kernel_w, w.stride_h, w.stride_w})
    if (v <= 0 || v > kMaxWindow)
      throw GraphError(fmt::format("{} '{}': kernel and stride must be 1 to {}", what, name, kMaxWindow));
  for (int v : {w.pad_top, w.pad_left, w.pad_bottom, w.pad_right})
    if (v < 0 || v > kMaxWindow)
      throw GraphError(fmt::format("{} '{}': padding must be 0 to {}", what, name, kMaxWindow));
}

}  // namespace

int64_t elements(const Dims& dims) {
  int64_t n = 1;
  for (auto d : dims) {
    if (d < 0 || __builtin_mul_overflow(n, d, &n) || n > kMaxElements)
      throw GraphError(fmt::format("a tensor of shape {} is beyond what dlsim models (2^40 elements per sample)",
                                   to_string(dims)));
  }
  return n;
}

std::string to_string(const Dims& dims) { return fmt::format("{}", fmt::join(dims, "x")); }

std::optional<NodeId> Graph::find(const std::string& node_name) const {
  for (const auto& n : nodes_)
    if (n.name == node_name) return n.id;
  return std::nullopt;
}

const Dims& Graph::input_shape() const {
  for (const auto& n : nodes_)
    if (n.kind == OpKind::input) return n.output;
  throw GraphError(fmt::format("model '{}' has no input", name_));
}

const Dims& Graph::shape_of(NodeId id, const std::string& user) const {
  if (id < 0 || id >= static_cast<NodeId>(nodes_.size()))
    throw GraphError(fmt::format("node '{}' takes input #{} which does not exist", user, id));
  return nodes_[static_cast<size_t>(id)].output;
}

NodeId Graph::push(const std::string& name, OpKind kind, OpAttrs attrs, std::vector<NodeId> inputs, Dims out) {
  if (name.empty()) throw GraphError(fmt::format("a {} node has no name", to_string(kind)));
  if (find(name)) throw GraphError(fmt::format("two nodes are named '{}'", name));
  for (auto d : out)
    if (d <= 0)
      throw GraphError(fmt::format("node '{}' would produce an empty output of shape {}", name, to_string(out)));
  (void)elements(out);
  Node node;
  node.id = static_cast<NodeId>(nodes_.size());
  node.name = name;
  node.kind = kind;
  node.attrs = std::move(attrs);
  node.inputs = std::move(inputs);
  node.output = std::move(out);
  node.train_only = train_only_;
  nodes_.push_back(std::move(node));
  return nodes_.back().id;
}

NodeId Graph::input(const std::string& name, Dims shape) {
  if (shape.empty()) throw GraphError(fmt::format("input '{}' has no dimensions", name));
  return push(name, OpKind::input, std::monostate{}, {}, std::move(shape));
}

NodeId Graph::conv(const std::string& name, NodeId in, const ConvAttrs& a) {
  const Dims& x = shape_of(in, name);
  if (x.size() != 3)
    throw GraphError(fmt::format("convolution '{}' needs a CxHxW input, got {}", name, to_string(x)));
  check_window(name, "convolution", a.window);
  if (a.dilation_h <= 0 || a.dilation_w <= 0 || a.dilation_h > kMaxWindow || a.dilation_w > kMaxWindow)
    throw GraphError(fmt::format("convolution '{}': dilation must be 1 to {}", name, kMaxWindow));
  if (a.out_channels <= 0 || a.groups <= 0 || a.out_channels > kMaxDim || a.groups > kMaxDim)
    throw GraphError(fmt::format("convolution '{}': channels and groups must be 1 to {}", name, kMaxDim));
  if (x[0] % a.groups != 0 || a.out_channels % a.groups != 0)
    throw GraphError(fmt::format("convolution '{}': {} input and {} output channels are not divisible by {} groups",
                                 name, x[0], a.out_channels, a.groups));
  const auto [h, w] = window_output(x, a.window, a.dilation_h, a.dilation_w, false);
  if (h <= 0 || w <= 0)
    throw GraphError(fmt::format("convolution '{}': a {}x{} kernel does not fit the {} input", name, a.window.kernel_h,
                                 a.window.kernel_w, to_string(x)));
  const Dims out = {a.out_channels, h, w};
  if (static_cast<double>(elements(out)) * static_cast<double>(x[0] / a.groups) * a.window.kernel_h *
          a.window.kernel_w >
      static_cast<double>(kMaxElements))
    throw GraphError(fmt::format("convolution '{}' needs more than 2^40 multiply-adds per sample", name));
  return push(name, OpKind::conv, a, {in}, out);
}

NodeId Graph::batch_norm(const std::string& name, NodeId in, BatchNormAttrs attrs) {
  const Dims x = shape_of(in, name);
  return push(name, OpKind::batch_norm, attrs, {in}, x);
}

NodeId Graph::layer_norm(const std::string& name, NodeId in) {
  const Dims x = shape_of(in, name);
  return push(name, OpKind::layer_norm, std::monostate{}, {in}, x);
}

NodeId Graph::activation(const std::string& name, NodeId in, ActivationKind kind) {
  const Dims x = shape_of(in, name);
  return push(name, OpKind::activation, ActivationAttrs{kind}, {in}, x);
}

NodeId Graph::pool(const std::string& name, NodeId in, const PoolAttrs& a) {
  const Dims& x = shape_of(in, name);
  if (x.size() != 3) throw GraphError(fmt::format("pooling '{}' needs a CxHxW input, got {}", name, to_string(x)));
  check_window(name, "pooling", a.window);
  const auto [h, w] = window_output(x, a.window, 1, 1, a.ceil_mode);
  if (h <= 0 || w <= 0)
    throw GraphError(fmt::format("pooling '{}': a {}x{} window does not fit the {} input", name, a.window.kernel_h,
                                 a.window.kernel_w, to_string(x)));
  return push(name, OpKind::pool, a, {in}, {x[0], h, w});
}

NodeId Graph::global_pool(const std::string& name, NodeId in, PoolKind kind) {
  const Dims& x = shape_of(in, name);
  if (x.size() != 3) throw GraphError(fmt::format("global pooling '{}' needs a CxHxW input, got {}", name, to_string(x)));
  return push(name, OpKind::global_pool, GlobalPoolAttrs{kind}, {in}, {x[0], 1, 1});
}

NodeId Graph::adaptive_avg_pool(const std::string& name, NodeId in, int out_h, int out_w) {
  const Dims& x = shape_of(in, name);
  if (out_h <= 0 || out_w <= 0 || out_h > kMaxWindow || out_w > kMaxWindow)
    throw GraphError(fmt::format("adaptive pooling '{}' has an output of {}x{}", name, out_h, out_w));
  if (x.size() != 3)
    throw GraphError(fmt::format("adaptive pooling '{}' needs a CxHxW input, got {}", name, to_string(x)));
  return push(name, OpKind::adaptive_avg_pool, AdaptivePoolAttrs{out_h, out_w}, {in}, {x[0], out_h, out_w});
}

NodeId Graph::linear(const std::string& name, NodeId in, int64_t out_features, bool bias) {
  const Dims& x = shape_of(in, name);
  if (x.size() != 1)
    throw GraphError(fmt::format("fully connected '{}' needs a flat input, got {} (add a flatten before it)", name,
                                 to_string(x)));
  if (out_features <= 0 || out_features > kMaxDim)
    throw GraphError(fmt::format("fully connected '{}' has {} outputs; expected 1 to {}", name, out_features, kMaxDim));
  if (static_cast<double>(x[0]) * static_cast<double>(out_features) > static_cast<double>(kMaxElements))
    throw GraphError(fmt::format("fully connected '{}' needs more than 2^40 weights", name));
  return push(name, OpKind::linear, LinearAttrs{out_features, bias}, {in}, {out_features});
}

NodeId Graph::linear_each_position(const std::string& name, NodeId in, int64_t out_features, bool bias) {
  const Dims& x = shape_of(in, name);
  if (x.size() != 3)
    throw GraphError(fmt::format("linear layer '{}' over each position needs a CxHxW input, got {}", name, to_string(x)));
  if (out_features <= 0 || out_features > kMaxDim)
    throw GraphError(fmt::format("linear layer '{}' has {} outputs; expected 1 to {}", name, out_features, kMaxDim));
  if (static_cast<double>(x[0]) * static_cast<double>(out_features) > static_cast<double>(kMaxElements))
    throw GraphError(fmt::format("linear layer '{}' needs more than 2^40 weights", name));
  Dims out = {out_features, x[1], x[2]};
  elements(out);  // throws beyond 2^40
  return push(name, OpKind::linear, LinearAttrs{out_features, bias, true}, {in}, std::move(out));
}

NodeId Graph::add(const std::string& name, const std::vector<NodeId>& in) {
  if (in.size() < 2) throw GraphError(fmt::format("add '{}' needs at least two inputs", name));
  const Dims first = shape_of(in[0], name);
  for (auto id : in)
    if (shape_of(id, name) != first)
      throw GraphError(fmt::format("add '{}': input shapes {} and {} differ", name, to_string(first),
                                   to_string(shape_of(id, name))));
  return push(name, OpKind::add, std::monostate{}, in, first);
}

NodeId Graph::mul(const std::string& name, NodeId x, NodeId y) {
  const Dims a = shape_of(x, name);
  const Dims& b = shape_of(y, name);
  const bool per_channel = a.size() == 3 && (b == Dims{a[0], 1, 1} || b == Dims{a[0]});
  if (b != a && !per_channel)
    throw GraphError(fmt::format("mul '{}': the second operand's shape {} is neither the first's ({}) nor one value "
                                 "per channel",
                                 name, to_string(b), to_string(a)));
  return push(name, OpKind::mul, std::monostate{}, {x, y}, a);
}

NodeId Graph::channel_scale(const std::string& name, NodeId x) {
  const Dims a = shape_of(x, name);
  if (a.size() != 3) throw GraphError(fmt::format("channel scale '{}' needs a CxHxW input, got {}", name, to_string(a)));
  return push(name, OpKind::mul, std::monostate{}, {x}, a);
}

NodeId Graph::concat(const std::string& name, const std::vector<NodeId>& in, int axis) {
  if (in.empty()) throw GraphError(fmt::format("concat '{}' has no inputs", name));
  Dims out = shape_of(in[0], name);
  if (axis < 0 || axis >= static_cast<int>(out.size()))
    throw GraphError(fmt::format("concat '{}': axis {} is outside the {} shape", name, axis, to_string(out)));
  for (size_t i = 1; i < in.size(); ++i) {
    const Dims& x = shape_of(in[i], name);
    bool same = x.size() == out.size();
    for (size_t d = 0; same && d < x.size(); ++d) same = static_cast<int>(d) == axis || x[d] == out[d];
    if (!same)
      throw GraphError(fmt::format("concat '{}': shapes {} and {} differ outside axis {}", name, to_string(out),
                                   to_string(x), axis));
    out[static_cast<size_t>(axis)] += x[static_cast<size_t>(axis)];
  }
  return push(name, OpKind::concat, ConcatAttrs{axis}, in, out);
}

NodeId Graph::flatten(const std::string& name, NodeId in) {
  const Dims& x = shape_of(in, name);
  return push(name, OpKind::flatten, std::monostate{}, {in}, {elements(x)});
}

NodeId Graph::slice(const std::string& name, NodeId in, int64_t begin, int64_t end) {
  Dims x = shape_of(in, name);
  if (x.size() != 3 || begin < 0 || end <= begin || end > x[0])
    throw GraphError(fmt::format("slice '{}': channels [{}, {}) of a {} input; expected 0 <= begin < end <= channels "
                                 "of a CxHxW input",
                                 name, begin, end, to_string(x)));
  x[0] = end - begin;
  return push(name, OpKind::slice, SliceAttrs{begin, end}, {in}, x);
}

NodeId Graph::channel_shuffle(const std::string& name, NodeId in, int64_t groups) {
  const Dims x = shape_of(in, name);
  if (x.size() != 3 || groups < 1 || x[0] % groups != 0)
    throw GraphError(fmt::format("channel_shuffle '{}': {} groups of a {} input; expected a CxHxW input whose "
                                 "channels the groups divide",
                                 name, groups, to_string(x)));
  return push(name, OpKind::channel_shuffle, ShuffleAttrs{groups}, {in}, x);
}

NodeId Graph::dropout(const std::string& name, NodeId in, double probability) {
  if (!(probability >= 0.0 && probability < 1.0))
    throw GraphError(fmt::format("dropout '{}' has probability {}; expected 0 <= p < 1", name, probability));
  const Dims x = shape_of(in, name);
  return push(name, OpKind::dropout, DropoutAttrs{probability}, {in}, x);
}

NodeId Graph::lrn(const std::string& name, NodeId in, int size) {
  const Dims x = shape_of(in, name);
  if (size <= 0 || size > kMaxWindow) throw GraphError(fmt::format("LRN '{}' has size {}", name, size));
  return push(name, OpKind::lrn, LrnAttrs{size}, {in}, x);
}

NodeId Graph::softmax(const std::string& name, NodeId in) {
  const Dims x = shape_of(in, name);
  return push(name, OpKind::softmax, std::monostate{}, {in}, x);
}

NodeId Graph::softmax_cross_entropy(const std::string& name, NodeId in) {
  const Dims x = shape_of(in, name);
  if (x.size() != 1)
    throw GraphError(fmt::format("softmax cross-entropy '{}' needs class scores, got {}", name, to_string(x)));
  return push(name, OpKind::softmax_cross_entropy, std::monostate{}, {in}, {1});
}

}  // namespace dlsim::graph
