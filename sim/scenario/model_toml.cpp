#include <array>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "core/suggest.hpp"
#include "graph/onnx_import.hpp"
#include "graph/zoo.hpp"
#include "scenario/model_source.hpp"
#include "scenario/toml_reader.hpp"

namespace dlsim::scenario {
namespace {

using namespace dlsim::graph;

const std::vector<std::string>& op_names() {
  static const std::vector<std::string> ops = {
      "conv",        "batch_norm",     "relu",           "relu6",  "sigmoid", "tanh",    "leaky_relu",
      "gelu",        "silu",           "hardsigmoid",    "hardswish", "maxpool", "avgpool", "global_avgpool",
      "global_maxpool", "linear",      "add",            "mul",    "concat",  "flatten", "slice",
      "channel_shuffle", "dropout",    "lrn",            "softmax", "softmax_cross_entropy"};
  return ops;
}

// Expands "k" or "[kh, kw]" to two values.
std::array<int, 2> pair_of(const std::vector<int64_t>& v) {
  return {static_cast<int>(v[0]), static_cast<int>(v.size() > 1 ? v[1] : v[0])};
}

// kernel, stride (default: the kernel, for pooling; 1 for convolution) and padding
// ("p", "[ph, pw]" or "[top, left, bottom, right]").
Window read_window(TableReader& r, bool stride_defaults_to_kernel) {
  const auto k = pair_of(r.integers("kernel", 1, 2, 1, kMaxWindow, true).value_or(std::vector<int64_t>{1}));
  const std::vector<int64_t> default_stride =
      stride_defaults_to_kernel ? std::vector<int64_t>{k[0], k[1]} : std::vector<int64_t>{1};
  const auto s = pair_of(r.integers("stride", 1, 2, 1, kMaxWindow).value_or(default_stride));
  auto p = r.integers("padding", 1, 4, 0, kMaxWindow).value_or(std::vector<int64_t>{0});
  if (p.size() == 3) {
    r.problem("padding", "", "1 value, [h, w] or [top, left, bottom, right]");
    p = {0};
  }
  if (p.size() == 1) p = {p[0], p[0]};
  if (p.size() == 2) p = {p[0], p[1], p[0], p[1]};
  return {k[0], k[1], s[0], s[1], static_cast<int>(p[0]), static_cast<int>(p[1]), static_cast<int>(p[2]),
          static_cast<int>(p[3])};
}

class LayerBuilder {
 public:
  LayerBuilder(Graph& g, ProblemList& problems) : g_(g), problems_(problems) {}

  void add(TableReader& r, size_t index, NodeId previous, NodeId& out);

 private:
  std::optional<NodeId> ref(TableReader& r, const std::string& key, const std::string& name);

