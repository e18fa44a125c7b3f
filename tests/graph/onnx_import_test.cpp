// ONNX files exported from torchvision (validation/oracle/export_torchvision.py --onnx,
// initializer payloads stripped) give the zoo model's parameters and multiply-adds.
#include <map>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "graph/cost.hpp"
#include "graph/kernel_signature.hpp"
#include "graph/onnx_import.hpp"
#include "graph/zoo.hpp"
#include "torchvision_reference.hpp"

namespace dlsim::graph {
namespace {

std::string onnx_path(const std::string& name) { return DLSIM_SOURCE_DIR "/validation/oracle/onnx/" + name + ".onnx"; }

int64_t batch_norm_channels(const Graph& g) {
  int64_t channels = 0;
  for (const auto& n : g.nodes())
    if (n.kind == OpKind::batch_norm && !n.train_only) channels += n.output[0];
  return channels;
}

// Parameters of the auxiliary heads, which an eval export leaves out.
int64_t train_only_params(const Graph& g) {
  const auto costs = layer_costs(g, 1, DataType::fp32);
  int64_t params = 0;
  for (const auto& n : g.nodes())
    if (n.train_only) params += costs[static_cast<size_t>(n.id)].params;
  return params;
}

bool has_note(const Graph& g, const std::string& text) {
  for (const auto& note : g.notes())
    if (note.find(text) != std::string::npos) return true;
  return false;
}

class OnnxExport : public ::testing::TestWithParam<std::string> {};

TEST_P(OnnxExport, TrainingExportEqualsZooModel) {
  const auto zoo = model_totals(zoo_model(GetParam()), 1, DataType::fp32);
  const Graph imported = import_onnx_file(onnx_path(GetParam() + "_train"));
  const auto onnx = model_totals(imported, 1, DataType::fp32);
  EXPECT_EQ(onnx.params, zoo.params);
  EXPECT_EQ(onnx.state, zoo.state);
  EXPECT_EQ(onnx.macs_per_sample, zoo.macs_per_sample);
  EXPECT_FALSE(has_note(imported, "exported for inference"));
}

// Eval-mode exports fold batch norm into the convolutions: each BN's gamma and beta become
// one bias per channel, so the count drops by the BN channel count (and by an auxiliary
// head's parameters, which inference does not run); MACs are unchanged.
TEST_P(OnnxExport, EvalExportFoldsBatchNorm) {
  const Graph zoo_graph = zoo_model(GetParam());
  const auto zoo = model_totals(zoo_graph, 1, DataType::fp32);
  const Graph imported = import_onnx_file(onnx_path(GetParam() + "_eval"));
  const auto onnx = model_totals(imported, 1, DataType::fp32);
  EXPECT_EQ(onnx.params, zoo.params - batch_norm_channels(zoo_graph) - train_only_params(zoo_graph));
  EXPECT_EQ(onnx.state, 0);
  EXPECT_EQ(onnx.macs_per_sample, zoo.macs_per_sample);
  EXPECT_TRUE(has_note(imported, "batch norm was folded"));
}

INSTANTIATE_TEST_SUITE_P(Torchvision, OnnxExport,
                         ::testing::Values("resnet50", "alexnet", "mobilenet_v2", "googlenet", "vgg11", "inception_v3"),
                         [](const auto& info) { return info.param; });

// Networks the zoo does not have, known to dlsim from their export alone: squeeze-and-
// excitation products, SiLU and hard swish written as a gate times its input, a mean over
// the pixels, zero padding.  The training export has torchvision's parameters, running
// statistics and multiply-adds exactly.
class OnnxOnly : public ::testing::TestWithParam<std::string> {};

TEST_P(OnnxOnly, TrainingExportEqualsTorchvision) {
  const auto& ref = torchvision_reference()["models"][GetParam()];
  const auto totals = model_totals(import_onnx_file(onnx_path(GetParam() + "_train")), 1, DataType::fp32);
  EXPECT_EQ(totals.params, ref["params"].get<int64_t>());
  EXPECT_EQ(totals.state, ref["bn_running_stats"].get<int64_t>());
  EXPECT_EQ(totals.macs_per_sample, ref["macs"].get<int64_t>());
}

INSTANTIATE_TEST_SUITE_P(Torchvision, OnnxOnly,
                         ::testing::Values("efficientnet_b0", "mobilenet_v3_large", "regnet_y_400mf", "densenet121",
                                           "mnasnet1_0", "resnext101_32x4d", "shufflenet_v2_x1_0", "squeezenet1_1",
                                           "mobilenet_v3_small", "mnasnet0_5", "regnet_x_400mf", "shufflenet_v2_x0_5",
                                           "convnext_tiny", "convnext_small"),
                         [](const auto& info) { return info.param; });

std::map<std::string, int> operator_counts(const Graph& g) {
  std::map<std::string, int> counts;
  for (const auto& n : g.nodes()) ++counts[op_label(n.kind, n.attrs)];
  return counts;
}

// EfficientNet-B0: 16 blocks, each with a squeeze-and-excitation (a sigmoid gate times the
// block's features), and SiLU everywhere else (49, x * sigmoid(x) in the export).
TEST(OnnxImport, GatesTimesTheirOwnInputAreOneActivation) {
  auto counts = operator_counts(import_onnx_file(onnx_path("efficientnet_b0_train")));
  EXPECT_EQ(counts["silu"], 49);
  EXPECT_EQ(counts["sigmoid"], 16);
  EXPECT_EQ(counts["mul"], 16);
  counts = operator_counts(import_onnx_file(onnx_path("mobilenet_v3_large_train")));
  EXPECT_EQ(counts["hardswish"], 21);
  EXPECT_EQ(counts["hardsigmoid"], 8);
  EXPECT_EQ(counts["mul"], 8);
}

// ConvNeXt-T: a stem, 18 blocks and three downsamplings, each with a layer norm (exported at
// opset 13 as a chain of seven nodes, a scale and a shift) over the channels of a channels-
// last view (Transposes, views in PyTorch too); each block's two linear layers run over every
// position, its exact GELU (Div, Erf, Add, Mul, Mul) is one kernel, and its layer scale is a
// trainable factor per channel.  The classifier's layer norm normalises a 768x1x1 map.
TEST(OnnxImport, ConvNeXtBlocksAreLayerNormsAndLinearLayersOverEachPosition) {
  const Graph g = import_onnx_file(onnx_path("convnext_tiny_train"));
  const auto counts = operator_counts(g);
  EXPECT_EQ(counts.at("layer_norm"), 23);
  EXPECT_EQ(counts.at("linear"), 37);
  EXPECT_EQ(counts.at("gelu"), 18);
  EXPECT_EQ(counts.at("mul"), 18);
  EXPECT_EQ(counts.at("add"), 18);
  const auto first = g.find("/features/features.1/features.1.0/block/block.3/MatMul");
  ASSERT_TRUE(first);
  EXPECT_EQ(g.node(*first).output, (Dims{384, 56, 56}));
  EXPECT_EQ(kernel_signature(g, g.node(*first), 2, DataType::fp32), "linear fp32 n6272 in96 out384 bias");
  const auto scale = g.find("/features/features.1/features.1.0/Mul");
  ASSERT_TRUE(scale);
  EXPECT_EQ(kernel_signature(g, g.node(*scale), 1, DataType::fp32), "mul fp32 n1 e301056 c96");
  const auto norm = g.find("/features/features.1/features.1.0/block/block.2/Add_1");
  ASSERT_TRUE(norm);
  EXPECT_EQ(kernel_signature(g, g.node(*norm), 1, DataType::fp32), "layer_norm fp32 n1 c96 hw3136");
}

// torch.onnx names every graph "torch_jit"; the file's name says which network it is.
// Inception-v3's training export has the auxiliary classifier as a second output: it runs
// in training only, as in the zoo, and each output gets the loss the export leaves out
// ("loss", "/AuxLogits/fc/Gemm.loss").  Its pools' padding comes from Pad nodes, zeros
// that the average counts (avg_pool2d's count_include_pad).
TEST(OnnxImport, InceptionAuxiliaryHeadAndPaddedPools) {
  const Graph g = import_onnx_file(onnx_path("inception_v3_train"));
  int aux = 0;
  for (const auto& n : g.nodes()) {
    EXPECT_EQ(n.train_only, n.name.find("AuxLogits") != std::string::npos || n.name == "loss") << n.name;
    aux += n.train_only && n.name != "loss";
  }
  EXPECT_EQ(aux, 11);  // pool, two convolutions with batch norm and ReLU, pool, flatten, linear, loss
  const auto pool = g.find("/Mixed_5b/AveragePool");
  ASSERT_TRUE(pool);
  const auto& attrs = std::get<PoolAttrs>(g.node(*pool).attrs);
  EXPECT_EQ(attrs.window.pad_top, 1);
  EXPECT_EQ(attrs.window.pad_right, 1);
  EXPECT_TRUE(attrs.count_include_pad);
  EXPECT_EQ(g.node(*pool).output, (Dims{192, 35, 35}));
}

// ShuffleNet-v2: each of its 16 units shuffles the channels of its two branches joined
// (Reshape, Transpose, Reshape in the export: one copy in PyTorch), and the 13 that do not
// downsample split their input in halves (torch.chunk: two Slices whose bounds the export
// computes from the input's Shape).
TEST(OnnxImport, ShuffleNetShufflesAndSplits) {
  const auto counts = operator_counts(import_onnx_file(onnx_path("shufflenet_v2_x1_0_train")));
  EXPECT_EQ(counts.at("channel_shuffle"), 16);
  EXPECT_EQ(counts.at("slice"), 26);
  EXPECT_EQ(counts.at("concat"), 16);
}

TEST(OnnxImport, ATorchExportIsNamedAfterItsFile) {
  EXPECT_EQ(import_onnx_file(onnx_path("efficientnet_b0_train")).name(), "efficientnet_b0_train");
}

// The issue's own figures: ResNet-50 trains 25,557,032 parameters plus 53,120 running
// statistics; its eval export holds 25,507,944 initializer elements.
TEST(OnnxImport, ResNet50InitializerCounts) {
  EXPECT_TRUE(has_note(import_onnx_file(onnx_path("resnet50_train")), "hold 25610152 elements"));
  EXPECT_TRUE(has_note(import_onnx_file(onnx_path("resnet50_eval")), "hold 25507944 elements"));
}

TEST(OnnxImport, GarbageIsAnInputError) {
  try {
    import_onnx_bytes("this is not protobuf \xff\xff\xff", "broken.onnx");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("broken.onnx"), std::string::npos);
  }
}

TEST(OnnxImport, MissingFileIsAnInputError) {
  EXPECT_THROW(import_onnx_file("/nonexistent/model.onnx"), InputError);
}

}  // namespace
}  // namespace dlsim::graph
