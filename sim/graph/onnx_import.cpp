#include "graph/onnx_import.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <onnx/onnx_pb.h>

#include "core/error.hpp"
#include "core/suggest.hpp"
#include "graph/onnx_integers.hpp"
#include "graph/onnx_patterns.hpp"

namespace dlsim::graph {
namespace {

class Importer {
 public:
  Importer(const onnx::ModelProto& model, std::string source) : model_(model), source_(std::move(source)) {}

  Graph run();

 private:
  [[noreturn]] void fail(const onnx::NodeProto& node, const std::string& expected,
                         const std::string& suggestion = "") const;
  const onnx::AttributeProto* attr(const onnx::NodeProto& node, const std::string& name) const;
  std::vector<int64_t> ints(const onnx::NodeProto& node, const std::string& name, std::vector<int64_t> dflt) const;
  // An attribute list whose values must be window sizes (0 to kMaxWindow), as ints.
  std::vector<int> window(const onnx::NodeProto& node, const std::string& name, std::vector<int64_t> dflt,
                          size_t count) const;
  // kernel_shape, strides and pads of a convolution or pooling node, with the padding of
  // a Pad node before it.
  Window sliding_window(const onnx::NodeProto& node, std::vector<int64_t> default_kernel) const;
  // Fails unless no input of `node` is a Pad's output (which only a window may consume).
  void check_no_pending_pad(const onnx::NodeProto& node) const;
  int64_t int_attr(const onnx::NodeProto& node, const std::string& name, int64_t dflt) const;
  float float_attr(const onnx::NodeProto& node, const std::string& name, float dflt) const;
  NodeId tensor(const onnx::NodeProto& node, int index) const;
  const std::vector<int64_t>* weight(const onnx::NodeProto& node, int index) const;
  std::optional<float> constant_scalar(const onnx::NodeProto& node, int index) const;
  std::string node_name(const onnx::NodeProto& node);

  void conv(const onnx::NodeProto& n);
  void pool(const onnx::NodeProto& n, PoolKind kind);
  void gemm(const onnx::NodeProto& n);
  // A product by a 2-D weight: a linear layer over each position of a channels-last tensor,
  // or over a vector; an Add of a bias that is its only consumer is the layer's bias.
  void matmul(const onnx::NodeProto& n);
  void batch_norm(const onnx::NodeProto& n);
  void clip(const onnx::NodeProto& n);
  void mul(const onnx::NodeProto& n);
  void reduce_mean(const onnx::NodeProto& n);
  void pad(const onnx::NodeProto& n);
  void constant(const onnx::NodeProto& n);
  // Shape arithmetic (onnx_integers.hpp): a tensor's Shape, or an integer operator whose
  // inputs are all known integer lists.  False when `n` is neither.
  bool integers(const onnx::NodeProto& n);
  const Integers& int_input(const onnx::NodeProto& n, int index) const;
  Integers full_shape(NodeId x) const;  // with the file's batch
  void slice(const onnx::NodeProto& n);
  // Reshape and Transpose: a flatten, or ShuffleNet's channel shuffle (Reshape to
  // [N, g, C/g, H, W], Transpose [0, 2, 1, 3, 4], Reshape back), which PyTorch runs as one copy.
  void reshape(const onnx::NodeProto& n);
  void transpose(const onnx::NodeProto& n);
  // A channels-last block's values (Transpose perm [0, 2, 3, 1]) may meet only its layer
  // norms, linear layers and element-wise operators until transposed back.
  void check_layout(const onnx::NodeProto& n) const;
  // A layer norm or GELU chain (onnx_patterns.hpp) ending at `n`: imported as the one
  // kernel.  False if `n` ends none.
  bool fused(const onnx::NodeProto& n);
  // The nodes the first graph output (the prediction) depends on.  A training export of a
  // network with an auxiliary classifier (Inception-v3's) has it as a further output, and
  // the nodes only it needs run in training alone.
  std::set<const onnx::NodeProto*> prediction_path() const;
  void dispatch(const onnx::NodeProto& n);

