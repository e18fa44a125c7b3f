#pragma once
// The model zoo: every network dlsim knows by name.  Names are torchvision's where
// torchvision has the network (resnet50, vgg16, inception_v3, ...); the builders use
// torchvision's module names for their layers, so a layer can be compared one to one.

#include <optional>
#include <string>
#include <vector>

#include "graph/graph.hpp"

namespace dlsim::graph {

struct ZooEntry {
  std::string name;
  std::string description;  // one line, with the reference it follows
  bool in_torchvision = false;
};

const std::vector<ZooEntry>& zoo_entries();
std::vector<std::string> zoo_names();

// Builds the named network; nullopt when the name is unknown.
std::optional<Graph> find_zoo_model(const std::string& name);
// Builds the named network; throws GraphError naming the closest zoo name.
Graph zoo_model(const std::string& name);

namespace zoo {
Graph alexnet();
Graph overfeat_fast();
Graph vgg(int depth);
Graph resnet(int depth);
Graph inception_v3();
Graph inception_v4();
Graph googlenet();
Graph mobilenet_v2();
Graph keras_mnist();
Graph keras_cifar10();
Graph cifar10_3block();
}  // namespace zoo

}  // namespace dlsim::graph
