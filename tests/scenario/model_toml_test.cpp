#include <gtest/gtest.h>

#include "core/error.hpp"
#include "graph/cost.hpp"
#include "graph/zoo.hpp"
#include "scenario/model_source.hpp"

namespace dlsim::scenario {
namespace {

// The CIFAR-10 Keras net written as a model file gives the zoo's numbers.
TEST(ModelToml, LayerListEqualsTheZooNet) {
  const auto g = parse_model_toml(R"(
name = "cifar"
input = [3, 32, 32]
[[layer]]
op = "conv"
out_channels = 32
kernel = 3
padding = 1
bias = true
[[layer]]
op = "relu"
[[layer]]
op = "conv"
out_channels = 32
kernel = 3
bias = true
[[layer]]
op = "relu"
[[layer]]
op = "maxpool"
kernel = 2
[[layer]]
op = "dropout"
p = 0.25
[[layer]]
op = "conv"
out_channels = 64
kernel = 3
padding = 1
bias = true
[[layer]]
op = "relu"
[[layer]]
op = "conv"
out_channels = 64
kernel = [3, 3]
bias = true
[[layer]]
op = "relu"
[[layer]]
op = "maxpool"
kernel = 2
[[layer]]
op = "flatten"
[[layer]]
op = "linear"
out_features = 512
[[layer]]
op = "relu"
[[layer]]
op = "linear"
out_features = 10
)", "cifar.toml");
  const auto ours = graph::model_totals(g, 1, graph::DataType::fp32);
  const auto zoo = graph::model_totals(graph::zoo_model("keras_cifar10"), 1, graph::DataType::fp32);
  EXPECT_EQ(ours.params, zoo.params);
  EXPECT_EQ(ours.macs_per_sample, zoo.macs_per_sample);
}

TEST(ModelToml, BranchesByName) {
  const auto g = parse_model_toml(R"(
input = [8, 4, 4]
[[layer]]
name = "a"
op = "conv"
out_channels = 8
kernel = 1
[[layer]]
name = "b"
op = "conv"
input = "input"
out_channels = 8
kernel = [1, 1]
[[layer]]
op = "add"
inputs = ["a", "b"]
[[layer]]
op = "concat"
inputs = ["a", "b", "add2"]
)", "branches.toml");
  EXPECT_EQ(g.nodes().back().output, (graph::Dims{24, 4, 4}));
}

// A ShuffleNet unit: half the channels pass, half go through a convolution; the halves
// are joined and shuffled.
TEST(ModelToml, ShuffleNetUnit) {
  const auto g = parse_model_toml(R"(
input = [8, 4, 4]
[[layer]]
name = "left"
op = "slice"
begin = 0
end = 4
[[layer]]
name = "right"
op = "slice"
input = "input"
begin = 4
end = 8
[[layer]]
name = "mixed"
op = "conv"
out_channels = 4
kernel = 1
[[layer]]
op = "concat"
inputs = ["left", "mixed"]
[[layer]]
op = "channel_shuffle"
groups = 2
)", "shuffle.toml");
  EXPECT_EQ(g.nodes().back().kind, graph::OpKind::channel_shuffle);
  EXPECT_EQ(g.nodes().back().output, (graph::Dims{8, 4, 4}));
  EXPECT_EQ(g.node(1).output, (graph::Dims{4, 4, 4}));
}

TEST(ModelToml, ZooNamesAndFilesResolve) {
  EXPECT_EQ(load_model("vgg16").name(), "vgg16");
  EXPECT_THROW(load_model("vgg17"), InputError);
  EXPECT_EQ(load_model(DLSIM_SOURCE_DIR "/scenarios/models/study_c_cifar10_3block.toml").name(), "cifar10_3block");
}

}  // namespace
}  // namespace dlsim::scenario