  const onnx::ModelProto& model_;
  std::string source_;
  Graph graph_{""};
  std::map<std::string, std::vector<int64_t>> initializers_;  // name -> dims
  std::map<std::string, float> scalars_;                      // Constant nodes holding one number
  std::map<std::string, std::vector<int64_t>> int_lists_;     // Constant nodes holding int64s
  std::map<std::string, Window> pads_;                         // Pad output -> its zeros (pads only)
  struct Shuffle {  // a channel shuffle under way: its input, groups, 5-D shape, transposed yet
    NodeId x;
    int64_t groups;
    Integers shape;
    bool transposed;
  };
  std::map<std::string, Shuffle> shuffles_;
  int64_t batch_ = 1;  // the input's first dimension in the file
  std::map<std::string, ActivationKind> gates_;               // gate output -> the fused activation
  Consumers consumers_;
  std::map<std::string, FusedChain> layer_norms_, gelus_;     // by the chain's last output
  std::set<std::string> absorbed_;                            // outputs of nodes a chain or layer takes in
  std::set<std::string> channels_last_;                       // values laid out NxHxWxC
  std::map<std::string, NodeId> tensors_;                     // value name -> producing node
  int64_t bn_state_elements_ = 0;
  bool training_graph_ = false;
  bool saw_dropout_ = false;
  int unnamed_ = 0;
};

[[noreturn]] void Importer::fail(const onnx::NodeProto& node, const std::string& expected,
                                 const std::string& suggestion) const {
  Problem p;
  p.where = {source_, 0, 0};
  p.key = node.name().empty() ? node.op_type() : node.name();
  p.value = node.op_type();
  p.expected = expected;
  p.suggestion = suggestion;
  throw InputError(p);
}

const onnx::AttributeProto* Importer::attr(const onnx::NodeProto& node, const std::string& name) const {
  for (const auto& a : node.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

std::vector<int64_t> Importer::ints(const onnx::NodeProto& node, const std::string& name,
                                    std::vector<int64_t> dflt) const {
  const auto* a = attr(node, name);
  if (!a) return dflt;
  return {a->ints().begin(), a->ints().end()};
}

std::vector<int> Importer::window(const onnx::NodeProto& node, const std::string& name, std::vector<int64_t> dflt,
                                  size_t count) const {
  const auto values = ints(node, name, std::move(dflt));
  if (values.size() != count) fail(node, fmt::format("{} with {} values", name, count));
  std::vector<int> out;
  for (auto v : values) {
    if (v < 0 || v > kMaxWindow) fail(node, fmt::format("{} values from 0 to {}", name, kMaxWindow));
    out.push_back(static_cast<int>(v));
  }
  return out;
}

Window Importer::sliding_window(const onnx::NodeProto& n, std::vector<int64_t> default_kernel) const {
  if (const auto* pad = attr(n, "auto_pad"); pad && pad->s() != "NOTSET")
    fail(n, "explicit pads (auto_pad is not supported)");
  const auto kernel = window(n, "kernel_shape", std::move(default_kernel), 2);
  const auto strides = window(n, "strides", {1, 1}, 2);
  const auto pads = window(n, "pads", {0, 0, 0, 0}, 4);
  Window w{kernel[0], kernel[1], strides[0], strides[1], pads[0], pads[1], pads[2], pads[3]};
  if (const auto it = pads_.find(n.input(0)); it != pads_.end()) {
    w.pad_top += it->second.pad_top;
    w.pad_left += it->second.pad_left;
    w.pad_bottom += it->second.pad_bottom;
    w.pad_right += it->second.pad_right;
  }
  return w;
}

void Importer::check_no_pending_pad(const onnx::NodeProto& n) const {
  for (const auto& in : n.input())
    if (pads_.count(in))
      fail(n, fmt::format("input '{}', a Pad's output, to feed a Conv, MaxPool or AveragePool", in),
           "padding is modelled as part of a convolution's or pooling's window");
}

int64_t Importer::int_attr(const onnx::NodeProto& node, const std::string& name, int64_t dflt) const {
  const auto* a = attr(node, name);
  return a ? a->i() : dflt;
}

float Importer::float_attr(const onnx::NodeProto& node, const std::string& name, float dflt) const {
  const auto* a = attr(node, name);
  return a ? a->f() : dflt;
}

NodeId Importer::tensor(const onnx::NodeProto& node, int index) const {
  if (index >= node.input_size()) fail(node, fmt::format("at least {} inputs", index + 1));
  auto it = tensors_.find(node.input(index));
  if (shuffles_.count(node.input(index)))
    fail(node, fmt::format("input '{}', part of a channel shuffle, to reach the shuffle's closing Reshape",
                           node.input(index)));
  if (it == tensors_.end())
    fail(node, fmt::format("input '{}' to be produced by an earlier node or be the graph input", node.input(index)));
  return it->second;
}

const std::vector<int64_t>* Importer::weight(const onnx::NodeProto& node, int index) const {
  if (index >= node.input_size() || node.input(index).empty()) return nullptr;
  auto it = initializers_.find(node.input(index));
  if (it == initializers_.end())
    fail(node, fmt::format("input '{}' to be an initializer (a weight with a fixed shape)", node.input(index)));
  return &it->second;
}

std::optional<float> Importer::constant_scalar(const onnx::NodeProto& node, int index) const {
  if (index >= node.input_size() || node.input(index).empty()) return std::nullopt;
  auto it = scalars_.find(node.input(index));
  if (it == scalars_.end()) fail(node, fmt::format("input '{}' to be a constant", node.input(index)));
  return it->second;
}

std::string Importer::node_name(const onnx::NodeProto& node) {
  std::string name = node.name().empty() ? fmt::format("{}_{}", node.op_type(), unnamed_++) : node.name();
  while (graph_.find(name)) name += "'";
  return name;
}

void Importer::conv(const onnx::NodeProto& n) {
  const NodeId x = tensor(n, 0);
  const auto* w = weight(n, 1);
  if (!w || w->size() != 4) fail(n, "a 4-D weight [out, in/groups, kh, kw] (only 2-D convolutions are supported)");
  ConvAttrs a;
  a.out_channels = (*w)[0];
  a.window = sliding_window(n, {(*w)[2], (*w)[3]});
  const auto dil = window(n, "dilations", {1, 1}, 2);
  a.dilation_h = dil[0];
  a.dilation_w = dil[1];
  a.groups = int_attr(n, "group", 1);
  a.bias = weight(n, 2) != nullptr;
  const auto& in = graph_.node(x).output;
  if (a.groups <= 0 || a.groups > kMaxDim) fail(n, fmt::format("group from 1 to {}", kMaxDim));
  if (in.size() == 3 && (static_cast<double>((*w)[1]) * static_cast<double>(a.groups) != static_cast<double>(in[0])))
    fail(n, fmt::format("weight input channels {} x {} groups to equal the input's {} channels", (*w)[1], a.groups,
                        in[0]));
  tensors_[n.output(0)] = graph_.conv(node_name(n), x, a);
}

void Importer::pool(const onnx::NodeProto& n, PoolKind kind) {
  const NodeId x = tensor(n, 0);
  PoolAttrs a;
  a.kind = kind;
  a.window = sliding_window(n, {});
  a.ceil_mode = int_attr(n, "ceil_mode", 0) != 0;
  a.count_include_pad = int_attr(n, "count_include_pad", 0) != 0;
  if (pads_.count(n.input(0))) {
    // A Pad's zeros are values an average counts (torch.onnx writes avg_pool2d's padding so
    // when count_include_pad holds, its default).
    const auto own = ints(n, "pads", {0, 0, 0, 0});
    const bool own_pads = std::any_of(own.begin(), own.end(), [](int64_t p) { return p != 0; });
    if (kind == PoolKind::avg && own_pads && !a.count_include_pad)
      fail(n, "count_include_pad = 1 where a Pad's zeros are added to the window's own padding");
    a.count_include_pad = true;
  }
  tensors_[n.output(0)] = graph_.pool(node_name(n), x, a);
}

void Importer::gemm(const onnx::NodeProto& n) {
  NodeId x = tensor(n, 0);
  const auto* w = weight(n, 1);
  if (!w || w->size() != 2) fail(n, "a 2-D weight as input B");
  if (int_attr(n, "transA", 0) != 0) fail(n, "transA = 0 (activations as rows)");
  const bool trans_b = int_attr(n, "transB", 0) != 0;
  const int64_t in_features = trans_b ? (*w)[1] : (*w)[0];
  const int64_t out_features = trans_b ? (*w)[0] : (*w)[1];
  const auto& in = graph_.node(x).output;
  if (in.size() != 1 || in[0] != in_features)
    fail(n, fmt::format("a flat input of {} features, got {}", in_features, to_string(in)));
  tensors_[n.output(0)] = graph_.linear(node_name(n), x, out_features, weight(n, 2) != nullptr);
}

void Importer::batch_norm(const onnx::NodeProto& n) {
  const NodeId x = tensor(n, 0);
  for (int i = 1; i <= 4; ++i) {
    const auto* w = weight(n, i);
    if (!w || w->size() != 1 || (*w)[0] != graph_.node(x).output[0])
      fail(n, fmt::format("input {} to be a per-channel vector of {} elements", i, graph_.node(x).output[0]));
  }
  // Opset 14+ says so in an attribute; older opsets by also returning the running statistics.
  if (int_attr(n, "training_mode", 0) != 0 || n.output_size() > 1) training_graph_ = true;
  tensors_[n.output(0)] = graph_.batch_norm(node_name(n), x);
}

void Importer::clip(const onnx::NodeProto& n) {
  const NodeId x = tensor(n, 0);
  const float lo = constant_scalar(n, 1).value_or(float_attr(n, "min", -3.4e38f));
  const float hi = constant_scalar(n, 2).value_or(float_attr(n, "max", 3.4e38f));
  if (lo != 0.0f || (hi != 6.0f && hi < 3.0e38f)) fail(n, "Clip(0, 6) (ReLU6) or Clip(0, inf) (ReLU)");
  tensors_[n.output(0)] = graph_.activation(node_name(n), x, hi == 6.0f ? ActivationKind::relu6 : ActivationKind::relu);
}

void Importer::mul(const onnx::NodeProto& n) {
  if (n.input_size() != 2) fail(n, "two inputs");
  for (int i = 0; i < 2; ++i) {
    const auto gate = gates_.find(n.input(i));
    if (gate != gates_.end()) {
      tensors_[n.output(0)] = graph_.activation(node_name(n), tensor(n, 1 - i), gate->second);
      return;
    }
  }
  for (int i = 0; i < 2; ++i) {  // a weight of one factor per channel: ConvNeXt's layer scale
    const auto w = initializers_.find(n.input(i));
    if (w == initializers_.end() || !tensors_.count(n.input(1 - i))) continue;
    const NodeId x = tensor(n, 1 - i);
    const Dims& shape = graph_.node(x).output;
    if (shape.size() != 3 || (w->second != std::vector<int64_t>{shape[0], 1, 1} && w->second != std::vector<int64_t>{shape[0]}))
      fail(n, fmt::format("a weight factor of one value per channel ({}x1x1) for a {} input", shape.empty() ? 0 : shape[0],
                          to_string(shape)));
    tensors_[n.output(0)] = graph_.channel_scale(node_name(n), x);
    return;
  }
  if (initializers_.count(n.input(0)) || initializers_.count(n.input(1)) || scalars_.count(n.input(0)) ||
      scalars_.count(n.input(1)))
    fail(n, "a product of two computed tensors, or by a weight of one value per channel (a constant factor is not supported)");
  NodeId x = tensor(n, 0), y = tensor(n, 1);
  if (elements(graph_.node(x).output) < elements(graph_.node(y).output)) std::swap(x, y);
  tensors_[n.output(0)] = graph_.mul(node_name(n), x, y);
}

void Importer::reduce_mean(const onnx::NodeProto& n) {
  const NodeId x = tensor(n, 0);
  const auto axes = ints(n, "axes", {});
  if (graph_.node(x).output.size() != 3 || (axes != std::vector<int64_t>{2, 3} && axes != std::vector<int64_t>{-2, -1}))
    fail(n, "a mean over the height and width of an NxCxHxW tensor (axes [2, 3])",
         "a mean over other axes is not modelled");
  const NodeId pooled = graph_.global_pool(node_name(n), x, PoolKind::avg);
  tensors_[n.output(0)] = int_attr(n, "keepdims", 1) ? pooled : graph_.flatten(node_name(n), pooled);
}

void Importer::pad(const onnx::NodeProto& n) {
  if (const auto* mode = attr(n, "mode"); mode && mode->s() != "constant") fail(n, "constant padding");
  std::vector<int64_t> pads = ints(n, "pads", {});  // before opset 11 an attribute, since then input 1
  if (n.input_size() > 1 && !n.input(1).empty()) {
    const auto it = int_lists_.find(n.input(1));
    if (it == int_lists_.end()) fail(n, fmt::format("input '{}' (the pads) to be a constant", n.input(1)));
    pads = it->second;
  }
  if (const auto value = constant_scalar(n, 2); value && *value != 0.0f)
    fail(n, fmt::format("zero padding, not {}", *value));
  const NodeId x = tensor(n, 0);
  if (std::all_of(pads.begin(), pads.end(), [](int64_t p) { return p == 0; })) {
    tensors_[n.output(0)] = x;
    return;
  }
  // [N, C, H, W] begins then ends: only H and W may be padded, by window-sized amounts.
  const bool spatial = pads.size() == 8 && graph_.node(x).output.size() == 3 && pads[0] == 0 && pads[1] == 0 &&
                       pads[4] == 0 && pads[5] == 0 &&
                       std::all_of(pads.begin(), pads.end(), [](int64_t p) { return p >= 0 && p <= kMaxWindow; });
  if (!spatial)
    fail(n, "zero padding of an NxCxHxW tensor's height and width only (pads [0, 0, t, l, 0, 0, b, r])",
         "padding is modelled as part of a convolution's or pooling's window");
  pads_[n.output(0)] = Window{1, 1, 1, 1, static_cast<int>(pads[2]), static_cast<int>(pads[3]),
                              static_cast<int>(pads[6]), static_cast<int>(pads[7])};
  tensors_[n.output(0)] = x;
}

void Importer::constant(const onnx::NodeProto& n) {
  const auto* v = attr(n, "value");
  if (!v || !v->has_t()) return;
  const auto& t = v->t();
  const std::string& raw = t.raw_data();
  if (t.data_type() == onnx::TensorProto::FLOAT) {
    if (t.float_data_size() == 1) scalars_[n.output(0)] = t.float_data(0);
    else if (raw.size() == sizeof(float)) {
      float f;
      std::copy_n(raw.data(), sizeof(float), reinterpret_cast<char*>(&f));
      scalars_[n.output(0)] = f;
    }
  } else if (t.data_type() == onnx::TensorProto::INT64) {
    std::vector<int64_t> values(t.int64_data().begin(), t.int64_data().end());
    for (size_t at = 0; t.int64_data_size() == 0 && at + sizeof(int64_t) <= raw.size(); at += sizeof(int64_t)) {
      int64_t value;
      std::copy_n(raw.data() + at, sizeof(int64_t), reinterpret_cast<char*>(&value));
      values.push_back(value);
    }
    int_lists_[n.output(0)] = std::move(values);
  }
}

bool Importer::integers(const onnx::NodeProto& n) {
  if (n.op_type() == "Shape") {
    int_lists_[n.output(0)] = full_shape(tensor(n, 0));
    return true;
  }
  std::vector<Integers> in;
  for (const auto& name : n.input()) {
    const auto it = int_lists_.find(name);
    if (it == int_lists_.end()) return false;
    in.push_back(it->second);
  }
  try {
    auto value = integer_op(n.op_type(), in, int_attr(n, "axis", 0));
    if (!value) return false;
    int_lists_[n.output(0)] = std::move(*value);
  } catch (const std::invalid_argument& e) {
    fail(n, e.what());
  }
  return true;
}

const Integers& Importer::int_input(const onnx::NodeProto& n, int index) const {
  const auto it = index < n.input_size() ? int_lists_.find(n.input(index)) : int_lists_.end();
  if (it == int_lists_.end())
    fail(n, fmt::format("input {} to be integers from a Constant or from shape arithmetic", index + 1));
  return it->second;
}

Integers Importer::full_shape(NodeId x) const {
  Integers shape{batch_};
  const auto& dims = graph_.node(x).output;
  shape.insert(shape.end(), dims.begin(), dims.end());
  return shape;
}

void Importer::slice(const onnx::NodeProto& n) {
  const NodeId x = tensor(n, 0);
  const Integers& starts = int_input(n, 1);
  const Integers& ends = int_input(n, 2);
  const bool has_axes = n.input_size() > 3 && !n.input(3).empty();
  const bool has_steps = n.input_size() > 4 && !n.input(4).empty();
  const Integers axes = has_axes ? int_input(n, 3) : Integers{0};
  const Integers steps = has_steps ? int_input(n, 4) : Integers{1};
  const auto& dims = graph_.node(x).output;
  if (dims.size() != 3 || starts.size() != 1 || ends.size() != 1 || (axes != Integers{1} && axes != Integers{-3}) ||
      steps != Integers{1})
    fail(n, "a slice of an NxCxHxW tensor's channels (axes [1], steps [1])", "torch.chunk and narrow along dim 1");
  const int64_t c = dims[0];
  const auto clamp = [c](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + c : v, 0, c); };
  const int64_t begin = clamp(starts[0]), end = clamp(ends[0]);
  tensors_[n.output(0)] = begin == 0 && end == c ? x : graph_.slice(node_name(n), x, begin, end);
}

void Importer::reshape(const onnx::NodeProto& n) {
  const Integers& spec = int_input(n, 1);
  const auto target = [&](const Integers& from) {
    try {
      return reshape_target(from, spec);
    } catch (const std::invalid_argument& e) {
      fail(n, e.what());
    }
  };
  if (const auto it = shuffles_.find(n.input(0)); it != shuffles_.end()) {
    const Shuffle s = it->second;
    if (!s.transposed || target(s.shape) != full_shape(s.x))
      fail(n, "a channel shuffle's closing Reshape, back to its input's [N, C, H, W] after the Transpose");
    tensors_[n.output(0)] = graph_.channel_shuffle(node_name(n), s.x, s.groups);
    return;
  }
  const NodeId x = tensor(n, 0);
  const Integers shape = target(full_shape(x));
  if (shape.empty() || shape[0] != batch_)
    fail(n, fmt::format("a reshape that keeps the batch of {} on axis 0", batch_));
  const Dims& dims = graph_.node(x).output;
  const Dims sample(shape.begin() + 1, shape.end());
  if (sample == dims) {
    tensors_[n.output(0)] = x;
  } else if (sample.size() == 1) {
    tensors_[n.output(0)] = graph_.flatten(node_name(n), x);
  } else if (dims.size() == 3 && sample.size() == 4 && sample[0] * sample[1] == dims[0] && sample[2] == dims[1] &&
             sample[3] == dims[2]) {
    shuffles_[n.output(0)] = Shuffle{x, sample[0], shape, false};
  } else {
    fail(n, "a reshape to [N, features] or a channel shuffle's to [N, groups, C/groups, H, W]",
         "other reshapes (attention heads, channels-last blocks) are not modelled yet");
  }
}

void Importer::transpose(const onnx::NodeProto& n) {
  const auto perm = ints(n, "perm", {});
  if (const auto w = initializers_.find(n.input(0)); w != initializers_.end()) {  // a weight read transposed
    if (w->second.size() != 2 || perm != Integers{1, 0}) fail(n, "a 2-D weight transposed (perm [1, 0])");
    initializers_[n.output(0)] = {w->second[1], w->second[0]};
    return;
  }
  // Channels last and back: views, as PyTorch's permute is.  Once a channels-last block has
  // run, its tensors stay laid out so, and the kernels after it read them as they lie.
  if (tensors_.count(n.input(0)) && graph_.node(tensor(n, 0)).output.size() == 3) {
    const bool last = channels_last_.count(n.input(0)) > 0;
    if (perm == Integers{0, 2, 3, 1} && !last) {
      tensors_[n.output(0)] = tensor(n, 0);
      channels_last_.insert(n.output(0));
      return;
    }
    if (perm == Integers{0, 3, 1, 2} && last) {
      tensors_[n.output(0)] = tensor(n, 0);
      return;
    }
  }
  const auto it = shuffles_.find(n.input(0));
  if (it == shuffles_.end() || it->second.transposed || ints(n, "perm", {}) != Integers{0, 2, 1, 3, 4})
    fail(n, "a channel shuffle's Transpose (perm [0, 2, 1, 3, 4] after a Reshape to [N, g, C/g, H, W]), a channels-last "
            "block's (perm [0, 2, 3, 1] and back [0, 3, 1, 2]) or a 2-D weight's",
         "other transposes (attention heads) are not modelled yet");
  Shuffle s = it->second;
  std::swap(s.shape[1], s.shape[2]);
  s.transposed = true;
  shuffles_[n.output(0)] = s;
}

std::set<const onnx::NodeProto*> Importer::prediction_path() const {
  std::map<std::string, const onnx::NodeProto*> producer;
  for (const auto& n : model_.graph().node())
    for (const auto& out : n.output()) producer[out] = &n;
  std::set<const onnx::NodeProto*> path;
  std::vector<std::string> wanted;
  if (model_.graph().output_size() > 0) wanted.push_back(model_.graph().output(0).name());
  while (!wanted.empty()) {
    const auto it = producer.find(wanted.back());
    wanted.pop_back();
    if (it == producer.end() || !path.insert(it->second).second) continue;
    wanted.insert(wanted.end(), it->second->input().begin(), it->second->input().end());
  }
  return path;
}

void Importer::matmul(const onnx::NodeProto& n) {
  if (n.input_size() != 2) fail(n, "two inputs");
  const NodeId x = tensor(n, 0);
  const auto* w = weight(n, 1);
  if (w->size() != 2) fail(n, fmt::format("a 2-D weight as input B, got {} dimensions", w->size()));
  const Dims& in = graph_.node(x).output;
  const bool each_position = channels_last_.count(n.input(0)) > 0;
  if ((!each_position && in.size() != 1) || in[0] != (*w)[0])
    fail(n, fmt::format("an input of {} features: a vector, or a channels-last tensor's channels; got {}{}", (*w)[0],
                        to_string(in), each_position ? " channels last" : ""),
         "a product of two computed tensors (attention) is not modelled yet");
  // The bias: an Add of a vector of the outputs' size, the product's only reader.
  std::string out = n.output(0);
  const auto users = consumers_.find(out);
  if (users != consumers_.end() && users->second.size() == 1 && users->second[0] && users->second[0]->op_type() == "Add") {
    const auto& add = *users->second[0];
    const std::string& other = add.input(add.input(0) == out ? 1 : 0);
    if (const auto b = initializers_.find(other); b != initializers_.end() && b->second == std::vector<int64_t>{(*w)[1]}) {
      absorbed_.insert(add.output(0));
      out = add.output(0);
    }
  }
  const bool bias = out != n.output(0);
  tensors_[out] = each_position ? graph_.linear_each_position(node_name(n), x, (*w)[1], bias)
                                : graph_.linear(node_name(n), x, (*w)[1], bias);
}

void Importer::check_layout(const onnx::NodeProto& n) const {
  static const std::set<std::string> element_wise = {"Add", "Mul", "Relu", "Sigmoid", "Tanh", "Identity"};
  int last = 0, first = 0;
  for (const auto& in : n.input()) {
    if (!tensors_.count(in)) continue;
    (channels_last_.count(in) ? last : first) += 1;
  }
  if (last == 0) return;
  if (n.op_type() == "Transpose" || n.op_type() == "MatMul") return;
  if (!element_wise.count(n.op_type()))
    fail(n, "a channels-first (NxCxHxW) input", "it was transposed to channels last (perm [0, 2, 3, 1]); there only "
                                                "layer norms, linear layers and element-wise operators are modelled");
  if (first > 0) fail(n, "inputs laid out alike: one is channels last, another channels first");
}

bool Importer::fused(const onnx::NodeProto& n) {
  const std::string& out = n.output(0);
  if (const auto it = gelus_.find(out); it != gelus_.end()) {
    const auto x = tensors_.find(it->second.input);
    if (x == tensors_.end()) fail(n, fmt::format("the GELU's input '{}' to be a computed tensor", it->second.input));
    tensors_[out] = graph_.activation(node_name(n), x->second, ActivationKind::gelu);
    return true;
  }
  const auto it = layer_norms_.find(out);
  if (it == layer_norms_.end()) return false;
  const auto x = tensors_.find(it->second.input);
  if (x == tensors_.end()) fail(n, fmt::format("the layer norm's input '{}' to be a computed tensor", it->second.input));
  const Dims& shape = graph_.node(x->second).output;
  if (shape.size() != 1 && !channels_last_.count(it->second.input))
    fail(n, fmt::format("a layer norm over a vector's features or a channels-last tensor's channels; its input is {}",
                        to_string(shape)),
         "transpose a feature map to channels last (perm [0, 2, 3, 1]) before normalising it");
  tensors_[out] = graph_.layer_norm(node_name(n), x->second);
  return true;
}

void Importer::dispatch(const onnx::NodeProto& n) {
  const std::string& op = n.op_type();
  if (op == "Constant") return constant(n);
  if (integers(n)) return;
  if (gates_.count(n.output(0))) return;  // priced with its Mul, as the activation they make
  if (absorbed_.count(n.output(0)) || fused(n)) return;
  check_layout(n);
  if (op != "Conv" && op != "MaxPool" && op != "AveragePool") check_no_pending_pad(n);
  if (op == "Identity") {
    if (auto it = initializers_.find(n.input(0)); it != initializers_.end()) {
      initializers_[n.output(0)] = it->second;  // an alias of a shared weight, counted per use
      return;
    }
    tensors_[n.output(0)] = tensor(n, 0);
    return;
  }
  if (op == "Conv") conv(n);
  else if (op == "BatchNormalization") batch_norm(n);
  else if (op == "Relu") tensors_[n.output(0)] = graph_.relu(node_name(n), tensor(n, 0));
  else if (op == "Clip") clip(n);
  else if (op == "Sigmoid") tensors_[n.output(0)] = graph_.activation(node_name(n), tensor(n, 0), ActivationKind::sigmoid);
  else if (op == "HardSigmoid")
    tensors_[n.output(0)] = graph_.activation(node_name(n), tensor(n, 0), ActivationKind::hardsigmoid);
  else if (op == "HardSwish")
    tensors_[n.output(0)] = graph_.activation(node_name(n), tensor(n, 0), ActivationKind::hardswish);
  else if (op == "Mul") mul(n);
  else if (op == "ReduceMean") reduce_mean(n);
  else if (op == "Pad") pad(n);
  else if (op == "Slice") slice(n);
  else if (op == "Reshape") reshape(n);
  else if (op == "Transpose") transpose(n);
  else if (op == "Tanh") tensors_[n.output(0)] = graph_.activation(node_name(n), tensor(n, 0), ActivationKind::tanh);
  else if (op == "LeakyRelu")
    tensors_[n.output(0)] = graph_.activation(node_name(n), tensor(n, 0), ActivationKind::leaky_relu);
  else if (op == "MaxPool") pool(n, PoolKind::max);
  else if (op == "AveragePool") pool(n, PoolKind::avg);
  else if (op == "GlobalAveragePool") tensors_[n.output(0)] = graph_.global_pool(node_name(n), tensor(n, 0), PoolKind::avg);
  else if (op == "GlobalMaxPool") tensors_[n.output(0)] = graph_.global_pool(node_name(n), tensor(n, 0), PoolKind::max);
  else if (op == "Gemm") gemm(n);
  else if (op == "MatMul") matmul(n);
  else if (op == "Add") {
    if (n.input_size() != 2) fail(n, "two inputs");
    tensors_[n.output(0)] = graph_.add(node_name(n), {tensor(n, 0), tensor(n, 1)});
  } else if (op == "Concat") {
    const int64_t axis = int_attr(n, "axis", 1);
    if (axis < 1 || axis > 3) fail(n, "concatenation along a sample axis (1 to 3)");
    std::vector<NodeId> in;
    for (int i = 0; i < n.input_size(); ++i) in.push_back(tensor(n, i));
    tensors_[n.output(0)] = graph_.concat(node_name(n), in, static_cast<int>(axis - 1));
  } else if (op == "Flatten") {
    if (int_attr(n, "axis", 1) != 1) fail(n, "Flatten with axis = 1");
    tensors_[n.output(0)] = graph_.flatten(node_name(n), tensor(n, 0));
  } else if (op == "Dropout") {
    saw_dropout_ = true;
    const float ratio = constant_scalar(n, 1).value_or(float_attr(n, "ratio", 0.5f));
    tensors_[n.output(0)] = graph_.dropout(node_name(n), tensor(n, 0), ratio);
  } else if (op == "LRN") {
    const int64_t size = int_attr(n, "size", 5);
    if (size <= 0 || size > kMaxWindow) fail(n, fmt::format("size from 1 to {}", kMaxWindow));
    tensors_[n.output(0)] = graph_.lrn(node_name(n), tensor(n, 0), static_cast<int>(size));
  } else if (op == "Softmax") {
    tensors_[n.output(0)] = graph_.softmax(node_name(n), tensor(n, 0));
  } else if (op == "Cast" || op == "Div" || op == "Gather" || op == "Squeeze" || op == "Sub" || op == "Unsqueeze") {
    fail(n, fmt::format("integer inputs: {} is imported as shape arithmetic only", op),
         "on tensors it is not modelled, but as part of a layer norm or an exact GELU");
  } else if (op == "Erf" || op == "Pow" || op == "Sqrt") {
    fail(n, fmt::format("{} as part of a layer norm or an exact GELU", op), "alone it is not modelled");
  } else {
    const auto close = closest_name(op, onnx_supported_ops());
    fail(n, fmt::format("a supported operator ({})", fmt::join(onnx_supported_ops(), ", ")),
         close ? fmt::format("did you mean '{}'?", *close) : "");
  }
}

Graph Importer::run() {
  const auto& g = model_.graph();
  // torch.onnx names every graph "torch_jit" (or "torch-jit-export"): the file says more.
  const bool generic = g.name().empty() || g.name().rfind("torch_jit", 0) == 0 || g.name().rfind("torch-jit", 0) == 0;
  const std::string stem = std::filesystem::path(source_).stem().string();
  graph_ = Graph(!generic ? g.name() : stem.empty() ? "onnx" : stem);
  for (const auto& init : g.initializer()) initializers_[init.name()] = {init.dims().begin(), init.dims().end()};

  for (const auto& input : g.input()) {
    if (initializers_.count(input.name())) continue;
    const auto& shape = input.type().tensor_type().shape();
    if (shape.dim_size() < 2) {
      Problem p{{source_, 0, 0}, "graph.input", input.name(), "a data input of shape [batch, C, H, W] or [batch, F]", ""};
      throw InputError(p);
    }
    if (shape.dim(0).has_dim_value() && shape.dim(0).dim_value() > 0 && shape.dim(0).dim_value() <= kMaxDim)
      batch_ = shape.dim(0).dim_value();
    Dims dims;
    for (int i = 1; i < shape.dim_size(); ++i) {
      if (!shape.dim(i).has_dim_value() || shape.dim(i).dim_value() <= 0) {
        Problem p{{source_, 0, 0}, "graph.input", input.name(),
                  fmt::format("fixed sample dimensions; dimension {} is symbolic or not positive", i), ""};
        throw InputError(p);
      }
      dims.push_back(shape.dim(i).dim_value());
    }
    try {
      tensors_[input.name()] = graph_.input(input.name(), dims);
    } catch (const GraphError& e) {
      throw InputError(Problem{{source_, 0, 0}, "graph.input", input.name(), e.what(), ""});
    }
  }
  if (tensors_.empty())
    throw InputError(Problem{{source_, 0, 0}, "graph.input", "", "one data input that is not an initializer", ""});

  consumers_ = consumers_of(g);
  gates_ = find_gates(g, consumers_);
  std::set<std::string> weights;
  for (const auto& [name, dims] : initializers_) weights.insert(name);
  for (const auto& n : g.node())  // a folded export shares equal weights through Identity nodes
    if (n.op_type() == "Identity" && n.input_size() == 1 && weights.count(n.input(0))) weights.insert(n.output(0));
  layer_norms_ = find_layer_norms(g, consumers_, weights);
  gelus_ = find_erf_gelus(g, consumers_);
  for (const auto* chains : {&layer_norms_, &gelus_})
    for (const auto& [last, chain] : *chains) absorbed_.insert(chain.inner.begin(), chain.inner.end());
  const auto prediction = prediction_path();
  for (const auto& n : g.node()) {
    if (n.output_size() < 1) fail(n, "at least one output");
    if (n.input_size() < 1 && n.op_type() != "Constant") fail(n, "at least one input");
    graph_.set_train_only(g.output_size() > 1 && !prediction.count(&n));
    try {
      dispatch(n);
    } catch (const GraphError& e) {
      fail(n, e.what());
    }
    const bool reads_channels_last =
        std::any_of(n.input().begin(), n.input().end(), [&](const std::string& in) { return channels_last_.count(in) > 0; });
    if (reads_channels_last && n.op_type() != "Transpose") channels_last_.insert(n.output(0));
  }

  // Training computes a loss on each vector the network outputs (its logits), which the
  // export leaves out: "loss" on the first, "<layer>.loss" on the others, as in the zoo.
  graph_.set_train_only(true);
  for (int i = 0; i < g.output_size(); ++i) {
    const auto it = tensors_.find(g.output(i).name());
    if (it == tensors_.end() || graph_.node(it->second).output.size() != 1) continue;
    graph_.softmax_cross_entropy(i == 0 ? "loss" : graph_.node(it->second).name + ".loss", it->second);
  }
  graph_.set_train_only(false);

  double initializer_elements = 0;  // a double: a hostile file's dims must not overflow anything
  for (const auto& init : g.initializer()) {
    double e = 1;
    for (auto d : init.dims()) e *= static_cast<double>(d);
    initializer_elements += e;
  }
  graph_.add_note(fmt::format("ONNX initializers hold {:.0f} elements", initializer_elements));
  if (!training_graph_ && !saw_dropout_)
    graph_.add_note(
        "exported for inference: dropout is gone and any batch norm was folded into the preceding convolutions' "
        "biases, so batch-norm parameters are not counted and batch-norm layers are not simulated");
  return std::move(graph_);
}

}  // namespace

const std::vector<std::string>& onnx_supported_ops() {
  // Cast, Div, Gather, Shape, Squeeze, Sub and Unsqueeze on integers only (shape arithmetic);
  // Div, Erf, Pow, Sqrt and Sub on tensors as parts of a layer norm or an exact GELU.
  static const std::vector<std::string> ops = {
      "Add",       "AveragePool", "BatchNormalization", "Cast",    "Clip",      "Concat",  "Constant",
      "Conv",      "Div",         "Dropout",            "Erf",     "Flatten",   "Gather",  "Gemm",
      "GlobalAveragePool", "GlobalMaxPool", "HardSigmoid", "HardSwish", "Identity", "LeakyRelu", "LRN",
      "MatMul",    "MaxPool",     "Mul",                "Pad",     "Pow",       "ReduceMean", "Relu",
      "Reshape",   "Shape",       "Sigmoid",            "Slice",   "Softmax",   "Sqrt",    "Squeeze",
      "Sub",       "Tanh",        "Transpose",          "Unsqueeze"};
  return ops;
}

Graph import_onnx_bytes(std::string_view bytes, const std::string& source_name) {
  onnx::ModelProto model;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    throw InputError(Problem{{source_name, 0, 0}, "", "", "a valid ONNX model (protobuf ModelProto); parsing failed",
                             "export it again with torch.onnx.export or check the file is not truncated"});
  if (!model.has_graph() || model.graph().node_size() == 0)
    throw InputError(Problem{{source_name, 0, 0}, "graph", "", "an ONNX model with a graph of at least one node", ""});
  return Importer(model, source_name).run();
}

Graph import_onnx_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(Problem{{path, 0, 0}, "", "", "a readable ONNX file; it cannot be opened", "check the path"});
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return import_onnx_bytes(buffer.str(), path);
}

}  // namespace dlsim::graph
