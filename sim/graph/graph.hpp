#pragma once
// The layer graph: operators in execution order, each with its inferred output shape.
// Builders infer shapes as nodes are added and throw GraphError on an inconsistency,
// naming the node; importers (TOML, ONNX) attach the source location.

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/op.hpp"

namespace dlsim::graph {

class GraphError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

using NodeId = int;

// Bounds that keep every count exact in 64-bit arithmetic, far beyond any real network:
// elements per sample and multiply-adds per layer and sample up to 2^40, channels and
// features up to 2^24, kernel sizes, strides and padding up to 2^16.
constexpr int64_t kMaxElements = int64_t{1} << 40;
constexpr int64_t kMaxDim = int64_t{1} << 24;
constexpr int kMaxWindow = 1 << 16;

struct Node {
  NodeId id = 0;
  std::string name;
  OpKind kind = OpKind::input;
  OpAttrs attrs;
  std::vector<NodeId> inputs;
  Dims output;              // per-sample output shape
  bool train_only = false;  // auxiliary heads: run in training, skipped in inference
};

class Graph {
 public:
  explicit Graph(std::string name) : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const Node& node(NodeId id) const { return nodes_.at(static_cast<size_t>(id)); }
  std::optional<NodeId> find(const std::string& node_name) const;
  // The graph's sample input (the first input node).
  const Dims& input_shape() const;
  // Free-form remarks an importer wants the user to see (e.g. "batch norm folded").
  const std::vector<std::string>& notes() const { return notes_; }
  void add_note(std::string note) { notes_.push_back(std::move(note)); }

  // Builders: each returns the new node's id.  Names must be unique.
  NodeId input(const std::string& name, Dims shape);
  NodeId conv(const std::string& name, NodeId in, const ConvAttrs& attrs);
  NodeId batch_norm(const std::string& name, NodeId in, BatchNormAttrs attrs = {});
  // Normalises the channels of each position of a CxHxW input (or a vector's features).
  NodeId layer_norm(const std::string& name, NodeId in);
  NodeId activation(const std::string& name, NodeId in, ActivationKind kind);
  NodeId relu(const std::string& name, NodeId in) { return activation(name, in, ActivationKind::relu); }
  NodeId pool(const std::string& name, NodeId in, const PoolAttrs& attrs);
  NodeId global_pool(const std::string& name, NodeId in, PoolKind kind = PoolKind::avg);
  NodeId adaptive_avg_pool(const std::string& name, NodeId in, int out_h, int out_w);
  NodeId linear(const std::string& name, NodeId in, int64_t out_features, bool bias = true);
  // A CxHxW input's channels mapped to out_features at every position: OxHxW.
  NodeId linear_each_position(const std::string& name, NodeId in, int64_t out_features, bool bias = true);
  NodeId add(const std::string& name, const std::vector<NodeId>& in);
  // x times y, where y has x's shape or is one value per channel of a CxHxW x (Cx1x1 or C).
  NodeId mul(const std::string& name, NodeId x, NodeId y);
  // x times a trainable factor per channel of a CxHxW x.
  NodeId channel_scale(const std::string& name, NodeId x);
  NodeId concat(const std::string& name, const std::vector<NodeId>& in, int axis = 0);
  NodeId flatten(const std::string& name, NodeId in);
  // Channels [begin, end) of a CxHxW input, as a view (no kernel either way: the input's
  // gradient is summed from its consumers', as for any tensor read twice).
  NodeId slice(const std::string& name, NodeId in, int64_t begin, int64_t end);
  // A CxHxW input's channels read group-major, written channel-major (groups divides C).
  NodeId channel_shuffle(const std::string& name, NodeId in, int64_t groups);
  NodeId dropout(const std::string& name, NodeId in, double probability);
  NodeId lrn(const std::string& name, NodeId in, int size);
  NodeId softmax(const std::string& name, NodeId in);
  NodeId softmax_cross_entropy(const std::string& name, NodeId in);

  // Nodes added while a train-only scope is open are marked train_only.
  void set_train_only(bool on) { train_only_ = on; }

 private:
  NodeId push(const std::string& name, OpKind kind, OpAttrs attrs, std::vector<NodeId> inputs, Dims out);
  const Dims& shape_of(NodeId id, const std::string& user) const;

  std::string name_;
  std::vector<Node> nodes_;
  std::vector<std::string> notes_;
  bool train_only_ = false;
};

// Element count of a per-sample shape.
int64_t elements(const Dims& dims);
std::string to_string(const Dims& dims);

}  // namespace dlsim::graph
