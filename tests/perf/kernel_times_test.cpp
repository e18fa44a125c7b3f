#include <gtest/gtest.h>

#include "core/error.hpp"
#include "perf/gpu_roofline.hpp"
#include "perf/kernel_times.hpp"
#include "signature.hpp"

namespace dlsim::perf {
namespace {

// relu timed at batch 2 and 8 on one thread, at batch 2 on two; a relu model fitted.
Profile relu_profile() {
  Profile p;
  p.measured[{"relu fp32 n2 e8", "fwd", 1}] = {10e-6, 9e-6, 11e-6, 5};
  p.measured[{"relu fp32 n8 e8", "fwd", 1}] = {40e-6, 39e-6, 41e-6, 5};
  p.measured[{"relu fp32 n2 e8", "fwd", 2}] = {6e-6, 6e-6, 6e-6, 5};
  p.measured[{"relu fp32 n8 e8", "fwd", 2}] = {24e-6, 24e-6, 24e-6, 5};
  // bytes of a relu forward: 2 tensors x 4 bytes x elements; 128 bytes take 10 us
  p.fits.push_back({"relu", "fp32", "fwd", 1, {"one", "bytes"}, {0, 10e-6 / 128}, 0.2, 2});
  p.fits.push_back({"relu", "fp32", "fwd", 2, {"one", "bytes"}, {0, 6e-6 / 128}, 0.2, 2});
  return p;
}

TEST(KernelTimes, MeasuredInterpolatedFitted) {
  const Profile p = relu_profile();
  const KernelTimes times(p, {});
  const Answer measured = times.time("relu fp32 n2 e8", "fwd", 1);
  EXPECT_EQ(measured.source, Source::measured);
  EXPECT_DOUBLE_EQ(measured.seconds, 10e-6);
  EXPECT_NEAR(measured.rel_error, 2e-6 / (2 * 1.2816 * 10e-6), 1e-9);

  const Answer between = times.time("relu fp32 n4 e8", "fwd", 1);
  EXPECT_EQ(between.source, Source::interpolated);
  EXPECT_NEAR(between.seconds, 20e-6, 1e-12);

  // Beyond the timed batches: the nearest timing, carried by the model's ratio.
  const Answer beyond = times.time("relu fp32 n16 e8", "fwd", 1);
  EXPECT_EQ(beyond.source, Source::fitted);
  EXPECT_NEAR(beyond.seconds, 80e-6, 1e-12);
  EXPECT_DOUBLE_EQ(beyond.rel_error, 0.2);

  // Another shape: the model alone.
  const Answer other = times.time("relu fp32 n1 e64", "fwd", 1);
  EXPECT_EQ(other.source, Source::fitted);
  EXPECT_NEAR(other.seconds, 40e-6, 1e-12);
}

// A kernel priced from others keeps the cores busy as its operator's timed kernels did
// (the median CPU time over wall time of those timed with it); where none was, unknown.
TEST(KernelTimes, APricedKernelKeepsTheCoresBusyAsItsOperatorsTimedKernelsDid) {
  Profile p = relu_profile();
  const KernelTimes untimed_cpu(p, {});
  EXPECT_EQ(untimed_cpu.time("relu fp32 n1 e64", "fwd", 2).cpu_seconds, 0);
  p.measured[{"relu fp32 n2 e8", "fwd", 2}].cpu_s = 7.2e-6;    // 1.2 cores
  p.measured[{"relu fp32 n8 e8", "fwd", 2}].cpu_s = 43.2e-6;   // 1.8 cores
  p.measured[{"relu fp32 n4 e16", "fwd", 2}] = {10e-6, 10e-6, 10e-6, 5, 10.5e-6};  // 1.05 cores
  const KernelTimes times(p, {});
  const Answer fitted = times.time("relu fp32 n1 e64", "fwd", 2);
  EXPECT_EQ(fitted.source, Source::fitted);
  EXPECT_NEAR(fitted.cpu_seconds, fitted.seconds * 1.2, 1e-15);
  const Answer between = times.time("relu fp32 n4 e8", "fwd", 2);
  EXPECT_EQ(between.source, Source::interpolated);
  EXPECT_NEAR(between.cpu_seconds, between.seconds * 1.2, 1e-15);
  EXPECT_DOUBLE_EQ(times.time("relu fp32 n8 e8", "fwd", 2).cpu_seconds, 43.2e-6);  // timed: its own
  EXPECT_EQ(times.time("relu fp32 n1 e64", "fwd", 1).cpu_seconds, 0);  // one thread: none timed with it
}

TEST(KernelTimes, AnActivationNeverTimedIsPricedAsTheReluOnItsElements) {
  // ReLU6 and tanh read and write every element once, as the ReLU the profile fitted
  // does; an operator of another kind is not priced so.
  const Profile p = relu_profile();
  const KernelTimes times(p, {});
  EXPECT_EQ(times.priced_as("relu6"), "relu");
  EXPECT_EQ(times.priced_as("softmax"), "softmax");
  const Answer a = times.time("relu6 fp32 n1 e64", "fwd", 1);
  EXPECT_EQ(a.source, Source::scaled);
  EXPECT_NEAR(a.seconds, times.time("relu fp32 n1 e64", "fwd", 1).seconds, 1e-15);
  EXPECT_GT(a.rel_error, times.time("relu fp32 n1 e64", "fwd", 1).rel_error);
  EXPECT_NE(a.basis.find("relu6 priced as the relu of the same shape"), std::string::npos) << a.basis;
  // A concatenation of two 4x8 tensors copies 64 elements, as a ReLU on 64 reads and writes.
  EXPECT_EQ(times.priced_as("concat"), "relu");
  EXPECT_NEAR(times.time("concat fp32 n1 4x8 4x8", "fwd", 1).seconds, times.time("relu fp32 n1 e64", "fwd", 1).seconds,
              1e-15);
  Profile timed = p;
  timed.fits.push_back({"relu6", "fp32", "fwd", 1, {"one"}, {5e-6}, 0, 3});
  EXPECT_EQ(KernelTimes(timed, {}).priced_as("relu6"), "relu6");
}

// ShuffleNetV2's channel shuffle and EfficientNet's squeeze-and-excite product (one value
// per channel) read and write each element once, as the ReLU does; a product of two whole
// tensors reads both, as the addition does.  Neither stands in once timed itself.
TEST(KernelTimes, AShuffleOrAProductNeverTimedIsPricedAsTheOperatorMovingItsElementsSo) {
  Profile p = relu_profile();
  p.fits.push_back({"add", "fp32", "fwd", 1, {"one", "bytes"}, {0, 20e-6 / 128}, 0.2, 2});
  const KernelTimes times(p, {});
  const double relu_s = times.time("relu fp32 n1 e64", "fwd", 1).seconds;
  EXPECT_EQ(times.priced_as("channel_shuffle fp32 n1 c4 hw16 g2"), "relu");
  EXPECT_NEAR(times.time("channel_shuffle fp32 n1 c4 hw16 g2", "fwd", 1).seconds, relu_s, 1e-15);
  EXPECT_EQ(times.priced_as("mul fp32 n1 e64 c4"), "relu");
  const Answer scaled = times.time("mul fp32 n1 e64 c4", "fwd", 1);
  EXPECT_NEAR(scaled.seconds, relu_s, 1e-15);
  EXPECT_EQ(scaled.source, Source::scaled);
  EXPECT_NE(scaled.basis.find("mul priced as the relu of the same shape"), std::string::npos) << scaled.basis;
  EXPECT_EQ(times.priced_as("mul fp32 n1 e64 c64"), "add");
  EXPECT_NEAR(times.time("mul fp32 n1 e64 c64", "fwd", 1).seconds, times.time("add fp32 n1 e64 x2", "fwd", 1).seconds,
              1e-15);
  EXPECT_GT(times.time("mul fp32 n1 e64 c64", "fwd", 1).seconds, relu_s);
  Profile timed = p;
  timed.fits.push_back({"mul", "fp32", "fwd", 1, {"one"}, {5e-6}, 0, 3});
  EXPECT_EQ(KernelTimes(timed, {}).priced_as("mul fp32 n1 e64 c4"), "mul");
  EXPECT_EQ(KernelTimes(relu_profile(), {}).priced_as("mul fp32 n1 e64 c64"), "mul");  // no addition to stand in
}

// An average pooling nobody timed sums the windows a max pooling of its shape compares
// (Inception-v3's 3x3 stride-1 averages in a profile of ResNets and VGG): priced as it,
// flagged scaled.  Timed itself, its own.
TEST(KernelTimes, AnAveragePoolingNeverTimedIsPricedAsTheMaxPoolingOfItsShape) {
  const std::string window = " c8 h8 w8 r3 s3 pad1,1,1,1 str1,1";
  Profile p;
  p.measured[{"maxpool fp32 n1" + window, "infer", 1}] = {30e-6, 29e-6, 31e-6, 5};
  const KernelTimes times(p, {});
  EXPECT_EQ(times.priced_as("avgpool"), "maxpool");
  const Answer a = times.time("avgpool fp32 n1" + window, "infer", 1);
  EXPECT_EQ(a.source, Source::scaled);
  EXPECT_DOUBLE_EQ(a.seconds, 30e-6);
  EXPECT_NE(a.basis.find("avgpool priced as the maxpool of the same shape"), std::string::npos) << a.basis;
  Profile timed = p;
  timed.measured[{"avgpool fp32 n1" + window, "infer", 1}] = {20e-6, 20e-6, 20e-6, 5};
  EXPECT_EQ(KernelTimes(timed, {}).priced_as("avgpool"), "avgpool");
  EXPECT_DOUBLE_EQ(KernelTimes(timed, {}).time("avgpool fp32 n1" + window, "infer", 1).seconds, 20e-6);
}

// A profile may time average poolings for inference alone (calibrate_cpu_machine.sh's grid,
// a third of a max pooling's time on the Granite Rapids VM): training's phases, which it
// never timed, are still priced as the max pooling's, not refused.
TEST(KernelTimes, AnAveragePoolingTimedForInferenceAloneTrainsAsTheMaxPooling) {
  const std::string window = " c8 h8 w8 r3 s3 pad1,1,1,1 str1,1";
  Profile p;
  p.measured[{"maxpool fp32 n1" + window, "infer", 1}] = {30e-6, 29e-6, 31e-6, 5};
  p.measured[{"maxpool fp32 n1" + window, "fwd", 1}] = {40e-6, 39e-6, 41e-6, 5};
  p.measured[{"avgpool fp32 n1" + window, "infer", 1}] = {10e-6, 10e-6, 10e-6, 5};
  const KernelTimes times(p, {});
  EXPECT_EQ(times.priced_as("avgpool"), "avgpool");
  EXPECT_EQ(times.priced_as("avgpool", "infer"), "avgpool");
  EXPECT_EQ(times.priced_as("avgpool", "fwd"), "maxpool");
  EXPECT_DOUBLE_EQ(times.time("avgpool fp32 n1" + window, "infer", 1).seconds, 10e-6);
  const Answer fwd = times.time("avgpool fp32 n1" + window, "fwd", 1);
  EXPECT_EQ(fwd.source, Source::scaled);
  EXPECT_DOUBLE_EQ(fwd.seconds, 40e-6);
}

// A convolution PyTorch runs itself at batch 1 on two threads runs on one: no team's fit
// learned it, and the one-thread timing prices it.  Batches PyTorch sends to oneDNN are
// not interpolated with it.
TEST(KernelTimes, AConvolutionPyTorchRunsItselfOnATeamIsPricedOnOneThread) {
  const std::string shape = " c160 h7 w7 k960 r1 s1 pad0,0,0,0 str1,1 dil1,1 g1";
  Profile p;
  p.framework.kernels_from = "framework";
  p.framework.name = "pytorch-1.13.0-cpu-ops";
  p.measured[{"conv2d fp32 n1" + shape, "infer", 1}] = {2.6e-3, 2.5e-3, 2.7e-3, 5};
  p.measured[{"conv2d fp32 n2" + shape, "infer", 2}] = {0.2e-3, 0.2e-3, 0.2e-3, 5};
  p.measured[{"conv2d fp32 n8" + shape, "infer", 2}] = {0.8e-3, 0.8e-3, 0.8e-3, 5};
  p.measured[{"conv2d fp32 n8" + shape, "infer", 1}] = {21e-3, 21e-3, 21e-3, 5};
  p.measured[{"conv2d fp32 n16" + shape, "infer", 1}] = {3e-3, 3e-3, 3e-3, 5};
  const KernelTimes times(p, {});
  const Answer team = times.time("conv2d fp32 n1" + shape, "infer", 2);
  EXPECT_DOUBLE_EQ(team.seconds, 2.6e-3);
  EXPECT_NE(team.basis.find("one thread of the 2"), std::string::npos) << team.basis;
  // Batch 12 on one thread lies between a native timing (8) and oneDNN's (16): the native
  // one alone carries it, which without a model to carry it leaves no basis.
  EXPECT_THROW(times.time("conv2d fp32 n12" + shape, "infer", 1), UnrunnableError);
  EXPECT_EQ(times.time("conv2d fp32 n4" + shape, "infer", 2).source, Source::interpolated);
  p.framework.name = "onednn";  // another framework: no such rule
  EXPECT_THROW(KernelTimes(p, {}).time("conv2d fp32 n1" + shape, "infer", 2), UnrunnableError);
}

// A PyTorch CPU profile that timed one kernel in the model's phase and fitted the model.
Profile pytorch_profile(const std::string& timed, const FitModel& model) {
  Profile p;
  p.framework.kernels_from = "framework";
  p.framework.name = "pytorch-1.13.0-cpu-ops";
  p.measured[{timed, model.phase, model.threads}] = {9e-6, 9e-6, 9e-6, 5};
  p.fits.push_back(model);
  return p;
}

// A two-thread concatenation model fitted on PyTorch's dispatch prices each input copied in
// a parallel region of its own (inputs reaching the grain), not those copied serially.
TEST(KernelTimes, AConcatenationModelPricesTheInputsCopiedInParallel) {
  const Profile p = pytorch_profile("concat fp32 n1 64x7x7 64x7x7", {"concat", "fp32", "infer_thread", 2,
                                                                    {"one", "bytes", "tensors"}, {1e-6, 4e-11, 100e-6},
                                                                    0.2, 27});
  const KernelTimes times(p, {});
  const double bytes = 4.0 * 2 * 2 * 50176;  // two inputs of 50,176 values, read and written
  EXPECT_NEAR(times.time("concat fp32 n1 256x14x14 256x14x14", "infer_thread", 2).seconds,
              1e-6 + 4e-11 * bytes + 2 * 100e-6, 1e-12);
  EXPECT_NEAR(times.time("concat fp32 n1 128x14x14 128x14x14 128x14x14 128x14x14", "infer_thread", 2).seconds,
              1e-6 + 4e-11 * bytes, 1e-12);  // each input under the grain: one serial loop
}

// An element-wise model fitted on PyTorch's dispatch prices a team's parallel region only
// where the operator runs one (over the grain of 32,768 values).
TEST(KernelTimes, AnElementWiseModelPricesTheTeamOnlyWhereOneRuns) {
  const Profile p = pytorch_profile("relu fp32 n1 e8", {"relu", "fp32", "infer_pass_thread", 2,
                                                        {"one", "bytes", "parallel"}, {5e-6, 3e-11, 70e-6}, 0.2, 97});
  const KernelTimes times(p, {});
  EXPECT_NEAR(times.time("relu fp32 n1 e19796", "infer_pass_thread", 2).seconds, 5e-6 + 3e-11 * 8 * 19796, 1e-12);
  EXPECT_NEAR(times.time("relu fp32 n8 e4116", "infer_pass_thread", 2).seconds, 5e-6 + 3e-11 * 8 * 32928 + 70e-6,
              1e-12);  // over the grain: a team's parallel region
  // An activation nobody timed is priced by the ReLU's model, team and all.
  EXPECT_NEAR(times.time("silu fp32 n1 e89572", "infer_pass_thread", 2).seconds, 5e-6 + 3e-11 * 8 * 89572 + 70e-6,
              1e-12);
}

TEST(KernelTimes, NoBasisIsAnErrorUnlessTheFallbackIsAllowed) {
  const Profile p = relu_profile();
  EXPECT_THROW(KernelTimes(p, {}).time("softmax fp32 n2 e8", "fwd", 1), UnrunnableError);
  LookupOptions options;
  options.allow_fallback = true;
  options.fallback_flops_per_s = 1e9;
  options.fallback_bytes_per_s = 1e9;
  const Answer a = KernelTimes(p, options).time("softmax fp32 n2 e8", "fwd", 1);
  EXPECT_EQ(a.source, Source::fallback);
  EXPECT_NEAR(a.seconds, 128 / 1e9, 1e-15);  // bytes dominate: 128 B at 1 GB/s
  EXPECT_DOUBLE_EQ(a.rel_error, 1.0);
}

TEST(KernelTimes, UntimedThreadCountsFollowAmdahl) {
  const Profile p = relu_profile();
  const Answer a = KernelTimes(p, {}).time("relu fp32 n2 e8", "fwd", 4);
  // serial fraction f = (6/10 * 2 - 1) / (2 - 1) = 0.2; T(4) = 10 us (0.2 + 0.8 / 4)
  EXPECT_EQ(a.source, Source::scaled);
  EXPECT_NEAR(a.seconds, 4e-6, 1e-12);
}

TEST(KernelTimes, AnotherCpuScalesByItsRatios) {
  const Profile p = relu_profile();
  LookupOptions options;
  options.cpu = CpuScaling{2.0, 1.5, "test", 0, 0, "target"};
  const Answer a = KernelTimes(p, options).time("relu fp32 n2 e8", "fwd", 1);
  EXPECT_EQ(a.source, Source::scaled);
  EXPECT_NEAR(a.seconds, 15e-6, 1e-12);  // memory-bound: the clock ratio
}

// 1 MiB of first_touch's pages, written fresh on one thread in 400 us on the profile's CPU.
const std::string kPages = "first_touch fp32 n256 e1024";
Profile fresh_pages_profile() {
  Profile p;
  p.measured[{kPages, "fresh", 1}] = {400e-6, 400e-6, 400e-6, 5};
  return p;
}

// A target CPU whose catalog measured one thread writing fresh pages: 1 MiB in 2 ms.
LookupOptions on_target_writing_fresh_pages() {
  LookupOptions options;
  options.cpu = CpuScaling{2.0, 1.5, "test", 0, 1048576 / 2e-3, "target"};
  return options;
}

// A target CPU whose catalog measured its fresh pages' write rate prices first_touch's fresh
// phase from it (two threads keeping the profile's ratio to one); the warm phase, with no
// such figure, goes by the clocks, and so does a warm rate without a fresh one.
TEST(KernelTimes, AnotherCpusMeasuredWriteRatePricesItsFreshPages) {
  Profile p = fresh_pages_profile();
  const std::string& sig = kPages;
  p.measured[{sig, "fresh", 2}] = {250e-6, 250e-6, 250e-6, 5};
  p.measured[{sig, "warm", 1}] = {40e-6, 40e-6, 40e-6, 5};
  LookupOptions options = on_target_writing_fresh_pages();
  const KernelTimes times(p, options);
  const Answer one = times.time(sig, "fresh", 1);
  EXPECT_EQ(one.source, Source::scaled);
  EXPECT_NEAR(one.seconds, 2e-3, 1e-12);
  EXPECT_NE(one.basis.find("pages written fresh on target at its measured 0.52 GB/s"), std::string::npos) << one.basis;
  EXPECT_NEAR(times.time(sig, "fresh", 2).seconds, 250e-6 * 2e-3 / 400e-6, 1e-12);
  EXPECT_NEAR(times.time(sig, "warm", 1).seconds, 40e-6 * 1.5, 1e-12);
  options.cpu = CpuScaling{2.0, 1.5, "test", 1048576 / 1e-3, 0, "warm only"};
  EXPECT_NEAR(KernelTimes(p, options).time(sig, "warm", 1).seconds, 40e-6 * 1.5, 1e-12);
}

// A page's price inside passes goes to the target as the profile's fresh page on one thread does.
TEST(KernelTimes, APagesPriceInsidePassesGoesAsAFreshPage) {
  Profile p = fresh_pages_profile();
  const std::string& sig = kPages;
  p.measured[{sig, "in_pass", 1}] = {500e-6, 500e-6, 500e-6, 5};
  p.measured[{sig, "in_pass", 2}] = {300e-6, 300e-6, 300e-6, 5};
  const KernelTimes times(p, on_target_writing_fresh_pages());
  const Answer one = times.time(sig, "in_pass", 1);
  EXPECT_NEAR(one.seconds, 500e-6 * 2e-3 / 400e-6, 1e-12);
  EXPECT_NE(one.basis.find("pages written fresh on target"), std::string::npos) << one.basis;
  EXPECT_NEAR(times.time(sig, "in_pass", 2).seconds, 300e-6 * 2e-3 / 400e-6, 1e-12);
}

TEST(KernelTimes, APhaseTheProfileNeverSawIsKnownAbsent) {
  const Profile p = relu_profile();
  const KernelTimes times(p, {});
  EXPECT_TRUE(times.known_absent("relu fp32 n4 e8", "reorder_src", 1));
  EXPECT_FALSE(times.known_absent("relu fp32 n4 e8", "fwd", 1));
  EXPECT_FALSE(times.known_absent("relu fp32 n4 e99", "reorder_src", 1));
}

// A GPU profile that timed one convolution in fp32 on GPU "a".
Profile conv_profile() {
  Profile p;
  p.device = "gpu";
  p.gpu = "a";
  p.measured[{"conv2d fp32 n64 c256 h56 w56 k256 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1", "fwd", 1}] = {
      10e-3, 10e-3, 10e-3, 1};
  return p;
}

const GpuRates gpu_a{"a", 10, 10e12, 20e12, 0, 0, 500e9};
const GpuRates gpu_b{"b", 20, 20e12, 40e12, 80e12, 160e12, 750e9};

TEST(KernelTimes, AnotherGpuAndDataTypeScaleByTheRoofline) {
  const Profile p = conv_profile();
  LookupOptions same, other;
  same.gpu = GpuTarget{gpu_a, gpu_a};
  other.gpu = GpuTarget{gpu_a, gpu_b};
  const std::string conv = "conv2d fp32 n64 c256 h56 w56 k256 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1";
  EXPECT_EQ(KernelTimes(p, same).time(conv, "fwd", 1).source, Source::measured);
  const Answer carried = KernelTimes(p, other).time(conv, "fwd", 1);
  EXPECT_EQ(carried.source, Source::scaled);
  EXPECT_NEAR(carried.seconds, 5e-3, 1e-9);  // compute-bound: half on twice the peak
  EXPECT_NE(carried.basis.find("carried from a to b"), std::string::npos);
  // fp16 was never timed: the fp32 time on a, by a's fp16/fp32 rooflines, then carried to b.
  std::string half = conv;
  half.replace(half.find("fp32"), 4, "fp16");
  const Answer fp16 = KernelTimes(p, other).time(half, "fwd", 1);
  EXPECT_EQ(fp16.source, Source::scaled);
  EXPECT_NEAR(fp16.seconds, 10e-3 * (10e12 / 20e12) * (20e12 / 160e12), 1e-9);
}

// A GPU profile timed in training mode has no eval forward: batch norm's is its training
// forward carried by the rooflines (the input read once instead of twice); a CPU profile
// has no such rule and leaves it to the fallback.
TEST(KernelTimes, AGpusEvalForwardIsItsTrainingForwardByTheRooflines) {
  Profile p;
  p.device = "gpu";
  p.gpu = "a";
  const std::string bn = "batch_norm fp32 n64 c256 hw3136";
  p.measured[{bn, "fwd", 1}] = {3e-3, 3e-3, 3e-3, 1};
  LookupOptions options;
  options.gpu = GpuTarget{gpu_a, gpu_a};
  const KernelTimes times(p, options);
  const Answer eval = times.time(bn, "infer", 1);
  EXPECT_EQ(eval.source, Source::scaled);
  const auto sig = kernels::parse_signature(bn);
  EXPECT_NEAR(eval.seconds, 3e-3 * gpu_roofline(sig, "infer", gpu_a).seconds() / gpu_roofline(sig, "fwd", gpu_a).seconds(),
              1e-12);
  EXPECT_LT(eval.seconds, 3e-3);
  EXPECT_NE(eval.basis.find("eval forward"), std::string::npos);
  EXPECT_EQ(times.time(bn, "fwd", 1).source, Source::measured);
}

// TF32 on tensor cores runs the kernels fp16 runs, at the TF32 rate: from the fp16 twin
// where the target has TF32 tensor cores, from the fp32 twin (CUDA cores) where it has not.
TEST(KernelTimes, Tf32OnTensorCoresIsCarriedFromTheFp16Twin) {
  Profile p = conv_profile();
  const std::string conv = "conv2d fp32 n64 c256 h56 w56 k256 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1";
  std::string half = conv, tf32 = conv;
  half.replace(half.find("fp32"), 4, "fp16");
  tf32.replace(tf32.find("fp32"), 4, "tf32");
  p.measured[{half, "fwd", 1}] = {4e-3, 4e-3, 4e-3, 1};
  LookupOptions to_b, to_a;
  to_b.gpu = GpuTarget{gpu_a, gpu_b};
  to_a.gpu = GpuTarget{gpu_a, gpu_a};
  // 4 ms of fp16 on a (20 TFLOP/s) is 8 ms at a's TF32 rate (its fp32, 10), and b's TF32
  // tensor cores (80) take an eighth of that.
  const Answer on_b = KernelTimes(p, to_b).time(tf32, "fwd", 1);
  EXPECT_NEAR(on_b.seconds, 4e-3 * (20e12 / 10e12) * (10e12 / 80e12), 1e-9);
  EXPECT_NE(on_b.basis.find("fp16 carried to tf32"), std::string::npos);
  const Answer on_a = KernelTimes(p, to_a).time(tf32, "fwd", 1);
  EXPECT_NEAR(on_a.seconds, 10e-3, 1e-9);
  EXPECT_NE(on_a.basis.find("fp32 carried to tf32"), std::string::npos);
}

// A fit that saw no depthwise convolution prices one (little arithmetic, much memory)
// below the time its bytes take on the profile's GPU: raised to that floor, then carried.
TEST(KernelTimes, AFittedGpuTimeIsNeverBelowTheMemoryRoof) {
  Profile p = conv_profile();
  p.fits.push_back({"conv2d", "fp32", "fwd", 1, {"one"}, {1e-6}, 0.2, 10});  // 1 us, whatever the size
  LookupOptions same, other;
  same.gpu = GpuTarget{gpu_a, gpu_a};
  other.gpu = GpuTarget{gpu_a, gpu_b};
  const std::string depthwise = "conv2d fp32 n256 c96 h112 w112 k96 r3 s3 pad1,1,1,1 str2,2 dil1,1 g96";
  const auto sig = kernels::parse_signature(depthwise);
  const Answer on_a = KernelTimes(p, same).time(depthwise, "fwd", 1);
  EXPECT_EQ(on_a.source, Source::fitted);
  EXPECT_NEAR(on_a.seconds, gpu_roofline(sig, "fwd", gpu_a).memory_s, 1e-12);
  EXPECT_GT(on_a.seconds, 1e-3);  // 1.5 GB at 500 GB/s
  EXPECT_NE(on_a.basis.find("raised to it"), std::string::npos);
  const Answer on_b = KernelTimes(p, other).time(depthwise, "fwd", 1);
  EXPECT_NEAR(on_b.seconds, on_a.seconds * 500e9 / 750e9, 1e-9);  // memory-bound on both
  // A dense convolution the fit prices above its memory roof keeps the fit's time.
  p.fits.back().coefficients = {1.0};
  EXPECT_DOUBLE_EQ(KernelTimes(p, same).time(depthwise, "fwd", 1).seconds, 1.0);
}

TEST(KernelTimes, GpuFallbackIsTheTargetsRoofline) {
  const Profile p = conv_profile();
  LookupOptions options;
  options.gpu = GpuTarget{gpu_a, gpu_b};
  EXPECT_THROW(KernelTimes(p, options).time("relu fp32 n64 e802816", "fwd", 1), UnrunnableError);
  options.allow_fallback = true;
  const Answer a = KernelTimes(p, options).time("relu fp32 n64 e802816", "fwd", 1);
  EXPECT_EQ(a.source, Source::fallback);
  EXPECT_NEAR(a.seconds, gpu_roofline(kernels::parse_signature("relu fp32 n64 e802816"), "fwd", gpu_b).seconds(),
              1e-15);
}

}  // namespace
}  // namespace dlsim::perf