  Graph& g_;
  ProblemList& problems_;
};

std::optional<NodeId> LayerBuilder::ref(TableReader& r, const std::string& key, const std::string& name) {
  if (auto id = g_.find(name)) return id;
  // After an earlier layer failed, later names may refer to it: report the cause, not the cascade.
  if (!problems_.empty()) return std::nullopt;
  std::vector<std::string> names;
  for (const auto& n : g_.nodes()) names.push_back(n.name);
  r.problem(key, name, "names no earlier layer", suggest(name, names));
  return std::nullopt;
}

void LayerBuilder::add(TableReader& r, size_t index, NodeId previous, NodeId& out) {
  const auto op = r.choice("op", op_names(), true);
  const std::string name = r.string("name").value_or(fmt::format("{}{}", op.value_or("layer"), index));
  std::vector<NodeId> inputs;
  if (op && (*op == "add" || *op == "mul" || *op == "concat")) {
    if (auto names = r.strings("inputs", true))
      for (const auto& n : *names)
        if (auto id = ref(r, "inputs", n)) inputs.push_back(*id);
  } else if (auto in = r.string("input")) {
    if (auto id = ref(r, "input", *in)) inputs.push_back(*id);
  } else {
    inputs.push_back(previous);
  }
  if (!op) return;  // an unknown operator: its other keys cannot be judged
  const std::string& o = *op;
  try {
    if (o == "conv") {
      ConvAttrs a;
      a.out_channels = r.integer("out_channels", 1, kMaxDim, true).value_or(1);
      a.window = read_window(r, false);
      const auto d = pair_of(r.integers("dilation", 1, 2, 1, kMaxWindow).value_or(std::vector<int64_t>{1}));
      a.dilation_h = d[0], a.dilation_w = d[1];
      a.groups = r.integer("groups", 1, kMaxDim).value_or(1);
      a.bias = r.boolean("bias").value_or(false);
      r.finish();
      if (problems_.empty()) out = g_.conv(name, inputs.at(0), a);
    } else if (o == "maxpool" || o == "avgpool") {
      PoolAttrs a;
      a.kind = o == "maxpool" ? PoolKind::max : PoolKind::avg;
      a.window = read_window(r, true);
      a.ceil_mode = r.boolean("ceil_mode").value_or(false);
      if (o == "avgpool") a.count_include_pad = r.boolean("count_include_pad").value_or(true);
      r.finish();
      if (problems_.empty()) out = g_.pool(name, inputs.at(0), a);
    } else if (o == "linear") {
      const auto features = r.integer("out_features", 1, kMaxDim, true).value_or(1);
      const bool bias = r.boolean("bias").value_or(true);
      r.finish();
      if (problems_.empty()) out = g_.linear(name, inputs.at(0), features, bias);
    } else if (o == "dropout") {
      const double p = r.number("p", 0, 0.999999).value_or(0.5);
      r.finish();
      if (problems_.empty()) out = g_.dropout(name, inputs.at(0), p);
    } else if (o == "lrn") {
      const auto size = r.integer("size", 1, 1024).value_or(5);
      r.finish();
      if (problems_.empty()) out = g_.lrn(name, inputs.at(0), static_cast<int>(size));
    } else if (o == "batch_norm") {
      BatchNormAttrs a;
      a.affine = r.boolean("affine").value_or(true);
      r.finish();
      if (problems_.empty()) out = g_.batch_norm(name, inputs.at(0), a);
    } else if (o == "mul") {
      r.finish();
      if (problems_.empty() && inputs.size() != 2)
        r.problem("inputs", fmt::format("{} names", inputs.size()), "two layers: the tensor and its factor");
      if (problems_.empty()) out = g_.mul(name, inputs[0], inputs[1]);
    } else if (o == "slice") {
      const auto begin = r.integer("begin", 0, kMaxDim - 1, true).value_or(0);
      const auto end = r.integer("end", 1, kMaxDim, true).value_or(1);
      r.finish();
      if (problems_.empty()) out = g_.slice(name, inputs.at(0), begin, end);
    } else if (o == "channel_shuffle") {
      const auto groups = r.integer("groups", 1, kMaxDim, true).value_or(1);
      r.finish();
      if (problems_.empty()) out = g_.channel_shuffle(name, inputs.at(0), groups);
    } else if (o == "concat") {
      const auto axis = r.integer("axis", 0, 3).value_or(0);
      r.finish();
      if (problems_.empty()) out = g_.concat(name, inputs, static_cast<int>(axis));
    } else {
      r.finish();
      if (!problems_.empty()) return;
      const std::map<std::string, ActivationKind> activations = {
          {"relu", ActivationKind::relu},         {"relu6", ActivationKind::relu6}, {"sigmoid", ActivationKind::sigmoid},
          {"tanh", ActivationKind::tanh},         {"gelu", ActivationKind::gelu},   {"silu", ActivationKind::silu},
          {"leaky_relu", ActivationKind::leaky_relu}, {"hardsigmoid", ActivationKind::hardsigmoid},
          {"hardswish", ActivationKind::hardswish}};
      if (auto it = activations.find(o); it != activations.end()) out = g_.activation(name, inputs.at(0), it->second);
      else if (o == "global_avgpool") out = g_.global_pool(name, inputs.at(0), PoolKind::avg);
      else if (o == "global_maxpool") out = g_.global_pool(name, inputs.at(0), PoolKind::max);
      else if (o == "add") out = g_.add(name, inputs);
      else if (o == "flatten") out = g_.flatten(name, inputs.at(0));
      else if (o == "softmax") out = g_.softmax(name, inputs.at(0));
      else if (o == "softmax_cross_entropy") out = g_.softmax_cross_entropy(name, inputs.at(0));
    }
  } catch (const GraphError& e) {
    r.problem("op", o, e.what());
  }
}

}  // namespace

graph::Graph parse_model_toml(const std::string& text, const std::string& source_name) {
  const toml::table root = parse_document(text, source_name);
  ProblemList problems;
  TableReader top(root, "", problems);
  const std::string name =
      top.string("name").value_or(std::filesystem::path(source_name).stem().string());
  Graph g(name);
  const auto input = top.integers("input", 1, 3, 1, kMaxDim, true);
  const auto* layers = top.array_of_tables("layer");
  if (!layers && !top.has("layer")) top.problem("layer", "", "at least one [[layer]] is required");
  top.finish();
  if (!input) {
    problems.throw_if_any();
  }
  NodeId previous = g.input("input", Dims(input->begin(), input->end()));
  if (layers) {
    LayerBuilder builder(g, problems);
    size_t index = 0;
    for (const auto& layer : *layers) {
      TableReader r(*layer.as_table(), fmt::format("layer[{}]", index), problems);
      builder.add(r, index, previous, previous);
      ++index;
    }
  }
  problems.throw_if_any();
  return g;
}

graph::Graph load_model(const std::string& reference) {
  auto ends_with = [&reference](const std::string& suffix) {
    return reference.size() >= suffix.size() &&
           reference.compare(reference.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".onnx")) return graph::import_onnx_file(reference);
  if (ends_with(".toml")) {
    return parse_model_toml(read_text_file(reference, "a readable model file; it cannot be opened"), reference);
  }
  try {
    return graph::zoo_model(reference);
  } catch (const graph::GraphError& e) {
    throw InputError(Problem{{"", 0, 0}, "model", reference, e.what(), ""});
  }
}

}  // namespace dlsim::scenario
