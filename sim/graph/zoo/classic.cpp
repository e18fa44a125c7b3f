// AlexNet and VGG, layer for layer as torchvision builds them
// (torchvision/models/alexnet.py, vgg.py): convolutions with bias, ReLU, max pooling,
// an adaptive average pool, then the dropout/linear classifier.
#include <fmt/format.h>

#include "graph/zoo.hpp"
#include "graph/zoo/blocks.hpp"

namespace dlsim::graph::zoo {

Graph alexnet() {
  Graph g("alexnet");
  NodeId x = g.input("input", {3, 224, 224});
  x = g.conv("features.0", x, conv2d(64, 11, 4, 2, true));
  x = g.relu("features.1", x);
  x = g.pool("features.2", x, max_pool(3, 2));
  x = g.conv("features.3", x, conv2d(192, 5, 1, 2, true));
  x = g.relu("features.4", x);
  x = g.pool("features.5", x, max_pool(3, 2));
  x = g.conv("features.6", x, conv2d(384, 3, 1, 1, true));
  x = g.relu("features.7", x);
  x = g.conv("features.8", x, conv2d(256, 3, 1, 1, true));
  x = g.relu("features.9", x);
  x = g.conv("features.10", x, conv2d(256, 3, 1, 1, true));
  x = g.relu("features.11", x);
  x = g.pool("features.12", x, max_pool(3, 2));
  x = g.adaptive_avg_pool("avgpool", x, 6, 6);
  x = g.flatten("flatten", x);
  x = g.dropout("classifier.0", x, 0.5);
  x = g.linear("classifier.1", x, 4096);
  x = g.relu("classifier.2", x);
  x = g.dropout("classifier.3", x, 0.5);
  x = g.linear("classifier.4", x, 4096);
  x = g.relu("classifier.5", x);
  x = g.linear("classifier.6", x, 1000);
  add_loss(g, x);
  return g;
}

// OverFeat's fast model (Sermanet et al. 2014) as convnet-benchmarks times it
// (torch7/imagenet_winners/overfeat.lua): 231x231 inputs, unpadded 11x11 and 5x5
// convolutions, 2x2 max pools, three fully connected layers and no dropout.
Graph overfeat_fast() {
  Graph g("overfeat_fast");
  NodeId x = g.input("input", {3, 231, 231});
  x = g.relu("features.1", g.conv("features.0", x, conv2d(96, 11, 4, 0, true)));
  x = g.pool("features.2", x, max_pool(2, 2));
  x = g.relu("features.4", g.conv("features.3", x, conv2d(256, 5, 1, 0, true)));
  x = g.pool("features.5", x, max_pool(2, 2));
  x = g.relu("features.7", g.conv("features.6", x, conv2d(512, 3, 1, 1, true)));
  x = g.relu("features.9", g.conv("features.8", x, conv2d(1024, 3, 1, 1, true)));
  x = g.relu("features.11", g.conv("features.10", x, conv2d(1024, 3, 1, 1, true)));
  x = g.pool("features.12", x, max_pool(2, 2));
  x = g.flatten("flatten", x);
  x = g.relu("classifier.1", g.linear("classifier.0", x, 3072));
  x = g.relu("classifier.3", g.linear("classifier.2", x, 4096));
  x = g.linear("classifier.4", x, 1000);
  add_loss(g, x);
  return g;
}

Graph vgg(int depth) {
  // Channels per stage; 0 is a max pool.  Configurations A, B, D, E of the VGG paper.
  std::vector<int> cfg;
  switch (depth) {
    case 11: cfg = {64, 0, 128, 0, 256, 256, 0, 512, 512, 0, 512, 512, 0}; break;
    case 13: cfg = {64, 64, 0, 128, 128, 0, 256, 256, 0, 512, 512, 0, 512, 512, 0}; break;
    case 16: cfg = {64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0}; break;
    case 19:
      cfg = {64, 64, 0, 128, 128, 0, 256, 256, 256, 256, 0, 512, 512, 512, 512, 0, 512, 512, 512, 512, 0};
      break;
    default: throw GraphError(fmt::format("VGG has no depth {}; expected 11, 13, 16 or 19", depth));
  }
  Graph g(fmt::format("vgg{}", depth));
  NodeId x = g.input("input", {3, 224, 224});
  int index = 0;
  for (int channels : cfg) {
    if (channels == 0) {
      x = g.pool(fmt::format("features.{}", index++), x, max_pool(2, 2));
    } else {
      x = g.conv(fmt::format("features.{}", index++), x, conv2d(channels, 3, 1, 1, true));
      x = g.relu(fmt::format("features.{}", index++), x);
    }
  }
  x = g.adaptive_avg_pool("avgpool", x, 7, 7);
  x = g.flatten("flatten", x);
  x = g.linear("classifier.0", x, 4096);
  x = g.relu("classifier.1", x);
  x = g.dropout("classifier.2", x, 0.5);
  x = g.linear("classifier.3", x, 4096);
  x = g.relu("classifier.4", x);
  x = g.dropout("classifier.5", x, 0.5);
  x = g.linear("classifier.6", x, 1000);
  add_loss(g, x);
  return g;
}

}  // namespace dlsim::graph::zoo
