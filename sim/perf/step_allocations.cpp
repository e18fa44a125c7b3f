#include "perf/step_allocations.hpp"

#include <optional>
#include <stdexcept>
#include <vector>

#include "perf/glibc_heap.hpp"

namespace dlsim::perf {
namespace {

using graph::Graph;
using graph::Node;
using graph::OpKind;

// Tensors over the heap, reference-counted as PyTorch's storages are: a tensor is freed
// when its last holder lets it go.
class Tensors {
 public:
  int make(int64_t bytes, int holders) {
    const auto a = heap_.allocate(bytes);
    if (events) events->push_back({HeapEvent::Kind::allocate, a.handle, bytes});
    faulted_pages_ += a.faulted_pages;
    tensors_.push_back({a.handle, holders});
    const int id = static_cast<int>(tensors_.size()) - 1;
    if (holders == 0) drop(id, 0);
    return id;
  }
  void hold(int id, int more) { tensors_.at(static_cast<size_t>(id)).holders += more; }
  void drop(int id, int fewer = 1) {
    auto& t = tensors_.at(static_cast<size_t>(id));
    t.holders -= fewer;
    if (t.holders < 0) throw std::logic_error("step_allocations: a tensor released more often than held");
    if (t.holders == 0 && !t.freed) {
      heap_.free(t.handle);
      if (events) events->push_back({HeapEvent::Kind::free, t.handle, 0});
      t.freed = true;
    }
  }
  // A temporary: allocated, used, freed by the same operator.
  int scratch(int64_t bytes) { return make(bytes, 1); }
  int64_t faulted_pages() const { return faulted_pages_; }
  std::vector<HeapEvent>* events = nullptr;  // where given, every allocation and free

 private:
  struct Tensor {
    int64_t handle = 0;
    int holders = 0;
    bool freed = false;
  };
  GlibcHeap heap_;
  std::vector<Tensor> tensors_;
  int64_t faulted_pages_ = 0;
};

bool in_place_activation(const Node& node) {
  if (node.kind != OpKind::activation) return false;
  const auto kind = std::get<graph::ActivationAttrs>(node.attrs).kind;
  using graph::ActivationKind;
  return kind == ActivationKind::relu || kind == ActivationKind::relu6 || kind == ActivationKind::leaky_relu ||
         kind == ActivationKind::silu || kind == ActivationKind::hardswish;
}

// The node's output is its first input's storage: written in place, or a view.
bool aliases_input(const Node& node) {
  return in_place_activation(node) || node.kind == OpKind::add || node.kind == OpKind::flatten ||
         node.kind == OpKind::slice;
}

bool max_pool(const Node& node) {
  return node.kind == OpKind::pool && std::get<graph::PoolAttrs>(node.attrs).kind == graph::PoolKind::max;
}

// Activations whose gradient autograd computes from their input, which they do not overwrite.
bool activation_keeps_input(const Node& node) {
  if (node.kind != OpKind::activation) return false;
  const auto kind = std::get<graph::ActivationAttrs>(node.attrs).kind;
  return kind == graph::ActivationKind::gelu || kind == graph::ActivationKind::hardsigmoid;
}

bool keeps_inputs(const Node& node) {
  return node.kind == OpKind::conv || node.kind == OpKind::linear || node.kind == OpKind::batch_norm ||
         node.kind == OpKind::layer_norm || node.kind == OpKind::lrn || node.kind == OpKind::mul || max_pool(node) || activation_keeps_input(node);
}

bool keeps_output(const Node& node) {
  if (node.kind == OpKind::softmax || node.kind == OpKind::softmax_cross_entropy || node.kind == OpKind::lrn)
    return true;
  return node.kind == OpKind::activation && !activation_keeps_input(node);
}

// Backward passes the gradient on unchanged (a view) for these.
bool passes_gradient(const Node& node) {
  return node.kind == OpKind::add || node.kind == OpKind::flatten || node.kind == OpKind::concat ||
         node.kind == OpKind::slice;
}

// A node's parameters as tensors: the largest (the weight) and the rest (a bias, batch
// norm's scale and shift) together.
std::vector<int64_t> node_parameter_bytes(const graph::LayerCost& c) {
  if (c.params == 0) return {};
  std::vector<int64_t> out{c.largest_param_tensor * 4};
  if (c.params > c.largest_param_tensor) out.push_back((c.params - c.largest_param_tensor) * 4);
  return out;
}

std::vector<int64_t> parameter_tensor_bytes(const std::vector<graph::LayerCost>& costs) {
  std::vector<int64_t> out;
  for (const auto& c : costs)
    for (int64_t bytes : node_parameter_bytes(c)) out.push_back(bytes);
  return out;
}

struct Step {
  const Graph& graph;
  int64_t batch;
  int word;
  std::string optimizer;  // empty: inference, a no-grad forward in eval mode
  std::vector<graph::LayerCost> costs;
  std::vector<int> consumers;
  std::vector<bool> needs_grad;
  Tensors tensors;
  std::vector<int64_t> param_bytes;  // one entry per parameter tensor, model order
  bool state_made = false;

