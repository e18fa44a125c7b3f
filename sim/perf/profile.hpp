#pragma once
// A calibration profile: one device's measured kernel times, the models fitted to them,
// and the framework behaviour that decides which kernels a step runs.  Written by
// `dlsim calibrate` (profile_writer), read by sim/scenario (profile_reader); plain data.
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "perf/features.hpp"

namespace dlsim::perf {

// One kernel as measured: its signature, the phase of it that ran, and the CPU threads.
struct KernelKey {
  std::string signature;  // as sim/graph/kernel_signature writes it
  std::string phase;      // "fwd", "bwd_data", "bwd_weights", "reorder_src", "blas_fwd", "update", ...
  int threads = 1;
  auto operator<=>(const KernelKey&) const = default;
};

// Spread over the benchmark's repetitions.
struct Timing {
  double median_s = 0;
  double p10_s = 0;
  double p90_s = 0;
  int repetitions = 0;
  double cpu_s = 0;  // median CPU seconds of the whole process per call, every thread's; 0: not timed
};

// time = sum_k coefficients[k] * feature_k(kernel), fitted per operator, data type, phase
// and thread count by least squares on log(predicted / measured).  loo_error is the root mean
// square of leave-one-out log errors (relative errors, for small ones): the known error of an
// answer from this model.
struct FitModel {
  std::string op;
  std::string dtype = "fp32";
  std::string phase;
  int threads = 1;
  std::vector<std::string> features;  // "one", "flops", "bytes"
  std::vector<double> coefficients;   // seconds per unit of each feature
  double loo_error = 0;
  int points = 0;
};

// How the framework whose runs the profile predicts maps layers to kernels.
// kernels_from "cudnn": GPU kernels timed in cuDNN and cuBLAS as frameworks call them
// (kernels/gpu, or published cuDNN timings); a GPU step runs them as they are.
// kernels_from "framework": the kernels were timed through the framework's own operators
// (kernels/pytorch/torch_op_bench.py), so its dispatch, layouts and allocations are in the
// times already and none of the rules below applies.  kernels_from "onednn": they were
// timed in oneDNN and BLAS directly (kernels/cpu), and the rules say which path PyTorch 1.13
// on CPU (ATen's ConvParams::use_mkldnn and at::addmm): fp32 nn.Linear goes to the system
// BLAS; a 1x1, stride-1 convolution leaves oneDNN for BLAS when the batch is under
// pointwise_conv_blas_below_batch and only pointwise_conv_blas_max_threads threads run.
// Other convolutions run in oneDNN: conv_layout "plain" hands it NCHW activations as they
// are (PyTorch 1.13's mkldnn_convolution: the plain_* phases), "blocked" reorders source
// and destination into oneDNN's blocked layout and back, training_reorders_per_conv times
// each per training step and once per inference.
// How a machine interrupts a team of threads (kernels/pytorch/stall_trace.py): the stalls
// longer than the benchmark's threshold seen while an operator ran back to back for
// traced_s, each its excess over the median call; and how its speed drifts between them,
// window by window in order, each window's median call of a convolution over the median
// window's.  Operator timings are medians of repetitions and leave both out; the serving
// simulation replays them (sim/infer/stalls.hpp).  A profile pools the traces of its
// machine kind's calibrations (calibration/stall_history.py): stalls over their seconds
// traced together, speed traces one after another, each over its own median window.
inline constexpr const char* kStallOp = "stall";
struct SpeedTrace {
  double window_s = 0;
  std::vector<double> slowdowns;  // 1: the median window
};
struct StallTrace {
  double traced_s = 0;
  std::vector<double> durations_s;
  SpeedTrace speed;  // empty where not traced (profiles fitted before 2026-11-25)
};

struct FrameworkRules {
  std::string name = "pytorch-1.13-cpu";
  std::string kernels_from = "onednn";
  std::string conv_layout = "blocked";
  bool linear_uses_blas = true;
  int pointwise_conv_blas_below_batch = kPointwiseNativeBelowBatch;
  int pointwise_conv_blas_max_threads = kPointwiseNativeMaxThreads;
  int training_reorders_per_conv = 2;
  // "glibc": a training step's heap is trimmed and regrown under glibc's malloc, and the
  // pages it faults again are priced with the profile's first_touch timings
  // (step_allocations.hpp); "none": the framework's allocator keeps its memory.
  std::string host_allocator = "none";
  // An inference pass's refaulted pages, times the heap model's count: the scenario's heap
  // state (scenario system.heap_state; kServedPassFaultSpread in step_allocations.hpp).
  double refault_factor = 1;
  // An inference pass's refaulted pages as counted on its stack (scenario
  // system.pass_page_faults), in place of the heap model's; negative: not counted.
  int64_t refault_pages = -1;
};

struct Profile {
  std::string device = "cpu";
  std::string machine;                        // e.g. "devbox-emerald-rapids-2vcpu"
  std::map<std::string, std::string> identity;  // cpu_model, onednn_version, ... from the raw files
  std::string cpu;                            // catalog CPU the machine is an instance of; may be empty
  std::string gpu;                            // catalog GPU the kernels ran on (device "gpu")
  // A GPU nobody here measured has a derived profile: a file naming the measured profile
  // (`base`) whose kernels are carried to its GPU by the roofline (gpu_roofline.hpp).
  // Loading it gives the base profile with this set to the file and its reason.
  std::string derivation;
  std::vector<std::string> sources;           // raw files it was fitted from
  std::string fitted_by;                      // dlsim version and commit
  FrameworkRules framework;
  std::map<KernelKey, Timing> measured;
  std::vector<FitModel> fits;
  std::map<int, StallTrace> stalls;  // by team threads

  std::vector<int> threads() const;  // thread counts with measurements, ascending
  // Kernels timed through PyTorch's operators on a CPU: which convolutions PyTorch runs
  // itself rather than in oneDNN follows its rule (features.hpp, pytorch_runs_natively).
  bool pytorch_cpu_ops() const;
};

}  // namespace dlsim::perf
