#pragma once
// "How long does this kernel take on this device?"  Every answer says where it came from:
//   measured      the profile timed this signature, phase and thread count
//   interpolated  timed at batch sizes on both sides; linear in the batch between them
//   fitted        the operator's fitted model (anchored to the nearest timed batch of the
//                 same signature when there is one)
//   scaled        from timings at other thread counts (Amdahl's law through the 1- and
//                 n-thread times), from another CPU (ratio of per-core peaks), from another
//                 GPU or another data type on the same GPU (roofline ratio, gpu_roofline.hpp)
//   fallback      no basis at all: a roofline of the catalog CPU or GPU, only when allowed
// and carries a relative error: the measured spread, or the fit's leave-one-out error.
#include <map>
#include <optional>
#include <set>
#include <string>

#include "perf/gpu_roofline.hpp"
#include "perf/profile.hpp"
#include "signature.hpp"

namespace dlsim::perf {

enum class Source { measured, interpolated, fitted, scaled, fallback };
inline constexpr Source kSources[] = {Source::measured, Source::interpolated, Source::fitted, Source::scaled,
                                      Source::fallback};
std::string to_string(Source source);

struct Answer {
  double seconds = 0;     // median
  double rel_error = 0;   // one standard deviation, relative
  Source source = Source::measured;
  std::string basis;      // e.g. "timed at n32 and n128"
  double cpu_seconds = 0;  // a CPU kernel's CPU time, every thread's, where it was timed; 0: unknown
};

// The CPU a prediction is for, when it is not the calibrated machine; ratios against it.
struct CpuScaling {
  double compute_ratio = 1;  // calibrated per-core peak FLOP/s / target's
  double clock_ratio = 1;    // calibrated clock / target's, for memory-bound and scalar kernels
  std::string basis;         // "Xeon E5-2690 v3 from Emerald Rapids, per-core peaks"
  // The target's own rates of one thread writing pages already mapped and pages faulted
  // afresh (its catalog entry's write_bandwidth and fresh_write_bandwidth, bytes/s; 0 where
  // it has none): a host's page faults follow its hypervisor, not its clock.  The Zen 5 kind
  // on a host with its TSC at 2.1 GHz ran PyTorch's operators 1.2-1.3x as long as at 2.6 GHz,
  // as the clocks say, but faulted pages 7.3x as slowly (calibration/README.md).
  double write_Bps = 0;
  double fresh_write_Bps = 0;
  std::string target;  // the target CPU's catalog name
};

// A GPU profile's device and the GPU a prediction is for (the same one, or another).
struct GpuTarget {
  GpuRates measured_on;
  GpuRates target;
};

struct LookupOptions {
  bool allow_fallback = false;
  double fallback_flops_per_s = 0;  // roofline of the CPU, per thread (GPUs: from `gpu`)
  double fallback_bytes_per_s = 0;
  std::optional<CpuScaling> cpu;
  std::optional<GpuTarget> gpu;
};

class KernelTimes {
 public:
  KernelTimes(const Profile& profile, LookupOptions options);

  // Throws UnrunnableError when nothing answers and the fallback is not allowed.
  Answer time(const std::string& signature, const std::string& phase, int threads) const;
  // Whether the profile timed this signature (at some batch) without this phase, so that
  // the phase is known not to run: a reorder oneDNN did not need.
  bool known_absent(const std::string& signature, const std::string& phase, int threads) const;
  // Whether the profile times or fits this operator's phase at all (e.g. "infer", the
  // inference forward, which profiles timed before it existed lack).
  bool has_phase(const std::string& op, const std::string& phase) const;
  // Whether the profile timed any operator in this phase.
  bool has_any_phase(const std::string& phase) const;
  // The operator whose timings price a kernel (its signature, or its operator's name
  // alone): itself, or for an elementwise activation, a concatenation, a channel shuffle or
  // a per-channel product the profile never timed in `phase` (without one, in any phase)
  // (MobileNetV2's ReLU6, GoogLeNet's concatenations, ShuffleNetV2's shuffles,
  // EfficientNet's squeeze-and-excite scaling in a profile of ResNets), the ReLU it timed;
  // for a product of two tensors of one size, the addition; for an average pooling
  // (Inception-v3's), the max pooling (a profile may time average poolings for inference
  // alone: training's phases are still the max pooling's).
  std::string priced_as(const std::string& signature, const std::string& phase = "") const;
  // Whether these are a GPU's times (a GPU profile, or a GPU's roofline).
  bool on_gpu() const { return options_.gpu.has_value(); }

 private:
  Answer at_measured_threads(const kernels::Signature& sig, const std::string& phase, int threads) const;
  std::optional<Answer> from_profile(const kernels::Signature& sig, const std::string& phase, int threads) const;
  std::optional<Answer> by_batch(const kernels::Signature& sig, const std::string& phase, int threads) const;
  std::optional<Answer> native_on_one_thread(const kernels::Signature& sig, const std::string& phase,
                                             int threads) const;
  std::map<int64_t, Timing> on_same_path(const kernels::Signature& sig, int threads,
                                         const std::map<int64_t, Timing>& timings) const;
  const FitModel* fit(const kernels::Signature& sig, const std::string& phase, int threads) const;
  Answer thread_scaled(const kernels::Signature& sig, const std::string& phase, int threads) const;
  Answer fallback(const kernels::Signature& sig, const std::string& phase, int threads) const;
  std::optional<Answer> other_dtype(const kernels::Signature& sig, const std::string& phase) const;
  std::optional<Answer> training_forward(const kernels::Signature& sig, const std::string& phase) const;
  std::optional<Answer> as_stand_in(const kernels::Signature& sig, const std::string& phase, int threads) const;
  void carry_to_target_gpu(const kernels::Signature& sig, const std::string& phase, Answer& a) const;
  Answer on_profiles_cpu(const kernels::Signature& sig, const std::string& phase, int threads) const;
  bool written_at_targets_rate(const kernels::Signature& sig, const std::string& phase, int threads,
                               Answer& a) const;
  // A model fitted to other kernels can extrapolate below what a GPU's memory allows: a
  // fitted GPU time is at least the time the profile's GPU needs to move the kernel's bytes.
  void floor_at_memory_roof(const kernels::Signature& sig, const std::string& phase, Answer& a) const;
  void busy_as_timed(const kernels::Signature& sig, const std::string& phase, int threads, Answer& a) const;

  const Profile& profile_;
  LookupOptions options_;
  std::vector<int> threads_;
  // (signature without its batch, phase, threads) -> batch -> timing
  std::map<std::tuple<std::string, std::string, int>, std::map<int64_t, Timing>> by_batch_;
  std::set<std::pair<std::string, int>> timed_;                 // (signature without batch, threads)
  std::set<std::tuple<std::string, std::string, int>> phases_;  // (signature without batch, phase, threads)
  std::set<std::pair<std::string, std::string>> op_phases_;     // (operator, phase)
  // (operator, phase, threads) -> the median timed kernel's CPU time over its wall time
  std::map<std::tuple<std::string, std::string, int>, double> cores_busy_;
};

}  // namespace dlsim::perf