  Step(const Graph& g, int64_t n, graph::DataType type, std::string opt, std::vector<HeapEvent>* events = nullptr)
      : graph(g), batch(n), word(graph::bytes_per_element(type)), optimizer(std::move(opt)),
        costs(graph::layer_costs(g, n, type)), consumers(g.nodes().size(), 0), needs_grad(g.nodes().size(), false) {
    for (const auto& node : g.nodes()) {
      if (runs(node))
        for (auto in : node.inputs) ++consumers[static_cast<size_t>(in)];
      bool grad = costs[static_cast<size_t>(node.id)].params > 0;
      for (auto in : node.inputs) grad = grad || needs_grad[static_cast<size_t>(in)];
      needs_grad[static_cast<size_t>(node.id)] = grad;
    }
    param_bytes = parameter_tensor_bytes(costs);
    tensors.events = events;
    for (int64_t bytes : param_bytes) tensors.make(bytes, 1);  // the weights, held for good
  }

  bool training() const { return !optimizer.empty(); }
  bool runs(const Node& node) const { return training() || !node.train_only; }
  // Eval-mode dropout hands its input on.
  bool aliases(const Node& node) const { return aliases_input(node) || (!training() && node.kind == OpKind::dropout); }
  bool keeps_inputs_for_backward(const Node& node) const { return training() && keeps_inputs(node); }

  int64_t output_bytes(graph::NodeId id) const {
    return batch * graph::elements(graph.node(id).output) * word;
  }

  // One step's tensors, per node.
  struct Live {
    explicit Live(size_t nodes) : output(nodes, -1), extras(nodes), gradient(nodes) {}
    std::vector<int> output;                   // its output tensor, or -1
    std::vector<std::vector<int>> extras;      // indices, masks kept for backward
    std::vector<std::optional<int>> gradient;  // the gradient of its output
  };

  void forward(Live& live, int input_tensor) {
    for (const auto& node : graph.nodes()) {
      if (!runs(node)) continue;
      const auto id = static_cast<size_t>(node.id);
      const int holders = consumers[id] + (training() && keeps_output(node) ? 1 : 0);
      if (node.kind == OpKind::input) {
        live.output[id] = input_tensor;
        tensors.hold(input_tensor, holders);
        continue;
      }
      const int first = live.output[static_cast<size_t>(node.inputs[0])];
      if (aliases(node)) {
        live.output[id] = first;
        if (holders == 0)  // the layer's own hold on its input passes on to its users
          tensors.drop(first);
        else
          tensors.hold(first, holders - 1);
      } else {
        if (node.kind == OpKind::conv) {
          convolution_forward(node, live, holders);
        } else {
          if (node.kind == OpKind::dropout) live.extras[id].push_back(tensors.make(output_bytes(node.id), 1));
          live.output[id] = tensors.make(output_bytes(node.id), holders);
          if (max_pool(node))  // int64 indices, which inference lets go at once
            live.extras[id].push_back(tensors.make(output_bytes(node.id) * 8 / word, training() ? 1 : 0));
        }
      }
      for (size_t k = aliases(node) ? 1 : 0; k < node.inputs.size(); ++k)
        if (!keeps_inputs_for_backward(node)) tensors.drop(live.output[static_cast<size_t>(node.inputs[k])]);
    }
  }

  // ideep reorders the plain source and the weights into oneDNN's blocked layout, computes
  // into a blocked destination and reorders it into the plain output; a first layer with a
  // handful of channels is read as it is.
  void convolution_forward(const Node& node, Live& live, int holders) {
    const auto in = node.inputs[0];
    const bool reorder_source = graph.node(in).output.front() > 4;
    const int source = reorder_source ? tensors.scratch(output_bytes(in)) : -1;
    const int weights = tensors.scratch(costs[static_cast<size_t>(node.id)].largest_param_tensor * 4);
    const int blocked = tensors.scratch(output_bytes(node.id));
    tensors.drop(weights);
    if (source >= 0) tensors.drop(source);
    live.output[static_cast<size_t>(node.id)] = tensors.make(output_bytes(node.id), holders);
    tensors.drop(blocked);
  }

  void deliver(Live& live, graph::NodeId to, int gradient) {
    auto& slot = live.gradient[static_cast<size_t>(to)];
    if (!slot) {
      slot = gradient;
      return;
    }
    const int sum = tensors.make(output_bytes(to), 1);
    tensors.drop(*slot);
    tensors.drop(gradient);
    slot = sum;
  }

  // One layer's backward: its weight gradients and its inputs' gradients, then the
  // gradient it consumed is let go.
  void gradients(const Node& node, Live& live, std::vector<int>& weight_gradients, bool loss) {
    const auto id = static_cast<size_t>(node.id);
    const int gradient = loss ? tensors.make(output_bytes(node.id), 1) : *live.gradient[id];
    const int output_gradient = node.kind == OpKind::conv ? tensors.scratch(output_bytes(node.id)) : -1;
    for (int64_t bytes : node_parameter_bytes(costs[static_cast<size_t>(node.id)]))
      weight_gradients.push_back(tensors.make(bytes, 1));
    for (auto in : node.inputs) {
      if (!needs_grad[static_cast<size_t>(in)]) continue;
      if (passes_gradient(node)) {
        tensors.hold(gradient, 1);
        deliver(live, in, gradient);
      } else if (node.kind == OpKind::conv) {
        const int blocked = tensors.scratch(output_bytes(in));
        deliver(live, in, tensors.make(output_bytes(in), 1));
        tensors.drop(blocked);
      } else {
        deliver(live, in, tensors.make(output_bytes(in), 1));
      }
    }
    if (output_gradient >= 0) tensors.drop(output_gradient);
    tensors.drop(gradient);
    live.gradient[id].reset();
  }

