#include "perf/kernel_times.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "perf/features.hpp"
#include "perf/fit.hpp"
#include "perf/step_allocations.hpp"

namespace dlsim::perf {
namespace {

// A scaled answer rests on a first-order model (Amdahl's law, or the ratio of per-core
// peaks) that no measurement here has validated; its error is assumed, and said to be.
constexpr double kScalingError = 0.25;
// P10 and P90 of a normal distribution lie 1.2816 standard deviations from its median.
constexpr double kZ90 = 1.2816;

double spread(const Timing& t) {
  return t.median_s > 0 ? (t.p90_s - t.p10_s) / (2 * kZ90 * t.median_s) : 0;
}

std::string without_batch(const std::string& text, int64_t* batch) {
  std::string out;
  out.reserve(text.size());
  for (size_t begin = text.find_first_not_of(" \t\n"); begin != std::string::npos;) {
    const size_t end = std::min(text.find_first_of(" \t\n", begin), text.size());
    const std::string_view word(text.data() + begin, end - begin);
    if (word.size() > 1 && word[0] == 'n' && word.find_first_not_of("0123456789", 1) == std::string_view::npos) {
      if (batch) *batch = std::stoll(std::string(word.substr(1)));
    } else {
      if (!out.empty()) out += ' ';
      out += word;
    }
    begin = text.find_first_not_of(" \t\n", end);
  }
  return out;
}

bool compute_bound(const kernels::Signature& sig, const std::string& phase) {
  return (sig.op == "conv2d" || sig.op == "linear") && phase.find("reorder") == std::string::npos;
}

std::vector<double> features_of(const FitModel& m, const kernels::Signature& sig, const std::string& phase) {
  // Features that say what PyTorch dispatched on the model's threads: a convolution it runs
  // itself, a concatenation's inputs copied in parallel (an optimizer's tensors ignore it),
  // an element-wise operator run by a team.
  const auto uses = [&m](const char* name) {
    return std::find(m.features.begin(), m.features.end(), name) != m.features.end();
  };
  const bool pytorch_split = uses("native_flops") || uses("tensors") || uses("parallel");
  const auto f = kernel_features(sig, phase, pytorch_split ? m.threads : 0);
  std::vector<double> x;
  for (const auto& name : m.features) x.push_back(feature_value(f, name));
  return x;
}

}  // namespace

std::string to_string(Source source) {
  switch (source) {
    case Source::measured: return "measured";
    case Source::interpolated: return "interpolated";
    case Source::fitted: return "fitted";
    case Source::scaled: return "scaled";
    case Source::fallback: return "fallback";
  }
  return "unknown";
}

KernelTimes::KernelTimes(const Profile& profile, LookupOptions options)
    : profile_(profile), options_(std::move(options)), threads_(profile.threads()) {
  for (const auto& [key, t] : profile.measured) {
    int64_t n = -1;
    const std::string skeleton = without_batch(key.signature, &n);
    if (n >= 0) by_batch_[{skeleton, key.phase, key.threads}][n] = t;
    timed_.insert({skeleton, key.threads});
    phases_.insert({skeleton, key.phase, key.threads});
    op_phases_.insert({kernels::operator_of(key.signature), key.phase});
  }
  for (const auto& m : profile.fits) op_phases_.insert({m.op, m.phase});
  std::map<std::tuple<std::string, std::string, int>, std::vector<double>> shares;
  for (const auto& [key, t] : profile.measured)
    if (t.cpu_s > 0 && t.median_s > 0)
      shares[{kernels::operator_of(key.signature), key.phase, key.threads}].push_back(t.cpu_s / t.median_s);
  for (auto& [id, s] : shares) {
    std::nth_element(s.begin(), s.begin() + std::ptrdiff_t(s.size() / 2), s.end());
    cores_busy_[id] = s[s.size() / 2];
  }
}

// PyTorch runs a small operator's loop on one thread of its team (its grain size), so an
// operator keeps fewer cores busy than the team has: on the Genoa VM a ReLU timed inside
// ResNet-18's passes on two threads used a median 1.04 cores, a convolution 1.97.  A kernel
// priced from others' timings keeps as many busy as the timed kernels of its operator,
// phase and team did; where none was timed with its CPU time, the step counts every thread.
// Untimed networks' busy shares came within 2-7% so (GoogLeNet, Inception-v3, AlexNet,
// VGG-11 on the Genoa VM, from 12-36%), but a team that spins between short operators keeps
// its cores busy anyway: MobileNetV2 in process at batch 1 on two threads used 0.99 of the
// cores, priced so at 0.63.  Where the profile timed that spin, the step adds it
// (kTeamSpinOp, step_plan.hpp).
void KernelTimes::busy_as_timed(const kernels::Signature& sig, const std::string& phase, int threads,
                                Answer& a) const {
  if (const auto it = cores_busy_.find({sig.op, phase, threads}); it != cores_busy_.end())
    a.cpu_seconds = a.seconds * it->second;
}

bool KernelTimes::has_any_phase(const std::string& phase) const {
  return std::any_of(op_phases_.begin(), op_phases_.end(), [&](const auto& p) { return p.second == phase; });
}

bool KernelTimes::has_phase(const std::string& op, const std::string& phase) const {
  return op_phases_.count({op, phase}) > 0;
}

std::string KernelTimes::priced_as(const std::string& signature, const std::string& phase) const {
  // Concatenation and a channel shuffle copy each input element into the output once: a
  // read and a write per element, as an out-of-place activation does; so does a product by
  // one value per channel (squeeze-and-excite's scaling), whose second operand is a few
  // values.  A product of two whole tensors reads both, as an addition does.  An average
  // pooling sums the windows a max pooling of the same shape compares.  A layer norm reads
  // each position's channels for their mean and variance and again, from cache, to scale
  // them, writing once: the stream of a batch norm applying its statistics.
  static const std::map<std::string, std::string> stand_ins = {
      {"relu6", "relu"}, {"leaky_relu", "relu"}, {"sigmoid", "relu"}, {"tanh", "relu"},
      {"hardswish", "relu"}, {"hardsigmoid", "relu"}, {"silu", "relu"}, {"gelu", "relu"},
      {"concat", "relu"}, {"channel_shuffle", "relu"}, {"avgpool", "maxpool"}, {"layer_norm", "batch_norm"}};
  const auto timed = [&](const std::string& o) {
    if (!phase.empty()) return has_phase(o, phase);
    const auto it = op_phases_.lower_bound({o, ""});
    return it != op_phases_.end() && it->first == o;
  };
  const std::string op = kernels::operator_of(signature);
  std::string as = op;
  if (const auto it = stand_ins.find(op); it != stand_ins.end()) as = it->second;
  if (op == "mul" && signature != op) {
    const auto sig = kernels::parse_signature(signature);
    as = sig.get("c") < sig.get("e") ? "relu" : "add";
  }
  return !timed(op) && timed(as) ? as : op;
}

// An operator nobody timed, priced as the timed one that moves the same elements the same
// way (priced_as): on a CPU the memory and the window's work, not the kind of arithmetic,
// decide.
std::optional<Answer> KernelTimes::as_stand_in(const kernels::Signature& sig, const std::string& phase,
                                               int threads) const {
  const std::string as = priced_as(sig.text, phase);
  if (as == sig.op) return std::nullopt;
  auto a = from_profile(kernels::parse_signature(as + sig.text.substr(sig.op.size())), phase, threads);
  if (!a) return std::nullopt;
  a->rel_error = std::hypot(a->rel_error, kScalingError);
  a->source = Source::scaled;
  a->basis += fmt::format("; {} priced as the {} of the same shape (never timed itself)", sig.op, as);
  return a;
}

bool KernelTimes::known_absent(const std::string& signature, const std::string& phase, int threads) const {
  if (std::find(threads_.begin(), threads_.end(), threads) == threads_.end() && !threads_.empty())
    threads = threads_.front();
  const std::string skeleton = without_batch(signature, nullptr);
  return timed_.count({skeleton, threads}) > 0 && phases_.count({skeleton, phase, threads}) == 0;
}

const FitModel* KernelTimes::fit(const kernels::Signature& sig, const std::string& phase, int threads) const {
  for (const auto& m : profile_.fits)
    if (m.op == sig.op && m.dtype == sig.dtype && m.phase == phase && m.threads == threads) return &m;
  return nullptr;
}

std::optional<Answer> KernelTimes::by_batch(const kernels::Signature& sig, const std::string& phase,
                                            int threads) const {
  int64_t n = -1;
  const auto it = by_batch_.find({without_batch(sig.text, &n), phase, threads});
  if (n < 0 || it == by_batch_.end()) return std::nullopt;
  const auto timings = on_same_path(sig, threads, it->second);
  if (timings.empty()) return std::nullopt;
  const auto upper = timings.lower_bound(n);
  if (upper != timings.end() && upper != timings.begin()) {
    const auto lower = std::prev(upper);
    const double w = double(n - lower->first) / double(upper->first - lower->first);
    const Timing& a = lower->second;
    const Timing& b = upper->second;
    return Answer{a.median_s + w * (b.median_s - a.median_s), std::max(spread(a), spread(b)), Source::interpolated,
                  fmt::format("timed at n{} and n{}", lower->first, upper->first)};
  }
  // One side only: the fitted model's ratio carries the nearest timing to this batch.
  const auto nearest = upper == timings.end() ? std::prev(upper) : upper;
  const FitModel* m = fit(sig, phase, threads);
  if (!m) return std::nullopt;
  auto anchor = kernels::parse_signature(without_batch(sig.text, nullptr));
  anchor.fields["n"] = {nearest->first};
  const double here = predict(*m, features_of(*m, sig, phase)), there = predict(*m, features_of(*m, anchor, phase));
  if (!(here > 0) || !(there > 0)) return std::nullopt;
  return Answer{nearest->second.median_s * here / there, m->loo_error, Source::fitted,
                fmt::format("timed at n{}, carried to n{} by the {} {} model", nearest->first, n, sig.op, phase)};
}

Answer KernelTimes::at_measured_threads(const kernels::Signature& sig, const std::string& phase, int threads) const {
  if (auto a = from_profile(sig, phase, threads)) return *a;
  if (auto a = other_dtype(sig, phase)) return *a;
  if (auto a = training_forward(sig, phase)) return *a;
  if (auto a = as_stand_in(sig, phase, threads)) return *a;
  return fallback(sig, phase, threads);
}

// A GPU profile timed in training mode (dlsim-gpu-bench's default) has no eval forward:
// it is the training forward carried by the GPU's rooflines for the two phases, which
// differ where the eval forward does less (batch norm applies its running statistics
// instead of reading the batch twice for its own).  On the H200, ResNet-50's fp32
// inference at batch 256 was priced 71.4 ms with the training forward's batch norms
// (14.4 ms of it); PyTorch ran it in 66.9.
std::optional<Answer> KernelTimes::training_forward(const kernels::Signature& sig, const std::string& phase) const {
  if (!options_.gpu || phase != "infer") return std::nullopt;
  auto a = from_profile(sig, "fwd", 1);
  if (!a) a = other_dtype(sig, "fwd");
  if (!a) return std::nullopt;
  const GpuRates& gpu = options_.gpu->measured_on;
  a->seconds *= gpu_roofline(sig, "infer", gpu).seconds() / gpu_roofline(sig, "fwd", gpu).seconds();
  a->rel_error = std::hypot(a->rel_error, kScalingError);
  a->source = Source::scaled;
  a->basis += fmt::format("; the training forward carried to the eval forward by {}'s rooflines", gpu.name);
  return a;
}

std::optional<Answer> KernelTimes::from_profile(const kernels::Signature& sig, const std::string& phase,
                                                int threads) const {
  if (auto it = profile_.measured.find({sig.text, phase, threads}); it != profile_.measured.end())
    return Answer{it->second.median_s, spread(it->second), Source::measured,
                  fmt::format("timed, {} repetitions", it->second.repetitions), it->second.cpu_s};
  if (auto a = native_on_one_thread(sig, phase, threads)) return a;
  if (auto a = by_batch(sig, phase, threads)) {
    busy_as_timed(sig, phase, threads, *a);
    return a;
  }
  if (const FitModel* m = fit(sig, phase, threads)) {
    const double t = predict(*m, features_of(*m, sig, phase));
    if (!(t > 0)) return std::nullopt;
    Answer a{t, m->loo_error, Source::fitted, fmt::format("{} {} model fitted to {} kernels", sig.op, phase, m->points)};
    floor_at_memory_roof(sig, phase, a);
    busy_as_timed(sig, phase, threads, a);
    return a;
  }
  return std::nullopt;
}

// PyTorch runs a convolution itself on several threads only at batch 1
// (pytorch_runs_natively), where its loop over the batch has one iteration and the
// reference BLAS has no threads: the kernel runs on one thread whatever the team, and is
// priced so.  A team's fit has never seen such a kernel: the calibrations time batch 1
// only for ResNet-18, none of whose convolutions PyTorch runs itself on two threads.
std::optional<Answer> KernelTimes::native_on_one_thread(const kernels::Signature& sig, const std::string& phase,
                                                        int threads) const {
  if (threads <= 1 || !profile_.pytorch_cpu_ops() || !pytorch_runs_natively(sig, threads) ||
      std::find(threads_.begin(), threads_.end(), 1) == threads_.end())
    return std::nullopt;
  auto a = from_profile(sig, phase, 1);
  if (a) a->basis += fmt::format("; PyTorch runs it itself on one thread of the {}", threads);
  return a;
}

// Batches at which PyTorch took the path it takes at this one: a timing at batch 8, run
// as im2col and GEMM, says little of oneDNN's kernel at batch 16.
std::map<int64_t, Timing> KernelTimes::on_same_path(const kernels::Signature& sig, int threads,
                                                    const std::map<int64_t, Timing>& timings) const {
  if (!profile_.pytorch_cpu_ops() || sig.op != "conv2d") return timings;
  const bool native = pytorch_runs_natively(sig, threads);
  std::map<int64_t, Timing> same;
  for (const auto& [n, t] : timings) {
    auto other = sig;
    other.fields["n"] = {n};
    if (pytorch_runs_natively(other, threads) == native) same.emplace(n, t);
  }
  return same;
}

// DeepBench, which the GPU fits learn from, timed no depthwise convolution: extrapolated to
// EfficientNet's 256x96x112x112 depthwise 3x3, the V100's forward model said 1.1 ms, less
// than the 1.7 ms its 1.5 GB of input and output take at the memory's peak.  Only the
// memory roof is a floor: Winograd and FFT convolutions do fewer multiplications than the
// direct FLOP count the compute roof assumes, and cuDNN's 3x3 kernels beat it.
void KernelTimes::floor_at_memory_roof(const kernels::Signature& sig, const std::string& phase, Answer& a) const {
  if (!options_.gpu) return;
  const GpuRates& gpu = options_.gpu->measured_on;
  const double floor = gpu_roofline(sig, phase, gpu).memory_s;
  if (a.seconds >= floor) return;
  a.seconds = floor;
  a.basis += fmt::format(", below the time {}'s memory needs to move its bytes and raised to it", gpu.name);
}

Answer KernelTimes::thread_scaled(const kernels::Signature& sig, const std::string& phase, int threads) const {
  const int most = threads_.back();
  const Answer one = at_measured_threads(sig, phase, threads_.front());
  if (threads_.front() != 1 || most == 1) {
    Answer a = one;
    a.source = Source::scaled;
    a.rel_error = std::hypot(a.rel_error, kScalingError);
    a.basis = fmt::format("{} thread(s) timed only; no speed-up assumed at {}", threads_.front(), threads);
    return a;
  }
  const Answer many = at_measured_threads(sig, phase, most);
  // Amdahl: T(p) = T(1) (f + (1 - f) / p), with f from the two timed thread counts.
  const double f = std::clamp((many.seconds / one.seconds * most - 1) / (most - 1), 0.0, 1.0);
  return {one.seconds * (f + (1 - f) / threads), std::hypot(std::max(one.rel_error, many.rel_error), kScalingError),
          Source::scaled, fmt::format("Amdahl's law through 1 and {} threads (serial fraction {:.2f})", most, f)};
}

// A GPU profile that did not time this kernel in its data type prices it from a twin it
// timed, by the ratio of the GPU's rooflines for the two (tensor cores, half the bytes).
// The twin is fp32, except for TF32 on a target GPU with TF32 tensor cores: there it runs
// the tensor-core kernels its fp16 twin runs, at the tensor cores' TF32 rate and with
// fp32's bytes.  Carried from fp32's CUDA-core timings instead, an A100's TF32 was priced
// at its tensor cores' full 156 TFLOP/s: ResNet-50 trained 65% faster than NVIDIA measured.
std::optional<Answer> KernelTimes::other_dtype(const kernels::Signature& sig, const std::string& phase) const {
  if (!options_.gpu || sig.dtype == "fp32") return std::nullopt;
  const bool tensor_tf32 = sig.dtype == "tf32" && options_.gpu->target.tf32_tensor_flops > 0;
  const std::vector<std::string> twins = tensor_tf32 ? std::vector<std::string>{"fp16", "fp32"}
                                                     : std::vector<std::string>{"fp32"};
  for (const std::string& twin_type : twins) {
    std::string text = sig.text;
    text.replace(text.find(sig.dtype), sig.dtype.size(), twin_type);
    const auto twin = kernels::parse_signature(text);
    auto a = from_profile(twin, phase, 1);
    if (!a) continue;
    const GpuRates& gpu = options_.gpu->measured_on;
    a->seconds *= gpu_roofline(sig, phase, gpu).seconds() / gpu_roofline(twin, phase, gpu).seconds();
    a->rel_error = std::hypot(a->rel_error, kScalingError);
    a->source = Source::scaled;
    a->basis += fmt::format("; {} carried to {} by {}'s rooflines", twin_type, sig.dtype, gpu.name);
    return a;
  }
  return std::nullopt;
}

void KernelTimes::carry_to_target_gpu(const kernels::Signature& sig, const std::string& phase, Answer& a) const {
  const auto& [from, to] = *options_.gpu;
  if (from.name == to.name || a.source == Source::fallback) return;
  if (sig.op == "memcpy" && phase.rfind("d2d", 0) != 0) {  // host to device or back: the host's link decides
    a.basis += fmt::format("; a host copy, taken as on {}", from.name);
    return;
  }
  const Roofline there = gpu_roofline(sig, phase, to);
  a.seconds *= there.seconds() / gpu_roofline(sig, phase, from).seconds();
  a.rel_error = std::hypot(a.rel_error, kScalingError);
  a.source = Source::scaled;
  a.basis += fmt::format("; carried from {} to {} as a {}-bound kernel", from.name, to.name,
                         there.memory_bound() ? "memory" : "compute");
}

Answer KernelTimes::fallback(const kernels::Signature& sig, const std::string& phase, int threads) const {
  const bool gpu = options_.gpu.has_value();
  if (!options_.allow_fallback || (!gpu && (options_.fallback_flops_per_s <= 0 || options_.fallback_bytes_per_s <= 0)))
    throw UnrunnableError(fmt::format(
        "the calibration profile has no basis for '{}' ({}{}): it timed no such kernel and fitted no {} {} model; "
        "{} or set system.allow_fallback = true to accept a roofline estimate",
        sig.text, phase, gpu ? "" : fmt::format(" on {} thread(s)", threads), sig.op, phase,
        gpu ? "time it on a GPU (calibration/measure_gpu.sh, then dlsim calibrate RAW.json --catalog-gpu ...)"
            : "calibrate this network (dlsim calibrate --cpu --models ...)"));
  if (gpu)
    return {gpu_roofline(sig, phase, options_.gpu->target).seconds(), 1.0, Source::fallback,
            fmt::format("roofline of the catalog's {} (error assumed 100%)", options_.gpu->target.name)};
  const auto f = kernel_features(sig, phase);
  const double t = std::max(f.flops / options_.fallback_flops_per_s, f.bytes / options_.fallback_bytes_per_s) /
                   std::max(threads, 1);
  return {t, 1.0, Source::fallback, "roofline of the catalog CPU (error assumed 100%)"};
}

Answer KernelTimes::on_profiles_cpu(const kernels::Signature& sig, const std::string& phase, int threads) const {
  const bool measured_threads = std::find(threads_.begin(), threads_.end(), threads) != threads_.end();
  return threads_.empty()   ? fallback(sig, phase, threads)
         : measured_threads ? at_measured_threads(sig, phase, threads)
                            : thread_scaled(sig, phase, threads);
}

// On another CPU whose catalog entry measured how fast one thread writes pages faulted
// afresh, the profile's first_touch takes the target's rates for one thread (warm pages at
// its write_bandwidth where measured, else by clock); other thread counts keep their ratio
// to one thread in the profile.  A page's price is fresh minus warm, so a warm rate alone
// (the other VMs' entries) leaves both to the clocks.  A page's price inside passes
// (kInPassPagePhase) keeps its ratio to the profile's fresh page on one thread.
bool KernelTimes::written_at_targets_rate(const kernels::Signature& sig, const std::string& phase, int threads,
                                          Answer& a) const {
  const CpuScaling& cpu = *options_.cpu;
  // A page inside a pass goes as a fresh page does: both are the fault and the zeroing.
  const bool in_pass = phase == kInPassPagePhase;
  const double rate = phase == "warm" ? cpu.write_Bps : phase == "fresh" || in_pass ? cpu.fresh_write_Bps : 0;
  if (sig.op != kFirstTouchOp || !(cpu.fresh_write_Bps > 0) || !(rate > 0)) return false;
  const Answer one = in_pass ? on_profiles_cpu(sig, "fresh", 1) : threads == 1 ? a : on_profiles_cpu(sig, phase, 1);
  if (!(one.seconds > 0)) return false;
  const double bytes = double(sig.get("n")) * double(sig.get("e")) * 4;  // fp32 elements
  const double ratio = bytes / rate / one.seconds;
  a.seconds *= ratio;
  a.cpu_seconds *= ratio;
  a.rel_error = std::hypot(a.rel_error, kScalingError);
  a.source = Source::scaled;
  a.basis += fmt::format("; pages written {} on {} at its measured {:.2f} GB/s a thread", in_pass ? "fresh" : phase,
                         cpu.target, rate / 1e9);
  return true;
}

Answer KernelTimes::time(const std::string& signature, const std::string& phase, int threads) const {
  const auto sig = kernels::parse_signature(signature);
  Answer a = on_profiles_cpu(sig, phase, threads);
  if (options_.gpu) carry_to_target_gpu(sig, phase, a);
  if (options_.cpu && a.source != Source::fallback && !written_at_targets_rate(sig, phase, threads, a)) {
    const auto& cpu = *options_.cpu;
    const double ratio = compute_bound(sig, phase) ? cpu.compute_ratio : cpu.clock_ratio;
    a.seconds *= ratio;
    a.cpu_seconds *= ratio;
    a.rel_error = std::hypot(a.rel_error, kScalingError);
    a.source = Source::scaled;
    a.basis += "; " + cpu.basis;
  }
  return a;
}

}  // namespace dlsim::perf
