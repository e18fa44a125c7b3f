#include <algorithm>
#include <cmath>

#include <fmt/format.h>
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

// PyTorch 1.13's ConvParams::use_mkldnn, case by case.
TEST(Features, PyTorchRunsSmallAndPointwiseConvolutionsItself) {
  const auto native = [](const std::string& fields, int threads) {
    return pytorch_runs_natively(kernels::parse_signature("conv2d fp32 " + fields), threads);
  };
  const std::string pointwise = " c160 h7 w7 k960 r1 s1 pad0,0,0,0 str1,1 dil1,1 g1";
  EXPECT_TRUE(native("n1" + pointwise, 1));
  EXPECT_TRUE(native("n15" + pointwise, 1));
  EXPECT_FALSE(native("n16" + pointwise, 1));  // a batch of 16 goes to oneDNN
  EXPECT_TRUE(native("n1" + pointwise, 2));    // 7,840 input values: small enough
  EXPECT_FALSE(native("n2" + pointwise, 2));
  EXPECT_FALSE(native("n1 c960 h7 w7 k160 r1 s1 pad0,0,0,0 str1,1 dil1,1 g1", 2));   // 47,040 values
  EXPECT_TRUE(native("n1 c160 h7 w7 k160 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1", 2));    // 3x3, small input
  EXPECT_TRUE(native("n1 c160 h7 w7 k160 r1 s7 pad0,3,0,3 str1,1 dil1,1 g1", 2));    // 1x7
  EXPECT_FALSE(native("n1 c160 h7 w7 k160 r5 s5 pad2,2,2,2 str1,1 dil1,1 g1", 2));   // 5x5
  EXPECT_FALSE(native("n1 c160 h7 w7 k160 r3 s3 pad1,1,1,1 str1,1 dil1,1 g160", 1));  // depthwise
  EXPECT_FALSE(native("n1 c256 h14 w14 k512 r1 s1 pad0,0,0,0 str2,2 dil1,1 g1", 1));  // strided, 50,176 values
  EXPECT_FALSE(pytorch_runs_natively(kernels::parse_signature("conv2d bf16 n1" + pointwise), 1));
}

TEST(Features, AConvolutionPyTorchRunsItselfHasNativeFlopsOnlyWhereItDispatched) {
  const auto sig = kernels::parse_signature("conv2d fp32 n1 c2 h4 w4 k3 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1");
  const Features dispatched = kernel_features(sig, "infer", 2);
  EXPECT_DOUBLE_EQ(dispatched.native_flops, 1728);
  EXPECT_DOUBLE_EQ(dispatched.winograd_flops, 0);
  EXPECT_DOUBLE_EQ(feature_value(dispatched, "direct_flops"), 0);
  EXPECT_DOUBLE_EQ(kernel_features(sig, "infer").native_flops, 0);  // oneDNN or a GPU
}

// A pooling costs its window's comparisons as well as its bytes: fitted to stride-2 windows
// alone (ResNet's 3x3, VGG's 2x2), the model prices GoogLeNet's stride-1 3x3 window, four
// times the comparisons of a stride-2 one on the same input.
TEST(Features, APoolingFitPricesAStrideOneWindowByItsComparisons) {
  const auto pool = [](const std::string& fields) {
    return kernel_features(kernels::parse_signature("maxpool fp32 " + fields), "infer");
  };
  const auto cost = [](const Features& f) { return 2e-9 * f.flops + 0.1e-9 * f.bytes; };
  std::vector<std::vector<double>> x;
  std::vector<double> seconds;
  for (int n : {1, 8})
    for (const char* window : {"r3 s3 pad1,1,1,1 str2,2", "r2 s2 pad0,0,0,0 str2,2"})
      for (int c : {64, 256}) {
        const Features f = pool(fmt::format("n{} c{} h56 w56 {}", n, c, window));
        std::vector<double> row;
        for (const auto& name : model_features("maxpool")) row.push_back(feature_value(f, name));
        x.push_back(row);
        seconds.push_back(cost(f));
      }
  const FitModel m = fit_model(x, seconds, model_features("maxpool"));
  const Features stride_one = pool("n1 c192 h28 w28 r3 s3 pad1,1,1,1 str1,1");
  EXPECT_NEAR(stride_one.flops / pool("n1 c192 h28 w28 r3 s3 pad1,1,1,1 str2,2").flops, 4.0, 0.3);
  std::vector<double> row;
  for (const auto& name : m.features) row.push_back(feature_value(stride_one, name));
  EXPECT_NEAR(predict(m, row) / cost(stride_one), 1.0, 0.05);
}

