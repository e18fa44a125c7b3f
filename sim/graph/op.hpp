#pragma once
// Operators of the layer graph.  Shapes are per sample (batch excluded): {C, H, W} for
// feature maps, {F} for vectors.  The batch enters only when costs are computed.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace dlsim::graph {

using Dims = std::vector<int64_t>;

enum class OpKind {
  input,
  conv,
  batch_norm,
  layer_norm,  // each position's channels (or a vector's features) normalised, with a scale and shift
  activation,
  pool,
  global_pool,
  adaptive_avg_pool,
  linear,
  add,
  // element-wise product; the second operand may be per channel (squeeze-and-excitation);
  // with one input, a trainable factor per channel (ConvNeXt's layer scale)
  mul,
  concat,
  flatten,
  slice,            // a range of channels: a view, no kernel (torch.chunk's halves)
  channel_shuffle,  // ShuffleNet's: channels regrouped, one copy of the tensor
  dropout,
  lrn,
  softmax,
  softmax_cross_entropy,
};

enum class ActivationKind { relu, relu6, sigmoid, tanh, leaky_relu, gelu, silu, hardsigmoid, hardswish };
enum class PoolKind { max, avg };

// The sliding window that convolution and pooling share.
struct Window {
  int kernel_h = 1, kernel_w = 1;
  int stride_h = 1, stride_w = 1;
  int pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
};

struct ConvAttrs {
  int64_t out_channels = 0;
  Window window;
  int dilation_h = 1, dilation_w = 1;
  int64_t groups = 1;
  bool bias = false;
};

struct PoolAttrs {
  PoolKind kind = PoolKind::max;
  Window window;
  bool ceil_mode = false;
  bool count_include_pad = true;  // avg only
};

struct GlobalPoolAttrs {
  PoolKind kind = PoolKind::avg;
};

struct AdaptivePoolAttrs {
  int out_h = 1, out_w = 1;
};

struct LinearAttrs {
  int64_t out_features = 0;
  bool bias = true;
  // Applied to the channels of every position of a CxHxW input (a channels-last block's
  // linear layer, which PyTorch runs as one matrix product over all positions).
  bool each_position = false;
};

struct ActivationAttrs {
  ActivationKind kind = ActivationKind::relu;
};

struct BatchNormAttrs {
  bool affine = true;  // gamma and beta are trainable parameters
};

struct DropoutAttrs {
  double probability = 0.5;
};

struct LrnAttrs {
  int size = 5;
};

struct ConcatAttrs {
  int axis = 0;  // per-sample axis: 0 is channels
};

struct SliceAttrs {
  int64_t begin = 0, end = 0;  // channels [begin, end)
};

struct ShuffleAttrs {
  int64_t groups = 1;  // channel c of group g moves to position c * groups + g
};

using OpAttrs = std::variant<std::monostate, ConvAttrs, PoolAttrs, GlobalPoolAttrs, AdaptivePoolAttrs,
                             LinearAttrs, ActivationAttrs, BatchNormAttrs, DropoutAttrs, LrnAttrs,
                             ConcatAttrs, SliceAttrs, ShuffleAttrs>;

std::string to_string(OpKind kind);
std::string to_string(ActivationKind kind);
std::string to_string(PoolKind kind);

// The operator's display name: "conv", "relu", "maxpool", ...
std::string op_label(OpKind kind, const OpAttrs& attrs);

}  // namespace dlsim::graph
