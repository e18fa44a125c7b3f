// The small networks of the studies (../shared/SEEDS.md).
#include "graph/zoo.hpp"
#include "graph/zoo/blocks.hpp"

namespace dlsim::graph::zoo {

// Study B, MNIST: the Keras example examples/mnist_cnn.py (Keras 2.x), which the study's
// description follows layer for layer: 1,199,882 parameters.
Graph keras_mnist() {
  Graph g("keras_mnist");
  NodeId x = g.input("input", {1, 28, 28});
  x = g.relu("conv1.relu", g.conv("conv1", x, conv2d(32, 3, 1, 0, true)));
  x = g.relu("conv2.relu", g.conv("conv2", x, conv2d(64, 3, 1, 0, true)));
  x = g.pool("pool", x, max_pool(2, 2));
  x = g.dropout("dropout1", x, 0.25);
  x = g.flatten("flatten", x);
  x = g.relu("dense1.relu", g.linear("dense1", x, 128));
  x = g.dropout("dropout2", x, 0.5);
  x = g.linear("dense2", x, 10);
  add_loss(g, x);
  return g;
}

// Study B, CIFAR-10: the Keras example examples/cifar10_cnn.py (Keras 2.x): 'same' padding
// on the first convolution of each pair, 'valid' on the second; 1,250,858 parameters.
Graph keras_cifar10() {
  Graph g("keras_cifar10");
  NodeId x = g.input("input", {3, 32, 32});
  x = g.relu("conv1.relu", g.conv("conv1", x, conv2d(32, 3, 1, 1, true)));
  x = g.relu("conv2.relu", g.conv("conv2", x, conv2d(32, 3, 1, 0, true)));
  x = g.pool("pool1", x, max_pool(2, 2));
  x = g.dropout("dropout1", x, 0.25);
  x = g.relu("conv3.relu", g.conv("conv3", x, conv2d(64, 3, 1, 1, true)));
  x = g.relu("conv4.relu", g.conv("conv4", x, conv2d(64, 3, 1, 0, true)));
  x = g.pool("pool2", x, max_pool(2, 2));
  x = g.dropout("dropout2", x, 0.25);
  x = g.flatten("flatten", x);
  x = g.relu("dense1.relu", g.linear("dense1", x, 512));
  x = g.dropout("dropout3", x, 0.5);
  x = g.linear("dense2", x, 10);
  add_loss(g, x);
  return g;
}

// Study C, optimiser comparison: "three 3x3 conv + ReLU + max-pool blocks, dropout, dense
// 10".  The study gives no widths; 32/64/128 channels with 'same' padding are an
// assumption (the common Keras tutorial layout), stated here and in `dlsim model`.
Graph cifar10_3block() {
  Graph g("cifar10_3block");
  g.add_note("channel widths 32/64/128 are assumed: study C does not print them");
  NodeId x = g.input("input", {3, 32, 32});
  const int64_t widths[] = {32, 64, 128};
  int block = 1;
  for (int64_t w : widths) {
    const std::string p = "block" + std::to_string(block++);
    x = g.relu(p + ".relu", g.conv(p + ".conv", x, conv2d(w, 3, 1, 1, true)));
    x = g.pool(p + ".pool", x, max_pool(2, 2));
  }
  x = g.dropout("dropout", x, 0.5);
  x = g.flatten("flatten", x);
  x = g.linear("dense", x, 10);
  add_loss(g, x);
  return g;
}

}  // namespace dlsim::graph::zoo
