#include "perf/fit.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "core/error.hpp"
#include "perf/features.hpp"
#include "perf/step_allocations.hpp"
#include "signature.hpp"

namespace dlsim::perf {
namespace {

struct Solution {
  Eigen::VectorXd coef;
  double loo_error = 1.0;
};

// min || diag(w) X c - b ||, with columns scaled for conditioning; leave-one-out
// residuals from the hat matrix (r_i / (1 - h_ii)).
Solution solve(const Eigen::MatrixXd& x, const Eigen::VectorXd& w, const Eigen::VectorXd& b) {
  const Eigen::Index n = x.rows(), p = x.cols();
  Eigen::MatrixXd a = x.array().colwise() * w.array();
  Eigen::VectorXd scale = a.colwise().maxCoeff().transpose().cwiseMax(1e-300);
  a = a * scale.cwiseInverse().asDiagonal();
  const auto qr = a.colPivHouseholderQr();
  Solution s;
  s.coef = qr.solve(b).cwiseQuotient(scale);
  if (n <= p) return s;
  const Eigen::MatrixXd gram_inv = (a.transpose() * a).completeOrthogonalDecomposition().pseudoInverse();
  const Eigen::VectorXd residual = b - a * (s.coef.cwiseProduct(scale));
  double sum = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double h = a.row(i) * gram_inv * a.row(i).transpose();
    const double loo = residual(i) / std::max(1.0 - h, 1e-3);
    sum += loo * loo;
  }
  s.loo_error = std::sqrt(sum / static_cast<double>(n));
  return s;
}

// The columns of x that active names.
Eigen::MatrixXd columns(const std::vector<std::vector<double>>& x, const std::vector<size_t>& active) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(x.size()), static_cast<Eigen::Index>(active.size()));
  for (size_t i = 0; i < x.size(); ++i)
    for (size_t j = 0; j < active.size(); ++j) m(Eigen::Index(i), Eigen::Index(j)) = x[i][active[j]];
  return m;
}

// solve() with every cost non-negative: a feature whose coefficient comes out negative
// explains nothing (a negative cost per FLOP or byte) and leaves the model, the most
// negative first; active keeps the features that stay.
Solution solve_non_negative(const std::vector<std::vector<double>>& x, std::vector<size_t>& active,
                            const Eigen::VectorXd& w, const Eigen::VectorXd& b) {
  for (;;) {
    Solution s = solve(columns(x, active), w, b);
    Eigen::Index worst = 0;
    if (active.size() == 1 || s.coef.minCoeff(&worst) >= 0) return s;
    active.erase(active.begin() + worst);
  }
}

// Gauss-Newton steps from the relative-error fit towards the least squares of log(p / y).
// Least squares on relative error (p - y) / y is biased low: shrinking every prediction
// trades overestimates (unbounded) for underestimates (at most -1).  On DeepBench's cuDNN
// sheets that bias is -10..-28% in log terms per kernel and -13..-18% on the summed time
// of the held-out kernels, which is what a network's step adds up; the log fit leaves
// -1..-5% there.  Each step minimises || (X c - p0) / p0 + log(p0 / y) ||.
constexpr int kLogSteps = 30;

}  // namespace

FitModel fit_model(const std::vector<std::vector<double>>& x, const std::vector<double>& seconds,
                   std::vector<std::string> features) {
  std::vector<size_t> active(features.size());
  for (size_t i = 0; i < active.size(); ++i) active[i] = i;
  // A model needs fewer features than points to say how wrong it is.
  while (active.size() > 1 && active.size() >= seconds.size()) active.pop_back();
  const Eigen::Index n = static_cast<Eigen::Index>(seconds.size());
  const Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(seconds.data(), n);
  Solution s = solve_non_negative(x, active, y.cwiseInverse(), Eigen::VectorXd::Ones(n));
  for (int step = 0; step < kLogSteps; ++step) {
    // Never below a thousandth of the measurement, so the logarithm stays finite.
    const Eigen::VectorXd p0 = (columns(x, active) * s.coef).cwiseMax(1e-3 * y);
    const Eigen::VectorXd b = Eigen::VectorXd::Ones(n) - (p0.array() / y.array()).log().matrix();
    const Eigen::VectorXd previous = s.coef;
    const size_t kept = active.size();
    s = solve_non_negative(x, active, p0.cwiseInverse(), b);
    if (active.size() == kept && ((s.coef - previous).cwiseAbs().array() <= 1e-9 * previous.cwiseAbs().array()).all())
      break;
  }
  FitModel model;
  model.features = features;
  model.coefficients.assign(features.size(), 0.0);
  for (size_t j = 0; j < active.size(); ++j) model.coefficients[active[j]] = std::max(0.0, s.coef(Eigen::Index(j)));
  model.loo_error = s.loo_error;
  model.points = static_cast<int>(n);
  return model;
}

