#pragma once
// Small helpers the zoo's builders share.  Names are passed in so that each family can
// use its reference implementation's module names (torchvision's, where it has one).

#include <string>

#include "graph/graph.hpp"

namespace dlsim::graph::zoo {

ConvAttrs conv2d(int64_t out_channels, int kernel, int stride = 1, int pad = 0, bool bias = false,
                 int64_t groups = 1);
// Rectangular kernels (1x7, 7x1 and the like) with symmetric padding per axis.
ConvAttrs conv2d(int64_t out_channels, int kernel_h, int kernel_w, int pad_h, int pad_w, int stride = 1);
PoolAttrs max_pool(int kernel, int stride, int pad = 0, bool ceil_mode = false);
PoolAttrs avg_pool(int kernel, int stride, int pad = 0, bool count_include_pad = true);

// conv (no bias) -> batch norm -> ReLU, named "<prefix>.conv", "<prefix>.bn", "<prefix>.relu":
// the BasicConv2d of torchvision's Inception and GoogLeNet.
NodeId basic_conv(Graph& g, const std::string& prefix, NodeId in, const ConvAttrs& conv);

// The training loss after the logits: softmax cross-entropy, marked train-only.
void add_loss(Graph& g, NodeId logits);

}  // namespace dlsim::graph::zoo
