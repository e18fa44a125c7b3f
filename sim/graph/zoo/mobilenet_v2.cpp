// MobileNet-v2 at width 1.0 as torchvision/models/mobilenetv2.py builds it: inverted
// residual blocks (1x1 expansion, 3x3 depthwise, 1x1 linear projection), ReLU6.
#include <fmt/format.h>

#include "graph/zoo.hpp"
#include "graph/zoo/blocks.hpp"

namespace dlsim::graph::zoo {
namespace {

// Conv2dNormActivation: "<p>.0" conv, "<p>.1" batch norm, "<p>.2" ReLU6.
NodeId conv_bn_relu6(Graph& g, const std::string& p, NodeId in, const ConvAttrs& a) {
  NodeId x = g.conv(p + ".0", in, a);
  x = g.batch_norm(p + ".1", x);
  return g.activation(p + ".2", x, ActivationKind::relu6);
}

NodeId inverted_residual(Graph& g, const std::string& p, NodeId in, int64_t out, int stride, int expand) {
  const int64_t channels = g.node(in).output[0];
  const int64_t hidden = channels * expand;
  NodeId x = in;
  int index = 0;
  if (expand != 1) x = conv_bn_relu6(g, fmt::format("{}.conv.{}", p, index++), x, conv2d(hidden, 1));
  x = conv_bn_relu6(g, fmt::format("{}.conv.{}", p, index++), x, conv2d(hidden, 3, stride, 1, false, hidden));
  x = g.conv(fmt::format("{}.conv.{}", p, index++), x, conv2d(out, 1));
  x = g.batch_norm(fmt::format("{}.conv.{}", p, index++), x);
  if (stride == 1 && channels == out) x = g.add(p + ".add", {in, x});
  return x;
}

}  // namespace

Graph mobilenet_v2() {
  struct Stage {
    int expand;
    int64_t channels;
    int repeats, stride;
  };
  const Stage stages[] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2},  {6, 64, 4, 2},
                          {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
  Graph g("mobilenet_v2");
  NodeId x = g.input("input", {3, 224, 224});
  x = conv_bn_relu6(g, "features.0", x, conv2d(32, 3, 2, 1));
  int index = 1;
  for (const auto& s : stages)
    for (int i = 0; i < s.repeats; ++i)
      x = inverted_residual(g, fmt::format("features.{}", index++), x, s.channels, i == 0 ? s.stride : 1, s.expand);
  x = conv_bn_relu6(g, fmt::format("features.{}", index), x, conv2d(1280, 1));
  x = g.global_pool("avgpool", x);
  x = g.flatten("flatten", x);
  x = g.dropout("classifier.0", x, 0.2);
  x = g.linear("classifier.1", x, 1000);
  add_loss(g, x);
  return g;
}

}  // namespace dlsim::graph::zoo
