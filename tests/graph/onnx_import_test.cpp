// ONNX files exported from torchvision (validation/oracle/export_torchvision.py --onnx,
// initializer payloads stripped) give the zoo model's parameters and multiply-adds.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "graph/cost.hpp"
#include "graph/onnx_import.hpp"
#include "graph/zoo.hpp"

namespace dlsim::graph {
namespace {

std::string onnx_path(const std::string& name) { return DLSIM_SOURCE_DIR "/validation/oracle/onnx/" + name + ".onnx"; }

int64_t batch_norm_channels(const Graph& g) {
  int64_t channels = 0;
  for (const auto& n : g.nodes())
    if (n.kind == OpKind::batch_norm) channels += n.output[0];
  return channels;
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
// one bias per channel, so the count drops by the BN channel count; MACs are unchanged.
TEST_P(OnnxExport, EvalExportFoldsBatchNorm) {
  const Graph zoo_graph = zoo_model(GetParam());
  const auto zoo = model_totals(zoo_graph, 1, DataType::fp32);
  const Graph imported = import_onnx_file(onnx_path(GetParam() + "_eval"));
  const auto onnx = model_totals(imported, 1, DataType::fp32);
  EXPECT_EQ(onnx.params, zoo.params - batch_norm_channels(zoo_graph));
  EXPECT_EQ(onnx.state, 0);
  EXPECT_EQ(onnx.macs_per_sample, zoo.macs_per_sample);
  EXPECT_TRUE(has_note(imported, "batch norm was folded"));
}

INSTANTIATE_TEST_SUITE_P(Torchvision, OnnxExport,
                         ::testing::Values("resnet50", "alexnet", "mobilenet_v2", "googlenet", "vgg11"),
                         [](const auto& info) { return info.param; });

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
