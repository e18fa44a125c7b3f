#include <cmath>

#include <gtest/gtest.h>

#include "perf/gpu_roofline.hpp"

namespace dlsim::perf {
namespace {

// Two made-up GPUs with round numbers: b has twice a's SMs and peak, 1.5x its bandwidth,
// and tensor cores.
const GpuRates a{"a", 10, 10e12, 20e12, 0, 0, 500e9};
const GpuRates b{"b", 20, 20e12, 40e12, 80e12, 160e12, 750e9};

kernels::Signature sig(const std::string& text) { return kernels::parse_signature(text); }

TEST(GpuRoofline, PeakFollowsTheDataTypeAndTensorCores) {
  EXPECT_DOUBLE_EQ(peak_flops(a, "fp32"), 10e12);
  EXPECT_DOUBLE_EQ(peak_flops(a, "tf32"), 10e12);   // no TF32 tensor cores: fp32
  EXPECT_DOUBLE_EQ(peak_flops(a, "fp16"), 20e12);   // non-tensor fp16, faster than fp32
  EXPECT_DOUBLE_EQ(peak_flops(b, "tf32"), 80e12);
  EXPECT_DOUBLE_EQ(peak_flops(b, "fp16"), 160e12);
}

TEST(GpuRoofline, BigConvolutionScalesWithPeakAndBigReluWithBandwidth) {
  const auto conv = sig("conv2d fp32 n64 c256 h56 w56 k256 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1");
  EXPECT_FALSE(gpu_roofline(conv, "fwd", a).memory_bound());
  EXPECT_NEAR(carry_factor(conv, "fwd", a, b), 0.5, 1e-12);
  const auto relu = sig("relu fp32 n64 e802816");
  EXPECT_TRUE(gpu_roofline(relu, "fwd", a).memory_bound());
  // 2 tensors x 4 bytes x 51.4M elements at 500 GB/s, in 25088 whole blocks of 256 threads
  // over 10 SMs x 8 resident blocks: 314 waves, 313.6 exactly.
  const double waves = 64.0 * 802816 / 256 / 80;
  EXPECT_NEAR(gpu_roofline(relu, "fwd", a).memory_s, 8.0 * 64 * 802816 / 500e9 * std::ceil(waves) / waves, 1e-12);
  EXPECT_NEAR(carry_factor(relu, "fwd", a, b), 500.0 / 750 * (std::ceil(waves / 2) / (waves / 2)) /
                                                   (std::ceil(waves) / waves), 1e-9);
}

TEST(GpuRoofline, OneBlockKernelScalesWithWhatOneWaveDoes) {
  // 256 elements: one block on either GPU, a single partial wave; time = bytes / (bandwidth per
  // wave slot), so the GPU with twice the SMs but 1.5x the bandwidth is slower per block.
  const auto tiny = sig("relu fp32 n1 e256");
  EXPECT_DOUBLE_EQ(thread_blocks(tiny, "fwd"), 1.0);
  EXPECT_NEAR(carry_factor(tiny, "fwd", a, b), (20.0 / 750e9) / (10.0 / 500e9), 1e-9);
}

TEST(GpuRoofline, LibraryKernelsHaveNoFixedLaunch) {
  EXPECT_EQ(thread_blocks(sig("linear fp32 n32 in4096 out4096 bias"), "fwd"), 0.0);
  EXPECT_GT(thread_blocks(sig("maxpool fp32 n32 c64 h112 w112 r3 s3 pad1,1,1,1 str2,2"), "fwd"), 0.0);
}

TEST(GpuRoofline, AGlobalPoolReducesEachPlaneWithABlockAndItsBackwardWritesEveryPixel) {
  const auto squeeze = sig("global_avgpool fp32 n8 c32 h112 w112 oh1 ow1");
  EXPECT_DOUBLE_EQ(thread_blocks(squeeze, "fwd"), 256.0);  // 8 x 32 planes
  EXPECT_DOUBLE_EQ(thread_blocks(squeeze, "bwd_data"), 8.0 * 32 * 112 * 112 / 256);
  const auto window = sig("maxpool fp32 n8 c64 h112 w112 r3 s3 pad1,1,1,1 str2,2");  // 8x64x56x56 outputs
  EXPECT_DOUBLE_EQ(thread_blocks(window, "fwd"), 8.0 * 64 * 56 * 56 / 256);
  EXPECT_DOUBLE_EQ(thread_blocks(window, "bwd_data"), 8.0 * 64 * 112 * 112 / 256);
  // 12.8 MB read by 256 blocks on a GPU of 80 block slots: 4 waves, 3.2 of them busy.
  EXPECT_NEAR(gpu_roofline(squeeze, "fwd", a).memory_s, 4.0 * (8 * 32 * 112 * 112 + 256) / 500e9 * 4 / 3.2, 1e-12);
}

TEST(GpuRoofline, StreamingKernelsMoveBytesAtTheSustainedRateLibraryKernelsAtThePeak) {
  GpuRates sustained = a;
  sustained.stream_bandwidth_Bps = 400e9;  // 80% of the 500 GB/s peak
  const auto relu = sig("relu fp32 n64 e802816");
  EXPECT_NEAR(gpu_roofline(relu, "fwd", sustained).memory_s / gpu_roofline(relu, "fwd", a).memory_s, 1.25, 1e-12);
  const auto conv = sig("conv2d fp32 n64 c64 h56 w56 k64 r1 s1 pad0,0,0,0 str1,1 dil1,1 g1");
  EXPECT_DOUBLE_EQ(gpu_roofline(conv, "fwd", sustained).memory_s, gpu_roofline(conv, "fwd", a).memory_s);
}

TEST(GpuRoofline, HalfPrecisionMovesHalfTheBytes) {
  const auto fp32 = sig("relu fp32 n64 e802816"), fp16 = sig("relu fp16 n64 e802816");
  EXPECT_NEAR(gpu_roofline(fp16, "fwd", b).memory_s / gpu_roofline(fp32, "fwd", b).memory_s, 0.5, 1e-12);
}

}  // namespace
}  // namespace dlsim::perf
