#include <gtest/gtest.h>

#include "perf/features.hpp"
#include "perf/fit.hpp"
#include "signature.hpp"

namespace dlsim::perf {
namespace {

Features conv(const std::string& fields, const std::string& phase = "fwd") {
  return kernel_features(kernels::parse_signature("conv2d fp32 " + fields), phase);
}

TEST(Features, AThreeByThreeStrideOneConvolutionIsWinogradShaped) {
  // 1 image, 2 -> 3 channels, 4x4 padded to a 4x4 output: 2 * 3 * 16 * 2 * 9 FLOPs.
  const Features f = conv("n1 c2 h4 w4 k3 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1");
  EXPECT_DOUBLE_EQ(f.flops, 1728);
  EXPECT_DOUBLE_EQ(feature_value(f, "winograd_flops"), 1728);
  EXPECT_DOUBLE_EQ(feature_value(f, "direct_flops"), 0);
  EXPECT_DOUBLE_EQ(conv("n1 c2 h4 w4 k3 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1", "bwd_weights").winograd_flops, 1728);
}

TEST(Features, OtherConvolutionsAreDirect) {
  for (const char* fields : {"n1 c2 h4 w4 k3 r1 s1 pad0,0,0,0 str1,1 dil1,1 g1",     // 1x1
                             "n1 c2 h4 w4 k3 r3 s3 pad1,1,1,1 str2,2 dil1,1 g1",     // stride 2
                             "n1 c2 h8 w8 k2 r3 s3 pad2,2,2,2 str1,1 dil2,2 g1",     // dilated
                             "n1 c4 h4 w4 k4 r3 s3 pad1,1,1,1 str1,1 dil1,1 g2",     // grouped
                             "n1 c2 h9 w9 k3 r1 s7 pad0,3,0,3 str1,1 dil1,1 g1"}) {  // 1x7
    const Features f = conv(fields);
    EXPECT_GT(f.flops, 0) << fields;
    EXPECT_EQ(f.winograd_flops, 0) << fields;
    EXPECT_DOUBLE_EQ(feature_value(f, "direct_flops"), f.flops) << fields;
  }
}

TEST(Features, OnlyMessagesOfTheLargestMmapThresholdAreMappedAfresh) {
  const auto message = [](int64_t bytes) {
    return kernel_features(kernels::parse_signature("transfer u8 b" + std::to_string(bytes) + " grpc"), "push");
  };
  EXPECT_EQ(message(16 << 20).mapped_bytes, 0);
  EXPECT_EQ(message((32 << 20) - 1).mapped_bytes, 0);
  EXPECT_DOUBLE_EQ(message(32 << 20).mapped_bytes, 32 << 20);
  EXPECT_DOUBLE_EQ(feature_value(message(64 << 20), "mapped_bytes"), 64 << 20);
  EXPECT_EQ(model_features("transfer"), (std::vector<std::string>{"one", "bytes", "mapped_bytes"}));
}

TEST(Features, AConvolutionFitPricesWinogradShapesApart) {
  // A library that runs 3x3 stride-1 filters at 2.25x the nominal rate of the others
  // (Winograd F(2x2, 3x3)): one price per FLOP cannot fit both; the split recovers each.
  std::vector<std::vector<double>> x;
  std::vector<double> seconds;
  for (int n : {1, 8, 32})
    for (int c : {16, 64, 256})
      for (const char* shape : {"r1 s1 pad0,0,0,0", "r3 s3 pad1,1,1,1"}) {
        const Features f = conv("n" + std::to_string(n) + " c" + std::to_string(c) + " h14 w14 k128 " + shape +
                                " str1,1 dil1,1 g1");
        std::vector<double> row;
        for (const auto& name : model_features("conv2d")) row.push_back(feature_value(f, name));
        x.push_back(row);
        seconds.push_back(5e-6 + feature_value(f, "direct_flops") / 4e12 + f.winograd_flops / 9e12 + f.bytes / 500e9);
      }
  const FitModel m = fit_model(x, seconds, model_features("conv2d"));
  ASSERT_EQ(m.features, (std::vector<std::string>{"one", "direct_flops", "winograd_flops", "bytes"}));
  EXPECT_NEAR(m.coefficients[1] * 4e12, 1.0, 1e-6);
  EXPECT_NEAR(m.coefficients[2] * 9e12, 1.0, 1e-6);
  EXPECT_LT(m.loo_error, 1e-6);
}

}  // namespace
}  // namespace dlsim::perf