// PyTorch 1.13's cat_out_cpu: one serial loop on one thread or into an output under the
// grain; otherwise a copy per input, parallel where that input reaches the grain.
TEST(Features, AConcatenationCopiesInParallelOnlyTheInputsThatReachTheGrain) {
  const auto copies = [](const std::string& shapes, int threads) {
    return pytorch_parallel_copies(kernels::parse_signature("concat fp32 " + shapes), threads);
  };
  EXPECT_EQ(copies("n1 256x14x14 256x14x14", 2), 2);                    // 50,176 values each
  EXPECT_EQ(copies("n1 256x14x14 256x14x14", 1), 0);                    // one thread: serial
  EXPECT_EQ(copies("n1 32x28x28 32x28x28 32x28x28 32x28x28", 2), 0);    // 25,088 each
  EXPECT_EQ(copies("n8 32x28x28 32x28x28 32x28x28 32x28x28", 2), 4);    // the batch reaches it
  EXPECT_EQ(copies("n1 128x28x28 32x28x28 32x28x28", 2), 1);            // only the first input
  EXPECT_EQ(copies("n1 64x7x7 64x7x7", 2), 0);                          // an output under the grain
  const auto sig = kernels::parse_signature("concat fp32 n1 256x14x14 256x14x14");
  EXPECT_DOUBLE_EQ(kernel_features(sig, "infer_pass_thread", 2).tensors, 2);
  EXPECT_DOUBLE_EQ(kernel_features(sig, "infer_pass_thread").tensors, 0);  // not PyTorch's dispatch
  EXPECT_DOUBLE_EQ(kernel_features(sig, "infer", 2).bytes, kernel_features(sig, "infer").bytes);
  EXPECT_EQ(model_features("concat", true), (std::vector<std::string>{"one", "bytes", "tensors"}));
  EXPECT_EQ(model_features("concat"), (std::vector<std::string>{"one", "bytes"}));
}

