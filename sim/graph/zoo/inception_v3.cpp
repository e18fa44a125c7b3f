// Inception-v3 as torchvision/models/inception.py builds it (299x299 input, BasicConv2d =
// conv without bias + batch norm + ReLU), including the auxiliary classifier after
// Mixed_6e, which runs only in training.
#include <fmt/format.h>

#include "graph/zoo.hpp"
#include "graph/zoo/blocks.hpp"

namespace dlsim::graph::zoo {
namespace {

NodeId inception_a(Graph& g, const std::string& p, NodeId in, int64_t pool_features) {
  NodeId b1 = basic_conv(g, p + ".branch1x1", in, conv2d(64, 1));
  NodeId b5 = basic_conv(g, p + ".branch5x5_1", in, conv2d(48, 1));
  b5 = basic_conv(g, p + ".branch5x5_2", b5, conv2d(64, 5, 1, 2));
  NodeId b3 = basic_conv(g, p + ".branch3x3dbl_1", in, conv2d(64, 1));
  b3 = basic_conv(g, p + ".branch3x3dbl_2", b3, conv2d(96, 3, 1, 1));
  b3 = basic_conv(g, p + ".branch3x3dbl_3", b3, conv2d(96, 3, 1, 1));
  NodeId bp = g.pool(p + ".avg_pool", in, avg_pool(3, 1, 1));
  bp = basic_conv(g, p + ".branch_pool", bp, conv2d(pool_features, 1));
  return g.concat(p + ".cat", {b1, b5, b3, bp});
}

NodeId inception_b(Graph& g, const std::string& p, NodeId in) {
  NodeId b3 = basic_conv(g, p + ".branch3x3", in, conv2d(384, 3, 2));
  NodeId bd = basic_conv(g, p + ".branch3x3dbl_1", in, conv2d(64, 1));
  bd = basic_conv(g, p + ".branch3x3dbl_2", bd, conv2d(96, 3, 1, 1));
  bd = basic_conv(g, p + ".branch3x3dbl_3", bd, conv2d(96, 3, 2));
  NodeId bp = g.pool(p + ".max_pool", in, max_pool(3, 2));
  return g.concat(p + ".cat", {b3, bd, bp});
}

NodeId inception_c(Graph& g, const std::string& p, NodeId in, int64_t c7) {
  NodeId b1 = basic_conv(g, p + ".branch1x1", in, conv2d(192, 1));
  NodeId b7 = basic_conv(g, p + ".branch7x7_1", in, conv2d(c7, 1));
  b7 = basic_conv(g, p + ".branch7x7_2", b7, conv2d(c7, 1, 7, 0, 3));
  b7 = basic_conv(g, p + ".branch7x7_3", b7, conv2d(192, 7, 1, 3, 0));
  NodeId bd = basic_conv(g, p + ".branch7x7dbl_1", in, conv2d(c7, 1));
  bd = basic_conv(g, p + ".branch7x7dbl_2", bd, conv2d(c7, 7, 1, 3, 0));
  bd = basic_conv(g, p + ".branch7x7dbl_3", bd, conv2d(c7, 1, 7, 0, 3));
  bd = basic_conv(g, p + ".branch7x7dbl_4", bd, conv2d(c7, 7, 1, 3, 0));
  bd = basic_conv(g, p + ".branch7x7dbl_5", bd, conv2d(192, 1, 7, 0, 3));
  NodeId bp = g.pool(p + ".avg_pool", in, avg_pool(3, 1, 1));
  bp = basic_conv(g, p + ".branch_pool", bp, conv2d(192, 1));
  return g.concat(p + ".cat", {b1, b7, bd, bp});
}

NodeId inception_d(Graph& g, const std::string& p, NodeId in) {
  NodeId b3 = basic_conv(g, p + ".branch3x3_1", in, conv2d(192, 1));
  b3 = basic_conv(g, p + ".branch3x3_2", b3, conv2d(320, 3, 2));
  NodeId b7 = basic_conv(g, p + ".branch7x7x3_1", in, conv2d(192, 1));
  b7 = basic_conv(g, p + ".branch7x7x3_2", b7, conv2d(192, 1, 7, 0, 3));
  b7 = basic_conv(g, p + ".branch7x7x3_3", b7, conv2d(192, 7, 1, 3, 0));
  b7 = basic_conv(g, p + ".branch7x7x3_4", b7, conv2d(192, 3, 2));
  NodeId bp = g.pool(p + ".max_pool", in, max_pool(3, 2));
  return g.concat(p + ".cat", {b3, b7, bp});
}

NodeId inception_e(Graph& g, const std::string& p, NodeId in) {
  NodeId b1 = basic_conv(g, p + ".branch1x1", in, conv2d(320, 1));
  NodeId b3 = basic_conv(g, p + ".branch3x3_1", in, conv2d(384, 1));
  NodeId b3a = basic_conv(g, p + ".branch3x3_2a", b3, conv2d(384, 1, 3, 0, 1));
  NodeId b3b = basic_conv(g, p + ".branch3x3_2b", b3, conv2d(384, 3, 1, 1, 0));
  b3 = g.concat(p + ".branch3x3_cat", {b3a, b3b});
  NodeId bd = basic_conv(g, p + ".branch3x3dbl_1", in, conv2d(448, 1));
  bd = basic_conv(g, p + ".branch3x3dbl_2", bd, conv2d(384, 3, 1, 1));
  NodeId bda = basic_conv(g, p + ".branch3x3dbl_3a", bd, conv2d(384, 1, 3, 0, 1));
  NodeId bdb = basic_conv(g, p + ".branch3x3dbl_3b", bd, conv2d(384, 3, 1, 1, 0));
  bd = g.concat(p + ".branch3x3dbl_cat", {bda, bdb});
  NodeId bp = g.pool(p + ".avg_pool", in, avg_pool(3, 1, 1));
  bp = basic_conv(g, p + ".branch_pool", bp, conv2d(192, 1));
  return g.concat(p + ".cat", {b1, b3, bd, bp});
}

void aux_head(Graph& g, NodeId in) {
  g.set_train_only(true);
  NodeId x = g.pool("AuxLogits.avg_pool", in, avg_pool(5, 3));
  x = basic_conv(g, "AuxLogits.conv0", x, conv2d(128, 1));
  x = basic_conv(g, "AuxLogits.conv1", x, conv2d(768, 5));
  x = g.adaptive_avg_pool("AuxLogits.avgpool", x, 1, 1);
  x = g.flatten("AuxLogits.flatten", x);
  x = g.linear("AuxLogits.fc", x, 1000);
  g.softmax_cross_entropy("AuxLogits.loss", x);
  g.set_train_only(false);
}

}  // namespace

Graph inception_v3() {
  Graph g("inception_v3");
  NodeId x = g.input("input", {3, 299, 299});
  x = basic_conv(g, "Conv2d_1a_3x3", x, conv2d(32, 3, 2));
  x = basic_conv(g, "Conv2d_2a_3x3", x, conv2d(32, 3));
  x = basic_conv(g, "Conv2d_2b_3x3", x, conv2d(64, 3, 1, 1));
  x = g.pool("maxpool1", x, max_pool(3, 2));
  x = basic_conv(g, "Conv2d_3b_1x1", x, conv2d(80, 1));
  x = basic_conv(g, "Conv2d_4a_3x3", x, conv2d(192, 3));
  x = g.pool("maxpool2", x, max_pool(3, 2));
  x = inception_a(g, "Mixed_5b", x, 32);
  x = inception_a(g, "Mixed_5c", x, 64);
  x = inception_a(g, "Mixed_5d", x, 64);
  x = inception_b(g, "Mixed_6a", x);
  x = inception_c(g, "Mixed_6b", x, 128);
  x = inception_c(g, "Mixed_6c", x, 160);
  x = inception_c(g, "Mixed_6d", x, 160);
  x = inception_c(g, "Mixed_6e", x, 192);
  aux_head(g, x);
  x = inception_d(g, "Mixed_7a", x);
  x = inception_e(g, "Mixed_7b", x);
  x = inception_e(g, "Mixed_7c", x);
  x = g.global_pool("avgpool", x);
  x = g.dropout("dropout", x, 0.5);
  x = g.flatten("flatten", x);
  x = g.linear("fc", x, 1000);
  add_loss(g, x);
  return g;
}

}  // namespace dlsim::graph::zoo