  void backward(Live& live, std::vector<int>& weight_gradients) {
    const auto& nodes = graph.nodes();
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      const Node& node = *it;
      const auto id = static_cast<size_t>(node.id);
      if (node.kind == OpKind::input) continue;
      const bool loss = node.kind == OpKind::softmax_cross_entropy;  // its gradient is seeded
      if (needs_grad[id] && (loss || live.gradient[id])) gradients(node, live, weight_gradients, loss);
      if (keeps_inputs(node))
        for (auto in : node.inputs) tensors.drop(live.output[static_cast<size_t>(in)]);
      if (keeps_output(node)) tensors.drop(live.output[id]);
      for (int extra : live.extras[id]) tensors.drop(extra);
      live.extras[id].clear();
    }
    for (auto& g : live.gradient)
      if (g) tensors.drop(*g), g.reset();
  }

  void update(std::vector<int>& weight_gradients) {
    if (!state_made) {
      const int slots = optimizer == "adam" ? 2 : optimizer == "sgd_momentum" ? 1 : 0;
      for (int s = 0; s < slots; ++s)
        for (int64_t bytes : param_bytes) tensors.make(bytes, 1);  // held for good
      state_made = true;
    }
    if (optimizer == "adam")
      for (int64_t bytes : param_bytes) {  // denom = (exp_avg_sq.sqrt() / correction).add_(eps)
        const int root = tensors.scratch(bytes);
        const int denominator = tensors.scratch(bytes);
        tensors.drop(root);
        tensors.drop(denominator);
      }
    for (int g : weight_gradients) tensors.drop(g);
    weight_gradients.clear();
  }
};

}  // namespace

std::string first_touch_signature(int64_t pages) {
  return std::string(kFirstTouchOp) + " fp32 n" + std::to_string(pages) + " e1024";
}

std::vector<int64_t> parameter_tensor_bytes(const Graph& graph) {
  return parameter_tensor_bytes(graph::layer_costs(graph, 1, graph::DataType::fp32));
}

namespace {

// The last pass's faults; `events`, where given, hears the heap's.
int64_t inference_passes(const Graph& graph, int64_t batch, graph::DataType type, std::vector<HeapEvent>* events) {
  Step pass(graph, batch, type, "", events);
  const int input = pass.tensors.make(batch * graph::elements(graph.input_shape()) * pass.word, 1);
  constexpr int kPasses = 4;  // the heap's thresholds settle within two
  int64_t faults = 0;
  for (int p = 0; p < kPasses; ++p) {
    if (events) events->push_back({HeapEvent::Kind::pass_end, 0, 0});  // the weights' and input's, then a pass's
    Step::Live live(graph.nodes().size());
    const int64_t start = pass.tensors.faulted_pages();
    pass.forward(live, input);  // outputs nothing consumes are let go as they are made
    faults = pass.tensors.faulted_pages() - start;
  }
  if (events) events->push_back({HeapEvent::Kind::pass_end, 0, 0});
  return faults;
}

}  // namespace

int64_t inference_page_faults(const Graph& graph, int64_t batch, graph::DataType type) {
  return inference_passes(graph, batch, type, nullptr);
}

std::vector<HeapEvent> inference_heap_events(const Graph& graph, int64_t batch, graph::DataType type) {
  std::vector<HeapEvent> events;
  inference_passes(graph, batch, type, &events);
  return events;
}

StepPageFaults training_page_faults(const Graph& graph, int64_t batch, const std::string& optimizer,
                                    graph::DataType type) {
  if (optimizer != "sgd" && optimizer != "sgd_momentum" && optimizer != "adam")
    throw std::invalid_argument("training_page_faults: unknown optimizer '" + optimizer + "'");
  Step step(graph, batch, type, optimizer);
  const int input = step.tensors.make(batch * graph::elements(graph.input_shape()) * step.word, 1);
  constexpr int kSteps = 4;  // the heap's thresholds settle within two
  StepPageFaults faults;
  for (int s = 0; s < kSteps; ++s) {
    Step::Live live(graph.nodes().size());
    std::vector<int> weight_gradients;
    const int64_t start = step.tensors.faulted_pages();
    step.forward(live, input);
    const int64_t after_forward = step.tensors.faulted_pages();
    step.backward(live, weight_gradients);
    const int64_t after_backward = step.tensors.faulted_pages();
    step.update(weight_gradients);
    faults = {after_forward - start, after_backward - after_forward, step.tensors.faulted_pages() - after_backward};
  }
  return faults;
}

}  // namespace dlsim::perf
