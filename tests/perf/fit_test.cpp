#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "perf/features.hpp"
#include "perf/fit.hpp"
#include "signature.hpp"

namespace dlsim::perf {
namespace {

// What fitted model `m` prices a kernel at, from the signature's features in `phase`.
double priced(const FitModel& m, const std::string& signature, const std::string& phase = "infer", int threads = 1) {
  const Features f = kernel_features(kernels::parse_signature(signature), phase, threads);
  std::vector<double> x;
  for (const auto& name : m.features) x.push_back(feature_value(f, name));
  return predict(m, x);
}

TEST(Fit, ACoefficientIsFoundByItsFeaturesName) {
  FitModel m;
  m.features = {"one", "bytes", "mapped_bytes"};
  m.coefficients = {1e-4, 2e-10, 3e-10};
  EXPECT_EQ(coefficient(m, "bytes"), 2e-10);
  EXPECT_EQ(coefficient(m, "one"), 1e-4);
  EXPECT_EQ(coefficient(m, "flops"), 0.0);  // a feature the model does not use costs nothing
}

TEST(Fit, RecoversAnExactLinearCostModel) {
  // t = 2 us + flops / 50 GFLOP/s + bytes / 10 GB/s
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  for (double flops : {1e6, 1e7, 1e8, 1e9})
    for (double bytes : {1e4, 1e6, 1e8}) {
      x.push_back({1, flops, bytes});
      y.push_back(2e-6 + flops / 50e9 + bytes / 10e9);
    }
  const FitModel m = fit_model(x, y, {"one", "flops", "bytes"});
  EXPECT_NEAR(m.coefficients[0], 2e-6, 1e-9);
  EXPECT_NEAR(m.coefficients[1] * 50e9, 1.0, 1e-6);
  EXPECT_NEAR(m.coefficients[2] * 10e9, 1.0, 1e-6);
  EXPECT_LT(m.loo_error, 1e-6);
  EXPECT_EQ(m.points, 12);
}

TEST(Fit, NeverKeepsANegativeCost) {
  // Time falls with bytes here (what noise can suggest, and no kernel does): the bytes
  // term is dropped rather than kept negative.
  const std::vector<std::vector<double>> x = {{1, 1e6, 3e6}, {1, 2e6, 2e6}, {1, 4e6, 1e6}, {1, 8e6, 0.5e6}};
  std::vector<double> y;
  for (const auto& p : x) y.push_back(1e-10 * p[1] - 2e-12 * p[2] + 1e-6);
  const FitModel m = fit_model(x, y, {"one", "flops", "bytes"});
  for (double c : m.coefficients) EXPECT_GE(c, 0);
  EXPECT_EQ(m.coefficients[2], 0);
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(predict(m, x[i]) / y[i], 1.0, 0.25);
}

TEST(Fit, LeaveOneOutErrorReportsScatter) {
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  for (int i = 1; i <= 20; ++i) {
    x.push_back({1, double(i)});
    y.push_back(double(i) * (i % 2 ? 1.2 : 0.8));  // +-20% around a line
  }
  const FitModel m = fit_model(x, y, {"one", "bytes"});
  EXPECT_GT(m.loo_error, 0.1);
  EXPECT_LT(m.loo_error, 0.4);
}

TEST(Fit, ScatterLeavesPredictionsUnbiasedInLogTerms) {
  // Kernels scattered by factors of 1.5 either way around t = 10 us + x ns: least squares
  // on relative error would shrink the model (an overestimate costs more than the matching
  // underestimate); on log error the scatter cancels, since scaling every coefficient
  // stays in the model, so the mean log ratio is zero and the slope comes back.
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  for (int i = 1; i <= 40; ++i) {
    const double work = 1e3 * i * i;
    x.push_back({1, work});
    y.push_back((10e-6 + work * 1e-9) * (i % 2 ? 1.5 : 1 / 1.5));
  }
  const FitModel m = fit_model(x, y, {"one", "bytes"});
  double mean_log = 0;
  for (size_t i = 0; i < y.size(); ++i) mean_log += std::log(predict(m, x[i]) / y[i]) / double(y.size());
  EXPECT_NEAR(mean_log, 0.0, 1e-6);
  EXPECT_NEAR(m.coefficients[1] / 1e-9, 1.0, 0.1);
}

RawBenchmarks relu_timings(const std::string& path, const std::string& framework) {
  RawBenchmarks raw;
  raw.path = path;
  raw.context["cpu_model"] = "test cpu";
  if (!framework.empty()) raw.context["framework"] = framework;
  for (int n : {1, 2, 4}) raw.times[{"relu fp32 n" + std::to_string(n) + " e1000", "fwd", 1}] = {1e-6 * n, 1.1e-6 * n};
  return raw;
}

TEST(FitProfile, KernelsTimedThroughAFrameworkSaySo) {
  auto with_torch = relu_timings("torch.json", "pytorch");
  with_torch.context["torch_version"] = "1.13.0";
  const Profile p = fit_profile({with_torch}, {"m", "", "test", ""});
  EXPECT_EQ(p.framework.kernels_from, "framework");
  EXPECT_EQ(p.framework.name, "pytorch-1.13.0-cpu-ops");
  EXPECT_EQ(fit_profile({relu_timings("onednn.json", "")}, {"m", "", "test", ""}).framework.kernels_from, "onednn");
}

// PyTorch runs ResNet-50's 1x1 convolutions at batch 4 itself on one thread, at 6 GFLOP/s
// in the reference BLAS, and the 3x3s in oneDNN at 100: one cost per FLOP cannot price
// both, so its convolutions' model learns one for each path.  On two threads oneDNN runs
// them all, and the model has no native term it could not have learned.
TEST(FitProfile, PyTorchsConvolutionsLearnACostForThePathItRunsItself) {
  RawBenchmarks raw;
  raw.path = "resnet50_b4.json";
  raw.context = {{"cpu_model", "test cpu"}, {"framework", "pytorch"}, {"torch_version", "1.13.0"}};
  for (int threads : {1, 2})
    for (int c : {64, 128, 256, 512})
      for (int r : {1, 3}) {
        const std::string pad = r == 3 ? "1,1,1,1" : "0,0,0,0";
        const std::string sig = fmt::format("conv2d fp32 n4 c{} h14 w14 k{} r{} s{} pad{} str1,1 dil1,1 g1", c, c, r, r, pad);
        const auto parsed = kernels::parse_signature(sig);
        const double flops = kernel_features(parsed, "infer").flops;
        const bool native = pytorch_runs_natively(parsed, threads);
        raw.times[{sig, "infer", threads}] = {flops / (native ? 6e9 : 100e9 * threads)};
      }
  const Profile p = fit_profile({raw}, {"m", "", "test", ""});
  ASSERT_EQ(p.fits.size(), 2u);
  for (const auto& m : p.fits) {
    const bool native_term = std::count(m.features.begin(), m.features.end(), "native_flops") > 0;
    EXPECT_EQ(native_term, m.threads == 1) << m.threads;
    for (const auto& [key, t] : p.measured) {
      if (key.threads != m.threads) continue;
      EXPECT_NEAR(priced(m, key.signature, key.phase, m.threads) / t.median_s, 1.0, 0.05)
          << key.signature << " on " << key.threads;
    }
  }
}

// Debian's PyTorch ran its linear layers at 3.2 GFLOP/s while their weights fit in a cache
// and at 1.3 beyond, at any batch, on the Granite Rapids VM: a model of FLOPs and bytes
// prices the streamed ones by their weights once (LOO error 42% on the VM's 19 layers), so
// the model learns a cost per FLOP of its own for them, and a batch of 1 costs half of 2.
TEST(FitProfile, PyTorchsLinearLayersLearnACostForWeightsReadAgainForEverySample) {
  RawBenchmarks raw;
  raw.path = "vgg16_b2.json";
  raw.context = {{"cpu_model", "test cpu"}, {"framework", "pytorch"}, {"torch_version", "1.13.0"}};
  for (int n : {2, 4, 32})
    for (int out : {10, 1000, 4096})
      for (int in : {512, 4096, 25088}) {
        const auto sig = fmt::format("linear fp32 n{} in{} out{} bias", n, in, out);
        const Features f = kernel_features(kernels::parse_signature(sig), "infer");
        raw.times[{sig, "infer", 1}] = {f.flops / (f.streamed_flops > 0 ? 1.3e9 : 3.2e9)};
      }
  const Profile p = fit_profile({raw}, {"m", "", "test", ""});
  ASSERT_EQ(p.fits.size(), 1u);
  const FitModel& m = p.fits.front();
  EXPECT_LT(m.loo_error, 0.02);
  const auto at = [&](const std::string& sig) { return priced(m, sig); };
  EXPECT_NEAR(at("linear fp32 n1 in25088 out4096 bias") / at("linear fp32 n2 in25088 out4096 bias"), 0.5, 0.02);
  const double alexnet_fc6 = 2.0 * 8 * 9216 * 4096 / 1.3e9;  // never timed
  EXPECT_NEAR(at("linear fp32 n8 in9216 out4096 bias"), alexnet_fc6, 0.02 * alexnet_fc6);
}

// Layers of many rows whose weights fit the L2 ran 1.3-1.5x the rate of larger ones on the
// Granite Rapids VM: with such layers timed (calibration/grids.sh's position_linears) the fit
// learns both rates; from classifiers alone, whose small layers do too few FLOPs to tell, it
// learns one and says so by leaving beyond_l2_flops out.
TEST(FitProfile, PyTorchsLinearLayersLearnTheL2sRateFromLayersOfManyRows) {
  const auto timings = [](bool many_rows) {
    RawBenchmarks raw;
    raw.path = "linears.json";
    raw.context = {{"cpu_model", "test cpu"}, {"framework", "pytorch"}, {"torch_version", "1.13.0"}};
    std::vector<std::string> sigs;
    for (int n : {2, 8, 32})
      for (int out : {10, 1000}) sigs.push_back(fmt::format("linear fp32 n{} in{} out{} bias", n, 2048, out));
    if (many_rows)
      for (int width : {64, 256, 1024})
        for (int rows : {256, 1024}) sigs.push_back(fmt::format("linear fp32 n{} in{} out{} bias", rows, width, 4 * width));
    for (const auto& sig : sigs) {
      const Features f = kernel_features(kernels::parse_signature(sig), "infer");
      raw.times[{sig, "infer", 1}] = {20e-6 + f.flops / (f.beyond_l2_flops > 0 ? 4.0e9 : 5.5e9)};
    }
    return fit_profile({raw}, {"m", "", "test", ""}).fits.front();
  };
  const FitModel with = timings(true), without = timings(false);
  EXPECT_NE(std::find(with.features.begin(), with.features.end(), "beyond_l2_flops"), with.features.end());
  EXPECT_EQ(std::find(without.features.begin(), without.features.end(), "beyond_l2_flops"), without.features.end());
  EXPECT_LT(with.loo_error, 0.02);
  const double convnext_first = 20e-6 + 2.0 * 3136 * 96 * 384 / 5.5e9;  // never timed
  EXPECT_NEAR(priced(with, "linear fp32 n3136 in96 out384 bias"), convnext_first, 0.03 * convnext_first);
}

// One kernel timed in several files (calibrate_cpu_machine.sh times the served network's
// forwards at its start, middle and end) is one kernel: its repetitions are pooled before
// the median is taken, and it is counted once.
TEST(FitProfile, AKernelTimedInSeveralFilesPoolsItsRepetitions) {
  auto start = relu_timings("start.json", "pytorch"), middle = start, end = start;
  middle.path = "middle.json";
  end.path = "end.json";
  const KernelKey key{"relu fp32 n1 e1000", "fwd", 1};
  start.times[key] = {1e-6, 1.1e-6};
  middle.times[key] = {5e-6, 6e-6, 7e-6};
  end.times[key] = {1.2e-6, 1.3e-6};
  const Profile p = fit_profile({start, middle, end}, {"m", "", "test", ""});
  EXPECT_EQ(p.measured.size(), 3u);
  EXPECT_EQ(p.measured.at(key).repetitions, 7);
  EXPECT_DOUBLE_EQ(p.measured.at(key).median_s, 1.3e-6);  // the middle file alone: 6 us
}

// PyTorch's operators timed on a GPU (kernels/pytorch/torch_gpu_op_bench.py) make a GPU
// profile of the framework's kernels, not cuDNN's.
TEST(FitProfile, PyTorchsOperatorsOnAGpuAreAFrameworksGpuProfile) {
  RawBenchmarks raw;
  raw.path = "gpu_ops.json";
  raw.context = {{"framework", "pytorch"}, {"torch_version", "2.11.0"}, {"device", "gpu"}, {"cudnn", "91900"}};
  for (int n : {1, 2, 4}) raw.times[{"relu fp16 n" + std::to_string(n) + " e1000", "fwd", 1}] = {1e-6 * n};
  const Profile p = fit_profile({raw}, {"m", "", "test", "h200"});
  EXPECT_EQ(p.device, "gpu");
  EXPECT_EQ(p.framework.kernels_from, "framework");
  EXPECT_EQ(p.framework.name, "pytorch-2.11.0-gpu-ops");
}

// kernels/pytorch/stall_trace.py's rows are a trace of stalls, not a kernel to price.
TEST(FitProfile, AStallTraceIsKeptWholeBesideTheKernels) {
  auto raw = relu_timings("torch.json", "pytorch");
  raw.times[{"stall fp32 n1 e200704", "stall", 2}] = {300e-6, 2e-3, 5e-3};
  raw.times[{"stall fp32 n1 e200704", "traced", 2}] = {30.0};
  const Profile p = fit_profile({raw}, {"m", "", "test", ""});
  ASSERT_EQ(p.stalls.count(2), 1u);
  EXPECT_EQ(p.stalls.at(2).traced_s, 30.0);
  EXPECT_EQ(p.stalls.at(2).durations_s, (std::vector<double>{300e-6, 2e-3, 5e-3}));
  EXPECT_EQ(p.measured.size(), 3u);  // the three ReLUs
  for (const auto& fit : p.fits) EXPECT_EQ(fit.op, "relu");
}

// Its speed windows become slowdowns over the median window, in the order traced.
TEST(FitProfile, ASpeedTraceIsKeptInOrderOverItsMedianWindow) {
  auto raw = relu_timings("torch.json", "pytorch");
  raw.times[{"stall fp32 n1 e200704", "traced", 1}] = {60.0};
  raw.times[{"stall fp32 n1 e200704", "speed", 1}] = {4e-3, 2e-3, 2.5e-3};
  raw.times[{"stall fp32 n1 e200704", "window", 1}] = {0.02};
  const Profile p = fit_profile({raw}, {"m", "", "test", ""});
  EXPECT_EQ(p.stalls.at(1).speed.window_s, 0.02);
  ASSERT_EQ(p.stalls.at(1).speed.slowdowns.size(), 3u);
  EXPECT_DOUBLE_EQ(p.stalls.at(1).speed.slowdowns[0], 1.6);
  EXPECT_DOUBLE_EQ(p.stalls.at(1).speed.slowdowns[1], 0.8);
  EXPECT_DOUBLE_EQ(p.stalls.at(1).speed.slowdowns[2], 1.0);
  raw.times.erase({"stall fp32 n1 e200704", "window", 1});
  EXPECT_THROW(fit_profile({raw}, {"m", "", "test", ""}), InputError);
}

// The traces of several sessions of a machine kind pool (calibration/stall_history.py):
// their stalls over their seconds traced together, each speed trace over its own median
// window (a slower session's windows are not all slow), one after another; traces of
// windows of different lengths do not pool.
TEST(FitProfile, StallTracesOfSeveralSessionsPoolEachOverItsOwnMedian) {
  const auto session = [](const std::string& path, std::vector<double> stalls, std::vector<double> speed) {
    RawBenchmarks raw;
    raw.path = path;
    raw.context = {{"framework", "pytorch"}, {"torch_version", "1.13.0"}};
    raw.times[{"stall fp32 n1 e200704", "stall", 2}] = std::move(stalls);
    raw.times[{"stall fp32 n1 e200704", "traced", 2}] = {60.0};
    raw.times[{"stall fp32 n1 e200704", "speed", 2}] = std::move(speed);
    raw.times[{"stall fp32 n1 e200704", "window", 2}] = {0.02};
    return raw;
  };
  auto earlier = session("earlier/stall_trace.json", {1e-3}, {2e-3, 4e-3, 2e-3});
  const auto later = session("later/stall_trace.json", {3e-3, 5e-3}, {3e-3, 6e-3, 6e-3});
  const Profile p = fit_profile({relu_timings("torch.json", "pytorch"), earlier, later}, {"m", "", "test", ""});
  const StallTrace& trace = p.stalls.at(2);
  EXPECT_EQ(trace.traced_s, 120.0);
  EXPECT_EQ(trace.durations_s, (std::vector<double>{1e-3, 3e-3, 5e-3}));
  EXPECT_EQ(trace.speed.slowdowns, (std::vector<double>{1.0, 2.0, 1.0, 0.5, 1.0, 1.0}));
  EXPECT_EQ(p.measured.size(), 3u);  // the ReLUs alone
  earlier.times[{"stall fp32 n1 e200704", "window", 2}] = {0.05};
  EXPECT_THROW(fit_profile({relu_timings("torch.json", "pytorch"), earlier, later}, {"m", "", "test", ""}),
               InputError);
}

// The driver's host copies, timed by dlsim-gpu-bench on the same GPU, join PyTorch's
// operators, before or after them in the list; from another GPU, or with a kernel among
// them, they do not.
TEST(FitProfile, PyTorchsGpuOperatorsTakeTheSameGpusCopies) {
  RawBenchmarks ops;
  ops.path = "gpu_ops.json";
  ops.context = {{"framework", "pytorch"}, {"torch_version", "2.11.0"}, {"device", "gpu"}, {"gpu_name", "NVIDIA H200"},
                 {"cuda_runtime", "13.0"}};
  for (int n : {1, 2, 4}) ops.times[{"relu fp16 n" + std::to_string(n) + " e1000", "fwd", 1}] = {1e-6 * n};
  RawBenchmarks copies;
  copies.path = "copies.json";
  copies.context = {{"framework", "cudnn"}, {"device", "gpu"}, {"gpu_name", "NVIDIA H200"}, {"cuda_runtime", "13.0.0"}};
  for (double b : {1e6, 4e6}) copies.times[{"memcpy u8 b" + std::to_string(int(b)), "h2d_pageable", 1}] = {b / 10e9};
  const Profile p = fit_profile({ops, copies}, {"m", "", "test", "h200"});
  EXPECT_EQ(p.framework.name, "pytorch-2.11.0-gpu-ops");
  EXPECT_EQ(p.identity.at("cuda_runtime"), "13.0");  // the operators'
  EXPECT_EQ(p.measured.count({"memcpy u8 b1000000", "h2d_pageable", 1}), 1u);
  EXPECT_EQ(fit_profile({copies, ops}, {"m", "", "test", "h200"}).identity.at("cuda_runtime"), "13.0");  // any order
  auto elsewhere = copies;
  elsewhere.context["gpu_name"] = "NVIDIA H100";
  EXPECT_THROW(fit_profile({ops, elsewhere}, {"m", "", "test", "h200"}), InputError);
  auto with_a_kernel = copies;
  with_a_kernel.times[{"relu fp32 n1 e1000", "fwd", 1}] = {1e-6};
  EXPECT_THROW(fit_profile({ops, with_a_kernel}, {"m", "", "test", "h200"}), InputError);
}

// A stack timed as it serves (kernels/net/py_transfer_bench.py --idle-ms --handler-model)
// says so: its costs are those of requests after an idle pause and a pass, not back to back.
TEST(FitProfile, AStacksProfileSaysHowItsRequestsWereTimed) {
  RawBenchmarks raw;
  raw.path = "python_grpc_loopback.json";
  raw.context = {{"device", "network"},  {"framework", "python-grpc"}, {"python_stack_version", "python-3.11"},
                 {"idle_ms", "20"},      {"handler_model", "resnet18"}};
  for (double b : {1024.0, 65536.0, 602112.0})
    raw.times[{fmt::format("transfer u8 b{} grpc", b), "push", 1}] = {1e-3 + b * 2e-9};
  const Profile p = fit_profile({raw}, {"m", "", "test", ""});
  EXPECT_EQ(p.framework.name, "python-grpc on python-3.11");
  EXPECT_EQ(p.identity.at("idle_ms"), "20");
  EXPECT_EQ(p.identity.at("handler_model"), "resnet18");
}

TEST(FitProfile, RefusesToMixFrameworkAndOneDnnTimings) {
  EXPECT_THROW(fit_profile({relu_timings("onednn.json", ""), relu_timings("torch.json", "pytorch")}, {"m", "", "t", ""}),
               InputError);
}

}  // namespace
}  // namespace dlsim::perf
