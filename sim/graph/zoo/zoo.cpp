#include "graph/zoo.hpp"

#include <functional>

#include <fmt/format.h>

#include "core/suggest.hpp"

namespace dlsim::graph {
namespace {

struct Builder {
  ZooEntry entry;
  std::function<Graph()> build;
};

const std::vector<Builder>& builders() {
  static const std::vector<Builder> all = {
      {{"alexnet", "AlexNet, torchvision's one-GPU variant (Krizhevsky 2014, 'One weird trick')", true}, zoo::alexnet},
      {{"overfeat_fast", "OverFeat's fast model (Sermanet et al. 2014), 231x231, as convnet-benchmarks", false},
       zoo::overfeat_fast},
      {{"vgg11", "VGG-11, configuration A (Simonyan & Zisserman 2015)", true}, [] { return zoo::vgg(11); }},
      {{"vgg13", "VGG-13, configuration B", true}, [] { return zoo::vgg(13); }},
      {{"vgg16", "VGG-16, configuration D", true}, [] { return zoo::vgg(16); }},
      {{"vgg19", "VGG-19, configuration E", true}, [] { return zoo::vgg(19); }},
      {{"resnet18", "ResNet-18 (He et al. 2016)", true}, [] { return zoo::resnet(18); }},
      {{"resnet34", "ResNet-34", true}, [] { return zoo::resnet(34); }},
      {{"resnet50", "ResNet-50 v1.5 (stride in the 3x3 convolution), as torchvision", true},
       [] { return zoo::resnet(50); }},
      {{"resnet101", "ResNet-101 v1.5", true}, [] { return zoo::resnet(101); }},
      {{"resnet152", "ResNet-152 v1.5", true}, [] { return zoo::resnet(152); }},
      {{"inception_v3", "Inception-v3 (Szegedy et al. 2016), 299x299, with the auxiliary head (training only)", true},
       zoo::inception_v3},
      {{"inception_v4", "Inception-v4 (Szegedy et al. 2017), 299x299, as timm's inception_v4", false},
       zoo::inception_v4},
      {{"googlenet", "GoogLeNet (Szegedy et al. 2015) with batch norm, as torchvision, no auxiliary heads", true},
       zoo::googlenet},
      {{"mobilenet_v2", "MobileNet-v2 (Sandler et al. 2018), width 1.0", true}, zoo::mobilenet_v2},
      {{"keras_mnist", "Study B's MNIST net: the Keras mnist_cnn example", false}, zoo::keras_mnist},
      {{"keras_cifar10", "Study B's CIFAR-10 net: the Keras cifar10_cnn example", false}, zoo::keras_cifar10},
      {{"cifar10_3block", "Study C's optimiser-comparison net: three conv-ReLU-pool blocks and a dense layer", false},
       zoo::cifar10_3block},
  };
  return all;
}

}  // namespace

const std::vector<ZooEntry>& zoo_entries() {
  static const std::vector<ZooEntry> entries = [] {
    std::vector<ZooEntry> out;
    for (const auto& b : builders()) out.push_back(b.entry);
    return out;
  }();
  return entries;
}

std::vector<std::string> zoo_names() {
  std::vector<std::string> names;
  for (const auto& e : zoo_entries()) names.push_back(e.name);
  return names;
}

std::optional<Graph> find_zoo_model(const std::string& name) {
  for (const auto& b : builders())
    if (b.entry.name == name) return b.build();
  return std::nullopt;
}

Graph zoo_model(const std::string& name) {
  if (auto g = find_zoo_model(name)) return std::move(*g);
  throw GraphError(fmt::format("unknown model '{}' ({})", name, suggest(name, zoo_names())));
}

}  // namespace dlsim::graph
