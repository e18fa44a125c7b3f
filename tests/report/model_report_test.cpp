#include <algorithm>

#include <gtest/gtest.h>

#include "graph/zoo.hpp"
#include "report/model_report.hpp"

namespace dlsim::report {
namespace {

TEST(ModelReport, JsonCarriesTheFixedKeysAndOneEntryPerLayer) {
  const auto g = graph::zoo_model("keras_mnist");
  const auto j = model_json(g, 4, graph::DataType::fp32);
  EXPECT_EQ(j["params"], 1199882);
  EXPECT_EQ(j["layers"].size(), g.nodes().size());
  EXPECT_EQ(j["layers"][1]["output_shape"], nlohmann::ordered_json({4, 32, 26, 26}));
  EXPECT_EQ(j["layers"][1]["kernel"], "conv2d fp32 n4 c1 h28 w28 k32 r3 s3 pad0,0,0,0 str1,1 dil1,1 g1 bias");
  EXPECT_DOUBLE_EQ(j["forward_flops_per_sample"].get<double>(), 2.0 * j["forward_macs_per_sample"].get<double>());
}

TEST(ModelReport, CsvHasAHeaderAndARowPerLayer) {
  const auto g = graph::zoo_model("cifar10_3block");
  const std::string csv = model_text(g, 2, graph::DataType::fp16, Format::csv);
  EXPECT_EQ(csv.rfind("name,op,output_shape", 0), 0u);
  EXPECT_EQ(static_cast<size_t>(std::count(csv.begin(), csv.end(), '\n')), g.nodes().size() + 1);
  EXPECT_NE(csv.find("conv2d fp16 n2"), std::string::npos);
}

TEST(ModelReport, TableStatesAssumptionsAsNotes) {
  const auto text = model_text(graph::zoo_model("cifar10_3block"), 1, graph::DataType::fp32, Format::table);
  EXPECT_NE(text.find("note: channel widths 32/64/128 are assumed"), std::string::npos);
}

}  // namespace
}  // namespace dlsim::report

namespace dlsim::report {
namespace {

TEST(ModelReport, KernelListHasEachSignatureOnceAndTheOptimizers) {
  const std::string list = model_text(graph::zoo_model("resnet50"), 8, graph::DataType::fp32, Format::kernels);
  // ResNet-50 repeats its blocks: far fewer distinct kernels than layers.
  const auto lines = static_cast<size_t>(std::count(list.begin(), list.end(), '\n'));
  EXPECT_LT(lines, graph::zoo_model("resnet50").nodes().size() / 2);
  EXPECT_NE(list.find("\nconv2d fp32 n8 c64 h56 w56 k64 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1\n"), std::string::npos);
  EXPECT_NE(list.find("\nsgd_momentum fp32 p25557032 t161 max2359296\n"), std::string::npos);
  EXPECT_NE(list.find("\nadam fp32 p25557032 t161 max2359296\n"), std::string::npos);
}

}  // namespace
}  // namespace dlsim::report
