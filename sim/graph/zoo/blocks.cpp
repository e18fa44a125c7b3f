#include "graph/zoo/blocks.hpp"

namespace dlsim::graph::zoo {
namespace {

Window square(int kernel, int stride, int pad) { return {kernel, kernel, stride, stride, pad, pad, pad, pad}; }

}  // namespace

ConvAttrs conv2d(int64_t out_channels, int kernel, int stride, int pad, bool bias, int64_t groups) {
  ConvAttrs a;
  a.out_channels = out_channels;
  a.window = square(kernel, stride, pad);
  a.bias = bias;
  a.groups = groups;
  return a;
}

ConvAttrs conv2d(int64_t out_channels, int kernel_h, int kernel_w, int pad_h, int pad_w, int stride) {
  ConvAttrs a;
  a.out_channels = out_channels;
  a.window = {kernel_h, kernel_w, stride, stride, pad_h, pad_w, pad_h, pad_w};
  return a;
}

PoolAttrs max_pool(int kernel, int stride, int pad, bool ceil_mode) {
  PoolAttrs a;
  a.kind = PoolKind::max;
  a.window = square(kernel, stride, pad);
  a.ceil_mode = ceil_mode;
  return a;
}

PoolAttrs avg_pool(int kernel, int stride, int pad, bool count_include_pad) {
  PoolAttrs a = max_pool(kernel, stride, pad);
  a.kind = PoolKind::avg;
  a.count_include_pad = count_include_pad;
  return a;
}

NodeId basic_conv(Graph& g, const std::string& prefix, NodeId in, const ConvAttrs& conv) {
  NodeId x = g.conv(prefix + ".conv", in, conv);
  x = g.batch_norm(prefix + ".bn", x);
  return g.relu(prefix + ".relu", x);
}

void add_loss(Graph& g, NodeId logits) {
  g.set_train_only(true);
  g.softmax_cross_entropy("loss", logits);
  g.set_train_only(false);
}

}  // namespace dlsim::graph::zoo
