// ResNet-18/34 (basic blocks) and 50/101/152 (bottlenecks, v1.5: the stride sits in the
// 3x3 convolution), as torchvision/models/resnet.py builds them.
#include <fmt/format.h>

#include "graph/zoo.hpp"
#include "graph/zoo/blocks.hpp"

namespace dlsim::graph::zoo {
namespace {

NodeId conv_bn(Graph& g, const std::string& conv, const std::string& bn, NodeId in, const ConvAttrs& a) {
  return g.batch_norm(bn, g.conv(conv, in, a));
}

NodeId basic_block(Graph& g, const std::string& p, NodeId in, int64_t planes, int stride, bool downsample) {
  NodeId x = conv_bn(g, p + ".conv1", p + ".bn1", in, conv2d(planes, 3, stride, 1));
  x = g.relu(p + ".relu1", x);
  x = conv_bn(g, p + ".conv2", p + ".bn2", x, conv2d(planes, 3, 1, 1));
  NodeId identity = in;
  if (downsample) identity = conv_bn(g, p + ".downsample.0", p + ".downsample.1", in, conv2d(planes, 1, stride));
  x = g.add(p + ".add", {x, identity});
  return g.relu(p + ".relu2", x);
}

NodeId bottleneck(Graph& g, const std::string& p, NodeId in, int64_t planes, int stride, bool downsample) {
  NodeId x = conv_bn(g, p + ".conv1", p + ".bn1", in, conv2d(planes, 1));
  x = g.relu(p + ".relu1", x);
  x = conv_bn(g, p + ".conv2", p + ".bn2", x, conv2d(planes, 3, stride, 1));
  x = g.relu(p + ".relu2", x);
  x = conv_bn(g, p + ".conv3", p + ".bn3", x, conv2d(planes * 4, 1));
  NodeId identity = in;
  if (downsample)
    identity = conv_bn(g, p + ".downsample.0", p + ".downsample.1", in, conv2d(planes * 4, 1, stride));
  x = g.add(p + ".add", {x, identity});
  return g.relu(p + ".relu3", x);
}

}  // namespace

Graph resnet(int depth) {
  std::vector<int> blocks;
  bool bottlenecks = true;
  switch (depth) {
    case 18: blocks = {2, 2, 2, 2}; bottlenecks = false; break;
    case 34: blocks = {3, 4, 6, 3}; bottlenecks = false; break;
    case 50: blocks = {3, 4, 6, 3}; break;
    case 101: blocks = {3, 4, 23, 3}; break;
    case 152: blocks = {3, 8, 36, 3}; break;
    default: throw GraphError(fmt::format("ResNet has no depth {}; expected 18, 34, 50, 101 or 152", depth));
  }
  const int expansion = bottlenecks ? 4 : 1;
  Graph g(fmt::format("resnet{}", depth));
  NodeId x = g.input("input", {3, 224, 224});
  x = conv_bn(g, "conv1", "bn1", x, conv2d(64, 7, 2, 3));
  x = g.relu("relu", x);
  x = g.pool("maxpool", x, max_pool(3, 2, 1));
  int64_t in_channels = 64;
  for (int stage = 0; stage < 4; ++stage) {
    const int64_t planes = int64_t{64} << stage;
    for (int b = 0; b < blocks[static_cast<size_t>(stage)]; ++b) {
      const int stride = (stage > 0 && b == 0) ? 2 : 1;
      const bool downsample = b == 0 && (stride != 1 || in_channels != planes * expansion);
      const std::string prefix = fmt::format("layer{}.{}", stage + 1, b);
      x = bottlenecks ? bottleneck(g, prefix, x, planes, stride, downsample)
                      : basic_block(g, prefix, x, planes, stride, downsample);
      in_channels = planes * expansion;
    }
  }
  x = g.global_pool("avgpool", x);
  x = g.flatten("flatten", x);
  x = g.linear("fc", x, 1000);
  add_loss(g, x);
  return g;
}

}  // namespace dlsim::graph::zoo
