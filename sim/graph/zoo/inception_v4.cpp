// Inception-v4 (Szegedy, Ioffe, Vanhoucke, Alemi: "Inception-v4, Inception-ResNet and the
// Impact of Residual Connections on Learning", AAAI 2017, figures 3-9), layer for layer as
// timm's inception_v4 (itself Cadene's pretrained-models port of the TF-slim model):
// 299x299 input, convolutions without bias followed by batch norm and ReLU, average-pool
// branches that do not count padding, 1000 classes.  torchvision has no Inception-v4; the
// zoo test checks it against timm's published parameter count.
#include <fmt/format.h>

#include "graph/zoo.hpp"
#include "graph/zoo/blocks.hpp"

namespace dlsim::graph::zoo {
namespace {

NodeId block_a(Graph& g, const std::string& p, NodeId in) {
  NodeId b0 = basic_conv(g, p + ".branch0", in, conv2d(96, 1));
  NodeId b1 = basic_conv(g, p + ".branch1.0", in, conv2d(64, 1));
  b1 = basic_conv(g, p + ".branch1.1", b1, conv2d(96, 3, 1, 1));
  NodeId b2 = basic_conv(g, p + ".branch2.0", in, conv2d(64, 1));
  b2 = basic_conv(g, p + ".branch2.1", b2, conv2d(96, 3, 1, 1));
  b2 = basic_conv(g, p + ".branch2.2", b2, conv2d(96, 3, 1, 1));
  NodeId b3 = g.pool(p + ".branch3.0", in, avg_pool(3, 1, 1, false));
  b3 = basic_conv(g, p + ".branch3.1", b3, conv2d(96, 1));
  return g.concat(p + ".cat", {b0, b1, b2, b3});
}

NodeId reduction_a(Graph& g, const std::string& p, NodeId in) {
  NodeId b0 = basic_conv(g, p + ".branch0", in, conv2d(384, 3, 2));
  NodeId b1 = basic_conv(g, p + ".branch1.0", in, conv2d(192, 1));
  b1 = basic_conv(g, p + ".branch1.1", b1, conv2d(224, 3, 1, 1));
  b1 = basic_conv(g, p + ".branch1.2", b1, conv2d(256, 3, 2));
  NodeId b2 = g.pool(p + ".branch2", in, max_pool(3, 2));
  return g.concat(p + ".cat", {b0, b1, b2});
}

NodeId block_b(Graph& g, const std::string& p, NodeId in) {
  NodeId b0 = basic_conv(g, p + ".branch0", in, conv2d(384, 1));
  NodeId b1 = basic_conv(g, p + ".branch1.0", in, conv2d(192, 1));
  b1 = basic_conv(g, p + ".branch1.1", b1, conv2d(224, 1, 7, 0, 3));
  b1 = basic_conv(g, p + ".branch1.2", b1, conv2d(256, 7, 1, 3, 0));
  NodeId b2 = basic_conv(g, p + ".branch2.0", in, conv2d(192, 1));
  b2 = basic_conv(g, p + ".branch2.1", b2, conv2d(192, 7, 1, 3, 0));
  b2 = basic_conv(g, p + ".branch2.2", b2, conv2d(224, 1, 7, 0, 3));
  b2 = basic_conv(g, p + ".branch2.3", b2, conv2d(224, 7, 1, 3, 0));
  b2 = basic_conv(g, p + ".branch2.4", b2, conv2d(256, 1, 7, 0, 3));
  NodeId b3 = g.pool(p + ".branch3.0", in, avg_pool(3, 1, 1, false));
  b3 = basic_conv(g, p + ".branch3.1", b3, conv2d(128, 1));
  return g.concat(p + ".cat", {b0, b1, b2, b3});
}

NodeId reduction_b(Graph& g, const std::string& p, NodeId in) {
  NodeId b0 = basic_conv(g, p + ".branch0.0", in, conv2d(192, 1));
  b0 = basic_conv(g, p + ".branch0.1", b0, conv2d(192, 3, 2));
  NodeId b1 = basic_conv(g, p + ".branch1.0", in, conv2d(256, 1));
  b1 = basic_conv(g, p + ".branch1.1", b1, conv2d(256, 1, 7, 0, 3));
  b1 = basic_conv(g, p + ".branch1.2", b1, conv2d(320, 7, 1, 3, 0));
  b1 = basic_conv(g, p + ".branch1.3", b1, conv2d(320, 3, 2));
  NodeId b2 = g.pool(p + ".branch2", in, max_pool(3, 2));
  return g.concat(p + ".cat", {b0, b1, b2});
}

NodeId block_c(Graph& g, const std::string& p, NodeId in) {
  NodeId b0 = basic_conv(g, p + ".branch0", in, conv2d(256, 1));
  NodeId b1 = basic_conv(g, p + ".branch1_0", in, conv2d(384, 1));
  NodeId b1a = basic_conv(g, p + ".branch1_1a", b1, conv2d(256, 1, 3, 0, 1));
  NodeId b1b = basic_conv(g, p + ".branch1_1b", b1, conv2d(256, 3, 1, 1, 0));
  NodeId b2 = basic_conv(g, p + ".branch2_0", in, conv2d(384, 1));
  b2 = basic_conv(g, p + ".branch2_1", b2, conv2d(448, 3, 1, 1, 0));
  b2 = basic_conv(g, p + ".branch2_2", b2, conv2d(512, 1, 3, 0, 1));
  NodeId b2a = basic_conv(g, p + ".branch2_3a", b2, conv2d(256, 1, 3, 0, 1));
  NodeId b2b = basic_conv(g, p + ".branch2_3b", b2, conv2d(256, 3, 1, 1, 0));
  NodeId b3 = g.pool(p + ".branch3.0", in, avg_pool(3, 1, 1, false));
  b3 = basic_conv(g, p + ".branch3.1", b3, conv2d(256, 1));
  return g.concat(p + ".cat", {b0, b1a, b1b, b2a, b2b, b3});
}

}  // namespace

Graph inception_v4() {
  Graph g("inception_v4");
  NodeId x = g.input("input", {3, 299, 299});
  x = basic_conv(g, "features.0", x, conv2d(32, 3, 2));
  x = basic_conv(g, "features.1", x, conv2d(32, 3));
  x = basic_conv(g, "features.2", x, conv2d(64, 3, 1, 1));
  {  // Mixed_3a
    NodeId pool = g.pool("features.3.maxpool", x, max_pool(3, 2));
    NodeId conv = basic_conv(g, "features.3.conv", x, conv2d(96, 3, 2));
    x = g.concat("features.3.cat", {pool, conv});
  }
  {  // Mixed_4a
    NodeId b0 = basic_conv(g, "features.4.branch0.0", x, conv2d(64, 1));
    b0 = basic_conv(g, "features.4.branch0.1", b0, conv2d(96, 3));
    NodeId b1 = basic_conv(g, "features.4.branch1.0", x, conv2d(64, 1));
    b1 = basic_conv(g, "features.4.branch1.1", b1, conv2d(64, 1, 7, 0, 3));
    b1 = basic_conv(g, "features.4.branch1.2", b1, conv2d(64, 7, 1, 3, 0));
    b1 = basic_conv(g, "features.4.branch1.3", b1, conv2d(96, 3));
    x = g.concat("features.4.cat", {b0, b1});
  }
  {  // Mixed_5a
    NodeId conv = basic_conv(g, "features.5.conv", x, conv2d(192, 3, 2));
    NodeId pool = g.pool("features.5.maxpool", x, max_pool(3, 2));
    x = g.concat("features.5.cat", {conv, pool});
  }
  int index = 6;
  for (int i = 0; i < 4; ++i) x = block_a(g, fmt::format("features.{}", index++), x);
  x = reduction_a(g, fmt::format("features.{}", index++), x);
  for (int i = 0; i < 7; ++i) x = block_b(g, fmt::format("features.{}", index++), x);
  x = reduction_b(g, fmt::format("features.{}", index++), x);
  for (int i = 0; i < 3; ++i) x = block_c(g, fmt::format("features.{}", index++), x);
  x = g.global_pool("global_pool", x);
  x = g.flatten("flatten", x);
  x = g.linear("last_linear", x, 1000);
  add_loss(g, x);
  return g;
}

}  // namespace dlsim::graph::zoo
