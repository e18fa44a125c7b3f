// GoogLeNet as torchvision/models/googlenet.py builds it: batch-normalised BasicConv2d,
// ceil-mode max pooling, and (as torchvision does, unlike the paper) a 3x3 convolution in
// the "5x5" branch.  The auxiliary heads are not part of torchvision's published model.
#include <fmt/format.h>

#include "graph/zoo.hpp"
#include "graph/zoo/blocks.hpp"

namespace dlsim::graph::zoo {
namespace {

struct InceptionWidths {
  int64_t b1, b2_reduce, b2, b3_reduce, b3, pool_proj;
};

NodeId inception(Graph& g, const std::string& p, NodeId in, const InceptionWidths& w) {
  NodeId b1 = basic_conv(g, p + ".branch1", in, conv2d(w.b1, 1));
  NodeId b2 = basic_conv(g, p + ".branch2.0", in, conv2d(w.b2_reduce, 1));
  b2 = basic_conv(g, p + ".branch2.1", b2, conv2d(w.b2, 3, 1, 1));
  NodeId b3 = basic_conv(g, p + ".branch3.0", in, conv2d(w.b3_reduce, 1));
  b3 = basic_conv(g, p + ".branch3.1", b3, conv2d(w.b3, 3, 1, 1));
  NodeId b4 = g.pool(p + ".branch4.0", in, max_pool(3, 1, 1, true));
  b4 = basic_conv(g, p + ".branch4.1", b4, conv2d(w.pool_proj, 1));
  return g.concat(p + ".cat", {b1, b2, b3, b4});
}

}  // namespace

Graph googlenet() {
  Graph g("googlenet");
  NodeId x = g.input("input", {3, 224, 224});
  x = basic_conv(g, "conv1", x, conv2d(64, 7, 2, 3));
  x = g.pool("maxpool1", x, max_pool(3, 2, 0, true));
  x = basic_conv(g, "conv2", x, conv2d(64, 1));
  x = basic_conv(g, "conv3", x, conv2d(192, 3, 1, 1));
  x = g.pool("maxpool2", x, max_pool(3, 2, 0, true));
  x = inception(g, "inception3a", x, {64, 96, 128, 16, 32, 32});
  x = inception(g, "inception3b", x, {128, 128, 192, 32, 96, 64});
  x = g.pool("maxpool3", x, max_pool(3, 2, 0, true));
  x = inception(g, "inception4a", x, {192, 96, 208, 16, 48, 64});
  x = inception(g, "inception4b", x, {160, 112, 224, 24, 64, 64});
  x = inception(g, "inception4c", x, {128, 128, 256, 24, 64, 64});
  x = inception(g, "inception4d", x, {112, 144, 288, 32, 64, 64});
  x = inception(g, "inception4e", x, {256, 160, 320, 32, 128, 128});
  x = g.pool("maxpool4", x, max_pool(2, 2, 0, true));
  x = inception(g, "inception5a", x, {256, 160, 320, 32, 128, 128});
  x = inception(g, "inception5b", x, {384, 192, 384, 48, 128, 128});
  x = g.global_pool("avgpool", x);
  x = g.flatten("flatten", x);
  x = g.dropout("dropout", x, 0.2);
  x = g.linear("fc", x, 1000);
  add_loss(g, x);
  return g;
}

}  // namespace dlsim::graph::zoo