double predict(const FitModel& model, const std::vector<double>& x) {
  double t = 0;
  for (size_t k = 0; k < model.coefficients.size(); ++k) t += model.coefficients[k] * x[k];
  return t;
}

double coefficient(const FitModel& model, const std::string& feature) {
  const auto it = std::find(model.features.begin(), model.features.end(), feature);
  return it == model.features.end() ? 0.0 : model.coefficients[size_t(it - model.features.begin())];
}

namespace {

// "pytorch" for kernels/pytorch output, "cudnn" for GPU kernels, "onednn" for kernels/cpu's.
std::string way_of_timing(const RawBenchmarks& file) {
  const auto it = file.context.find("framework");
  return it == file.context.end() ? "onednn" : it->second;
}

// Copies between host and GPU and collectives (dlsim-gpu-bench --copies, --allreduce) are
// the driver's and NCCL's work, whichever framework asks for them: a file of nothing else
// can join a profile of a framework's operators timed on the same GPU.
bool transfers_only(const RawBenchmarks& file) {
  return !file.times.empty() && std::all_of(file.times.begin(), file.times.end(), [](const auto& entry) {
    const std::string& s = entry.first.signature;
    return s.rfind("memcpy ", 0) == 0 || s.rfind("allreduce ", 0) == 0;
  });
}

// A row of kernels/pytorch/stall_trace.py's trace, not a kernel.
bool traces_stalls(const KernelKey& key) { return key.signature.rfind(std::string(kStallOp) + " ", 0) == 0; }

// A speed trace's windows (their median calls, in order) as slowdowns over the median window.
std::vector<double> slowdowns(std::vector<double> windows) {
  const double median = summarize(windows).median_s;
  for (double& w : windows) w /= median;
  return windows;
}

// A model that saw no kernel with the feature cannot price one: without it, its kernels
// are priced as the others (a group of convolutions PyTorch ran in oneDNN alone).  Drops
// feature `name` unless `seen` holds for some row (by default, its value not zero): a column
// the data never shows, or shows too little of to learn a cost from.
void drop_unseen(std::vector<std::string>& features, std::vector<std::vector<double>>& x, const std::string& name,
                 std::function<bool(const std::vector<double>&, size_t)> seen = nullptr) {
  const auto it = std::find(features.begin(), features.end(), name);
  if (it == features.end()) return;
  const auto column = size_t(it - features.begin());
  if (!seen) seen = [](const std::vector<double>& row, size_t c) { return row[c] != 0; };
  if (std::any_of(x.begin(), x.end(), [&](const auto& row) { return seen(row, column); })) return;
  features.erase(it);
  for (auto& row : x) row.erase(row.begin() + column);
}

}  // namespace