TEST(Features, AnOperatorRunsInParallelWhereItsLoopReachesTheGrainOrOneDnnRunsIt) {
  const auto parallel = [](const std::string& text, int threads) {
    return pytorch_runs_in_parallel(kernels::parse_signature(text), threads);
  };
  EXPECT_FALSE(parallel("relu fp32 n1 e19796", 2));   // its caller runs it alone
  EXPECT_TRUE(parallel("relu fp32 n8 e4116", 2));     // 32,928 values: the batch reaches the grain
  EXPECT_FALSE(parallel("relu fp32 n8 e4116", 1));    // one thread runs no team
  EXPECT_FALSE(parallel("relu fp32 n1 e32768", 2));   // the grain itself is not over it
  EXPECT_TRUE(parallel("mul fp32 n1 e89572 c457", 2));  // the product's output decides
  EXPECT_FALSE(parallel("add fp32 n8 e2597 x2", 2));
  EXPECT_TRUE(parallel("global_avgpool fp32 n8 c101 h7 w7 oh1 ow1", 2));  // a mean over 39,592 values
  EXPECT_FALSE(parallel("global_avgpool fp32 n1 c229 h7 w7 oh1 ow1", 2));
  EXPECT_FALSE(parallel("batch_norm fp32 n8 c457 hw3136", 2));  // not an element-wise loop
  // A convolution oneDNN runs opens its parallel regions at any size; one PyTorch runs
  // itself (im2col and a serial BLAS) opens none.
  EXPECT_TRUE(parallel("conv2d fp32 n1 c232 h7 w7 k232 r3 s3 pad1,1,1,1 str1,1 dil1,1 g232", 2));
  EXPECT_FALSE(parallel("conv2d fp32 n1 c232 h7 w7 k232 r3 s3 pad1,1,1,1 str1,1 dil1,1 g232", 1));
  EXPECT_FALSE(parallel("conv2d fp32 n1 c24 h28 w28 k58 r1 s1 pad0,0,0,0 str1,1 dil1,1 g1", 2));  // native
  const auto sig = kernels::parse_signature("relu fp32 n8 e4116");
  EXPECT_DOUBLE_EQ(kernel_features(sig, "infer_pass_thread", 2).parallel, 1);
  EXPECT_DOUBLE_EQ(kernel_features(sig, "infer_pass_thread").parallel, 0);  // not PyTorch's dispatch
  EXPECT_EQ(model_features("relu", true), (std::vector<std::string>{"one", "bytes", "parallel"}));
  EXPECT_EQ(model_features("relu"), (std::vector<std::string>{"one", "bytes"}));
  EXPECT_EQ(model_features("global_avgpool", true), (std::vector<std::string>{"one", "flops", "bytes", "parallel"}));
  EXPECT_EQ(model_features("batch_norm", true), (std::vector<std::string>{"one", "bytes"}));
  EXPECT_EQ(model_features("conv2d", true), (std::vector<std::string>{"one", "direct_flops", "winograd_flops",
                                                                      "native_flops", "bytes", "reduction", "parallel"}));
  EXPECT_EQ(model_features("conv2d"),
            (std::vector<std::string>{"one", "direct_flops", "winograd_flops", "bytes", "reduction"}));
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

// A reference BLAS reads a linear layer's whole weight matrix for every sample: VGG's
// 4096x4096 (67 MB) from memory each time, ResNet's 2048x1000 (8 MB) from cache.
TEST(Features, OnlyALinearLayersWeightsBeyondTheCacheAreStreamedForEverySample) {
  const auto layer = [](const std::string& shape) {
    return kernel_features(kernels::parse_signature("linear fp32 n8 " + shape + " bias"), "infer");
  };
  EXPECT_EQ(layer("in2048 out1000").streamed_flops, 0);
  EXPECT_EQ(layer("in2048 out4096").streamed_flops, 0);  // exactly 32 MiB
  const Features vgg = layer("in4096 out4096");
  EXPECT_DOUBLE_EQ(vgg.streamed_flops, vgg.flops);
  EXPECT_DOUBLE_EQ(feature_value(vgg, "streamed_flops"), 2.0 * 8 * 4096 * 4096);
  EXPECT_DOUBLE_EQ(feature_value(vgg, "unstreamed_bytes"), 4.0 * 8 * (4096 + 4096));  // the activations
  EXPECT_DOUBLE_EQ(feature_value(layer("in2048 out1000"), "unstreamed_bytes"), layer("in2048 out1000").bytes);
  EXPECT_EQ(model_features("linear", true),
            (std::vector<std::string>{"one", "flops", "beyond_l2_flops", "streamed_flops", "unstreamed_bytes"}));
  EXPECT_EQ(model_features("linear"), (std::vector<std::string>{"one", "flops", "bytes"}));  // oneDNN blocks its GEMM
}

// ...and reads it again for every row from a core's L2 while it fits: ConvNeXt-T's 96x384
// (144 KB) and exactly 1 MiB do, 384x1536 (2.25 MiB) does not.
TEST(Features, ALinearLayersWeightsWithinTheL2AreReadFromItForEveryRow) {
  const auto layer = [](const std::string& shape) {
    return kernel_features(kernels::parse_signature("linear fp32 n3136 " + shape + " bias"), "infer_pass");
  };
  EXPECT_EQ(layer("in96 out384").beyond_l2_flops, 0);
  EXPECT_EQ(layer("in512 out512").beyond_l2_flops, 0);
  const Features stage3 = layer("in384 out1536");
  EXPECT_DOUBLE_EQ(feature_value(stage3, "beyond_l2_flops"), 2.0 * 3136 * 384 * 1536);
  EXPECT_EQ(stage3.streamed_flops, 0);
}

// dlsim-gpu-bench's copies and all-reduces: what they move, one rank's buffer for a collective.
TEST(Features, ACopyMovesItsBytesAnAllReduceItsBuffer) {
  const auto copy = kernels::parse_signature("memcpy u8 b4096");
  EXPECT_DOUBLE_EQ(kernel_features(copy, "h2d_pageable").bytes, 4096.0);
  EXPECT_DOUBLE_EQ(elements_written(copy), 4096.0);
  const auto allreduce = kernels::parse_signature("allreduce fp32 e1024 g8");
  EXPECT_DOUBLE_EQ(kernel_features(allreduce, "nccl").bytes, 4096.0);
  EXPECT_DOUBLE_EQ(elements_written(allreduce), 1024.0);
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
  ASSERT_EQ(m.features, (std::vector<std::string>{"one", "direct_flops", "winograd_flops", "bytes", "reduction"}));
  EXPECT_NEAR(m.coefficients[1] * 4e12, 1.0, 1e-6);
  EXPECT_NEAR(m.coefficients[2] * 9e12, 1.0, 1e-6);
  EXPECT_LT(m.loo_error, 1e-6);
}

TEST(Features, TheReductionIsEachPhasesGemmDepth) {
  // 2 images, 8 -> 6 channels in 2 groups, 3x3 filters, 5x5 -> 3x3 outputs.
  const std::string fields = "n2 c8 h5 w5 k6 r3 s3 pad0,0,0,0 str1,1 dil1,1 g2";
  EXPECT_DOUBLE_EQ(feature_value(conv(fields, "fwd"), "reduction"), 4 * 9);          // C/g x R x S
  EXPECT_DOUBLE_EQ(feature_value(conv(fields, "bwd_data"), "reduction"), 3 * 9);     // K/g x R x S
  EXPECT_DOUBLE_EQ(feature_value(conv(fields, "bwd_weights"), "reduction"), 2 * 9);  // N x OH x OW
}

TEST(Features, TrainingBatchNormReadsItsInputTwiceInferenceOnce) {
  const auto bn = kernels::parse_signature("batch_norm fp32 n2 c3 hw4");  // 24 elements, 96 bytes each way
  EXPECT_DOUBLE_EQ(kernel_features(bn, "fwd").bytes, 3 * 96.0);       // statistics, then normalise and write
  EXPECT_DOUBLE_EQ(kernel_features(bn, "bwd_data").bytes, 5 * 96.0);  // input and gradient twice, write
  EXPECT_DOUBLE_EQ(kernel_features(bn, "infer").bytes, 2 * 96.0);     // stored statistics
  for (const char* phase : {kInferOnRequestThread, kInferInPass, kInferInPassOnRequestThread, kInferInPassTakingTurns,
                            kInferInPassSharedCore})
    EXPECT_DOUBLE_EQ(kernel_features(bn, phase).bytes, 2 * 96.0) << phase;
  const auto relu = kernels::parse_signature("relu fp32 n2 e12");
  EXPECT_DOUBLE_EQ(kernel_features(relu, "infer").bytes, kernel_features(relu, "fwd").bytes);
  EXPECT_DOUBLE_EQ(kernel_features(relu, "bwd_data").bytes, 3 * 96.0);
}

TEST(Features, AProductByOneFactorPerChannelMovesTheTensorAndTheFactors) {
  const auto mul = kernels::parse_signature("mul fp32 n2 e12 c3");  // 24 elements, 96 bytes; 6 factors, 24 bytes
  EXPECT_DOUBLE_EQ(kernel_features(mul, "fwd").flops, 24.0);
  EXPECT_DOUBLE_EQ(kernel_features(mul, "fwd").bytes, 2 * 96.0 + 24);       // read x and y, write x * y
  EXPECT_DOUBLE_EQ(kernel_features(mul, "infer").bytes, 2 * 96.0 + 24);
  EXPECT_DOUBLE_EQ(kernel_features(mul, "bwd_data").bytes, 4 * 96.0 + 48);  // g twice, x, dx; y and dy
  EXPECT_DOUBLE_EQ(elements_written(mul), 24.0);
}

TEST(Features, AWaveFloorMakesSmallBatchesOfDeepLayersCostMoreThanTheirFlops) {
  // A GPU that computes a kernel's outputs in waves: at least one wave, whose time grows
  // with the reduction, however few the outputs.  Fitted on batches 1 to 256 (the small
  // ones at the floor, the large ones at the FLOP rate), the model prices a shape it never
  // saw at the floor within 10% (3.5%); one price per FLOP and one intercept miss it by
  // more than twice as much (49%).
  const auto timed = [](const Features& f) { return std::max(8e-8 * f.reduction, f.flops / 5e12) + 5e-6; };
  std::vector<std::vector<double>> x, x_without;
  std::vector<double> seconds;
  const std::vector<std::string> without = {"one", "direct_flops", "winograd_flops", "bytes"};
  for (int n : {1, 2, 4, 8, 64, 256})
    for (int c : {32, 128, 512, 2048}) {
      const Features f = conv("n" + std::to_string(n) + " c" + std::to_string(c) +
                              " h7 w7 k256 r1 s1 pad0,0,0,0 str1,1 dil1,1 g1");
      std::vector<double> row, row_without;
      for (const auto& name : model_features("conv2d")) row.push_back(feature_value(f, name));
      for (const auto& name : without) row_without.push_back(feature_value(f, name));
      x.push_back(row);
      x_without.push_back(row_without);
      seconds.push_back(timed(f));
    }
  const FitModel with_floor = fit_model(x, seconds, model_features("conv2d"));
  const FitModel flops_only = fit_model(x_without, seconds, without);
  const Features unseen = conv("n4 c1024 h7 w7 k256 r1 s1 pad0,0,0,0 str1,1 dil1,1 g1");
  const auto error = [&](const FitModel& m) {
    std::vector<double> row;
    for (const auto& name : m.features) row.push_back(feature_value(unseen, name));
    return std::abs(predict(m, row) / timed(unseen) - 1);
  };
  EXPECT_LT(error(with_floor), 0.10);
  EXPECT_GT(error(flops_only), 2 * error(with_floor));
}

}  // namespace
}  // namespace dlsim::perf
