#pragma once
// What each operator computes, moves and stores, for a batch size and a data type.
//
// Conventions (stated once, used everywhere):
// - A multiply-add counts 2 FLOPs.  Convolution and fully connected layers:
//   forward = 2 * MACs (+ one add per output element for a bias); backward-data and
//   backward-weights each cost the same 2 * MACs (they are the two other GEMMs of the
//   layer), except that no data gradient is computed for the graph's input.
// - Element-wise and normalisation operators count the arithmetic of a straightforward
//   implementation (e.g. ReLU 1 FLOP per element, batch norm 5 forward and 8 backward).
//   They are memory-bound; their bytes matter more than their FLOPs.
// - Bytes read/written are those of the forward pass: inputs and weights read, output
//   written, at the data type's width; views (flatten) move nothing.
// - Saved activations are the tensors backward needs (PyTorch's autograd rules with
//   in-place ReLU as torchvision uses it): convolution, linear and batch norm keep their
//   input, a product both its operands; ReLU-like activations keep their output; max
//   pooling keeps input and output; dropout keeps a 1-byte mask per element.  Each tensor
//   is counted once, against the node that produced it, however many consumers keep it.

#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.hpp"

namespace dlsim::graph {

enum class DataType { fp32, tf32, fp16, bf16 };

int bytes_per_element(DataType type);
std::string to_string(DataType type);

struct LayerCost {
  int64_t macs = 0;                   // conv/linear multiply-adds (0 elsewhere)
  double forward_flops = 0;
  double backward_data_flops = 0;
  double backward_weights_flops = 0;
  double forward_bytes_read = 0;
  double forward_bytes_written = 0;
  int64_t params = 0;                 // trainable parameters
  int param_tensors = 0;              // the tensors holding them (weight, bias, ...)
  int64_t largest_param_tensor = 0;   // elements of the biggest of them
  int64_t state = 0;                  // non-trainable state (batch-norm running statistics)
  double saved_activation_bytes = 0;  // kept from forward for backward
  double output_bytes = 0;
};

// Costs of every node of `graph` (indexed by NodeId) for `batch` samples of `type`.
std::vector<LayerCost> layer_costs(const Graph& graph, int64_t batch, DataType type);

struct ModelTotals {
  int64_t params = 0;
  int param_tensors = 0;  // an optimizer steps through these one by one
  int64_t largest_param_tensor = 0;
  int64_t state = 0;
  int64_t macs_per_sample = 0;          // inference path (train-only heads excluded)
  // 2 x macs_per_sample: the convention of published FLOP counts ("ResNet-50: 8.2 GFLOPs").
  double forward_flops_per_sample = 0;
  // What the convention leaves out: biases, normalisation, activations, pooling, additions.
  double forward_other_flops_per_sample = 0;
  double training_flops_per_sample = 0; // forward + backward, train-only heads included
  double saved_activation_bytes = 0;    // per batch, training
  double peak_inference_activation_bytes = 0;  // per batch: largest live set of a forward pass
};

ModelTotals model_totals(const Graph& graph, int64_t batch, DataType type);

}  // namespace dlsim::graph