Profile fit_profile(const std::vector<RawBenchmarks>& raw, const FitInputs& inputs) {
  Profile profile;
  profile.machine = inputs.machine;
  profile.cpu = inputs.cpu;
  profile.gpu = inputs.gpu;
  profile.fitted_by = inputs.fitted_by;
  std::map<KernelKey, std::vector<double>> times, cpu_times;
  // Kernels timed through a framework and kernels timed in oneDNN are not one machine's
  // answers to one question: they cannot share a profile.  Transfers can join kernels,
  // wherever they come in the list: only their GPU must be the kernels'.
  const auto kernels_file = std::find_if(raw.begin(), raw.end(), [](const auto& f) { return !transfers_only(f); });
  const RawBenchmarks& lead = kernels_file == raw.end() ? raw.front() : *kernels_file;
  for (const auto& file : raw) {
    profile.sources.push_back(file.path);
    const bool transfers = transfers_only(file) && !transfers_only(lead);
    const std::string way = way_of_timing(file), first = way_of_timing(lead);
    if (way != first && !transfers)
      throw InputError(Problem{{file.path, 0, 0}, "context.framework", way,
                               "the same way of timing as " + lead.path + " ('" + first + "')",
                               "fit kernels/cpu and kernels/pytorch output into separate profiles"});
    for (const char* k : {"cpu_model", "onednn_version", "onednn_cpu_isa", "cpu_logical_cores", "framework",
                          "torch_version", "device", "gpu_name", "gpu_sm_count", "cuda_runtime", "cudnn", "cublas",
                          "published_by", "grpc_version", "cpp_httplib_version", "python_stack_version", "endpoint", "idle_ms",
                          "handler_model", "torchvision_version", "jpeg_bytes"}) {
      auto it = file.context.find(k);
      if (it == file.context.end()) continue;
      if (transfers && std::string(k) != "gpu_name" && std::string(k) != "gpu_sm_count") continue;
      auto [known, inserted] = profile.identity.emplace(k, it->second);
      if (!inserted && known->second != it->second)
        throw InputError(Problem{{file.path, 0, 0}, std::string("context.") + k, it->second,
                                 "the same machine as the other files ('" + known->second + "')",
                                 "fit one profile per machine and per way of timing"});
    }
    for (const auto& [key, t] : file.times) {
      // A speed trace is a file's own: its windows are slowdowns over its own median
      // window, so that traces of several sessions pool into one of the machine's kind.
      const auto windows = traces_stalls(key) && key.phase == "speed" ? slowdowns(t) : t;
      times[key].insert(times[key].end(), windows.begin(), windows.end());
    }
    for (const auto& [key, t] : file.cpu_times) cpu_times[key].insert(cpu_times[key].end(), t.begin(), t.end());
  }
  const auto identity = [&profile](const char* key) {
    const auto it = profile.identity.find(key);
    return it == profile.identity.end() ? std::string("unknown") : it->second;
  };
  if (identity("device") == "gpu" && identity("framework") == "pytorch") {
    // PyTorch's own operators on the GPU (kernels/pytorch/torch_gpu_op_bench.py).
    profile.device = "gpu";
    profile.framework.kernels_from = "framework";
    profile.framework.name = fmt::format("pytorch-{}-gpu-ops", identity("torch_version"));
  } else if (identity("device") == "gpu") {
    profile.device = "gpu";
    profile.framework.kernels_from = "cudnn";
    profile.framework.name = "cudnn-" + identity("cudnn");
  } else if (identity("device") == "network") {
    // Messages through a protocol stack (kernels/net): one request's cost and each byte's.
    profile.device = "network";
    profile.framework.kernels_from = "framework";
    // The stack's version: gRPC C++'s, cpp-httplib's, or Python's and grpcio's.
    const std::string stack = identity("framework");
    const char* version = stack == "grpc" ? "grpc_version"
                          : stack == "http" ? "cpp_httplib_version"
                                            : "python_stack_version";
    profile.framework.name = fmt::format(fmt::runtime(stack == "grpc" || stack == "http" ? "{}-{}" : "{} on {}"), stack,
                                         identity(version));
  } else if (identity("framework") == "torchvision") {
    // Images decoded and augmented on a CPU core (kernels/pytorch/input_bench.py).
    profile.framework.kernels_from = "framework";
    profile.framework.name = "torchvision-" + identity("torchvision_version") + "-input";
  } else if (profile.identity.count("framework")) {
    profile.framework.kernels_from = "framework";
    profile.framework.name = fmt::format("{}-{}-cpu-ops", identity("framework"), identity("torch_version"));
  }
  // A CPU timed with the page price: its framework's steps run on glibc's malloc.
  if (profile.device == "cpu" && std::any_of(times.begin(), times.end(), [](const auto& entry) {
        return entry.first.signature.rfind(kFirstTouchOp, 0) == 0;
      }))
    profile.framework.host_allocator = "glibc";
  if (profile.device == "gpu" && profile.gpu.empty())
    throw InputError(Problem{{raw.front().path, 0, 0}, "--catalog-gpu", "", "the catalog GPU these kernels ran on",
                             "e.g. --catalog-gpu v100-sxm2 (dlsim hw list)"});
  struct Group {
    std::vector<std::vector<double>> x;
    std::vector<double> y;
  };
  std::map<std::tuple<std::string, std::string, std::string, int>, Group> groups;
  const bool pytorch = profile.pytorch_cpu_ops();
  for (auto& [key, t] : times) {
    if (traces_stalls(key)) {
      StallTrace& trace = profile.stalls[key.threads];
      if (key.phase == "traced")
        for (double s : t) trace.traced_s += s;
      else if (key.phase == "window" && std::adjacent_find(t.begin(), t.end(), std::not_equal_to<>()) != t.end())
        throw InputError(Problem{{raw.front().path, 0, 0}, fmt::format("{} threads={}", kStallOp, key.threads),
                                 "window", "speed traces of one window length, to pool them",
                                 "trace every session with stall_trace.py's same --window-ms"});
      else if (key.phase == "window")
        trace.speed.window_s = t.front();
      else if (key.phase == "speed")
        trace.speed.slowdowns = t;
      else
        trace.durations_s.insert(trace.durations_s.end(), t.begin(), t.end());
      continue;
    }
    profile.measured[key] = summarize(t);
    if (const auto cpu = cpu_times.find(key); cpu != cpu_times.end())
      profile.measured[key].cpu_s = summarize(cpu->second).median_s;
    const auto sig = kernels::parse_signature(key.signature);
    const auto f = kernel_features(sig, key.phase, pytorch ? key.threads : 0);
    auto& g = groups[{sig.op, sig.dtype, key.phase, key.threads}];
    std::vector<double> x;
    for (const auto& name : model_features(sig.op, pytorch)) x.push_back(feature_value(f, name));
    g.x.push_back(std::move(x));
    g.y.push_back(profile.measured[key].median_s);
  }
  for (const auto& [threads, trace] : profile.stalls)
    if (trace.speed.slowdowns.empty() != (trace.speed.window_s <= 0))
      throw InputError(Problem{{raw.front().path, 0, 0}, fmt::format("{} threads={}", kStallOp, threads),
                               trace.speed.slowdowns.empty() ? "window" : "speed",
                               "a speed trace's windows and their length, both",
                               "rerun kernels/pytorch/stall_trace.py"});
  for (auto& [id, g] : groups) {
    auto features = model_features(std::get<0>(id), pytorch);
    drop_unseen(features, g.x, "native_flops");
    drop_unseen(features, g.x, "streamed_flops");
    // FLOPs beyond the L2 cost more only where a layer within it did many (features.hpp).
    const auto flops = size_t(std::find(features.begin(), features.end(), "flops") - features.begin());
    drop_unseen(features, g.x, "beyond_l2_flops", [&](const std::vector<double>& row, size_t beyond) {
      return flops < row.size() && row[beyond] == 0 && row[flops] >= kL2FlopsToLearnFrom;
    });
    drop_unseen(features, g.x, "tensors");  // a concatenation on one thread copies serially
    drop_unseen(features, g.x, "parallel");  // nor does any operator on one thread run a team
    FitModel m = fit_model(g.x, g.y, features);
    m.op = std::get<0>(id);
    m.dtype = std::get<1>(id);
    m.phase = std::get<2>(id);
    m.threads = std::get<3>(id);
    profile.fits.push_back(std::move(m));
  }
  return profile;
}

}  // namespace dlsim::perf
