// The zoo against an oracle nobody here wrote: torchvision's own modules, exported by
// validation/oracle/export_torchvision.py into torchvision_reference.json (batch 1, eval mode).
#include <algorithm>
#include <cmath>
#include <filesystem>

#include <gtest/gtest.h>

#include "graph/cost.hpp"
#include "graph/zoo.hpp"
#include "torchvision_reference.hpp"

namespace dlsim::graph {
namespace {

class TorchvisionModel : public ::testing::TestWithParam<std::string> {};

TEST_P(TorchvisionModel, ParametersMatchExactly) {
  const auto& ref = torchvision_reference()["models"][GetParam()];
  const Graph g = zoo_model(GetParam());
  const auto totals = model_totals(g, 1, DataType::fp32);
  EXPECT_EQ(totals.params, ref["params"].get<int64_t>());
  EXPECT_EQ(totals.state, ref["bn_running_stats"].get<int64_t>());
}

TEST_P(TorchvisionModel, MultiplyAddsWithinHalfPercent) {
  const auto& ref = torchvision_reference()["models"][GetParam()];
  const auto totals = model_totals(zoo_model(GetParam()), 1, DataType::fp32);
  const double expected = ref["macs"].get<double>();
  const double error = std::abs(static_cast<double>(totals.macs_per_sample) - expected) / expected;
  std::printf("%-14s torchvision %.6g MACs, dlsim %.6g MACs, error %.4f%%\n", GetParam().c_str(), expected,
              static_cast<double>(totals.macs_per_sample), 100 * error);
  EXPECT_LT(error, 0.005);
}

// Every convolution and fully connected layer of the inference path, in execution order,
// has torchvision's module name, output shape and multiply-adds; every other torchvision
// module whose name the zoo uses has the same output shape.
TEST_P(TorchvisionModel, LayersMatchOneToOne) {
  const auto& ref = torchvision_reference()["models"][GetParam()];
  const Graph g = zoo_model(GetParam());
  const auto costs = layer_costs(g, 1, DataType::fp32);
  std::vector<const Node*> ours;
  for (const auto& n : g.nodes())
    if (!n.train_only && (n.kind == OpKind::conv || n.kind == OpKind::linear)) ours.push_back(&n);
  size_t i = 0;
  for (const auto& layer : ref["layers"]) {
    const std::string type = layer["type"];
    Dims shape;
    for (size_t d = 1; d < layer["output_shape"].size(); ++d) shape.push_back(layer["output_shape"][d]);
    if (type == "Conv2d" || type == "Linear") {
      ASSERT_LT(i, ours.size()) << "torchvision has more conv/linear layers, next: " << layer["name"];
      const Node& n = *ours[i++];
      EXPECT_EQ(n.name, layer["name"].get<std::string>());
      EXPECT_EQ(to_string(n.output), to_string(shape)) << n.name;
      EXPECT_EQ(costs[static_cast<size_t>(n.id)].macs, layer["macs"].get<int64_t>()) << n.name;
    } else if (auto id = g.find(layer["name"])) {
      EXPECT_EQ(to_string(g.node(*id).output), to_string(shape)) << layer["name"];
    }
  }
  EXPECT_EQ(i, ours.size()) << "the zoo has more conv/linear layers than torchvision";
}

std::vector<std::string> torchvision_models() {
  std::vector<std::string> names;
  for (const auto& e : zoo_entries())
    if (e.in_torchvision) names.push_back(e.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Zoo, TorchvisionModel, ::testing::ValuesIn(torchvision_models()),
                         [](const auto& info) { return info.param; });

// The reference holds the zoo's torchvision networks and those dlsim knows from their ONNX
// export alone (tests/graph/onnx_import_test.cpp), nothing else.
TEST(Zoo, EveryTorchvisionModelHasAReference) {
  const auto zoo = torchvision_models();
  for (const auto& name : zoo) EXPECT_TRUE(torchvision_reference()["models"].contains(name)) << name;
  for (const auto& [name, entry] : torchvision_reference()["models"].items()) {
    if (std::find(zoo.begin(), zoo.end(), name) == zoo.end()) {
      EXPECT_TRUE(std::filesystem::exists(DLSIM_SOURCE_DIR "/validation/oracle/onnx/" + name + "_train.onnx")) << name;
    }
  }
}

// timm's model card for inception_v4.tf_in1k (huggingface.co/timm/inception_v4.tf_in1k):
// "Params (M): 42.7, GMACs: 12.3, Image size: 299 x 299", 1000 classes.
TEST(Zoo, InceptionV4MatchesTimmPublishedCounts) {
  const auto totals = model_totals(zoo_model("inception_v4"), 1, DataType::fp32);
  std::printf("inception_v4: %lld params (timm: 42.7 M), %.4g GMACs (timm: 12.3)\n",
              static_cast<long long>(totals.params), static_cast<double>(totals.macs_per_sample) / 1e9);
  EXPECT_NEAR(static_cast<double>(totals.params) / 1e6, 42.7, 0.05);
  EXPECT_NEAR(static_cast<double>(totals.macs_per_sample) / 1e9, 12.3, 0.05);
}

// Published counts of the studies' Keras nets (model.summary() of the Keras examples).
TEST(Zoo, StudyNetsMatchKerasSummaries) {
  EXPECT_EQ(model_totals(zoo_model("keras_mnist"), 1, DataType::fp32).params, 1199882);
  EXPECT_EQ(model_totals(zoo_model("keras_cifar10"), 1, DataType::fp32).params, 1250858);
}

// OverFeat's fast model, layer by layer: 231 -> 56 (11x11, stride 4) -> 28 -> 24 (5x5) -> 12
// -> 12 -> 12 -> 12 -> 6, so the first fully connected layer takes 1024 x 6 x 6 inputs.
TEST(Zoo, OverFeatFastMatchesItsLayers) {
  const int64_t params = (3 * 11 * 11 + 1) * 96 + (96 * 5 * 5 + 1) * 256 + (256 * 9 + 1) * 512 +
                         (512 * 9 + 1) * 1024 + (1024 * 9 + 1) * 1024 + (1024 * 6 * 6 + 1) * 3072 +
                         (3072 + 1) * 4096 + (4096 + 1) * 1000;
  EXPECT_EQ(model_totals(zoo_model("overfeat_fast"), 1, DataType::fp32).params, params);
}

TEST(Zoo, ResNet50HasAbout8Point2GflopsPerSample) {
  const auto totals = model_totals(zoo_model("resnet50"), 1, DataType::fp32);
  EXPECT_EQ(totals.params, 25557032);
  EXPECT_DOUBLE_EQ(totals.forward_flops_per_sample, 2.0 * 4089184256);
  EXPECT_NEAR(totals.forward_flops_per_sample / 1e9, 8.2, 0.05);
  EXPECT_GT(totals.forward_other_flops_per_sample, 0);
}

TEST(Zoo, UnknownNameSuggestsTheClosest) {
  EXPECT_FALSE(find_zoo_model("resnet5"));
  try {
    zoo_model("resnet5");
    FAIL();
  } catch (const GraphError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean"), std::string::npos) << e.what();
  }
}

TEST(Zoo, EveryModelBuildsAndEndsInALoss) {
  for (const auto& name : zoo_names()) {
    const Graph g = zoo_model(name);
    EXPECT_EQ(g.nodes().back().kind, OpKind::softmax_cross_entropy) << name;
    EXPECT_GT(model_totals(g, 1, DataType::fp32).params, 0) << name;
  }
}

}  // namespace
}  // namespace dlsim::graph
