#include "perf/profile_writer.hpp"

#include <fmt/format.h>

namespace dlsim::perf {
namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<int>(c));
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string number(double v) { return fmt::format("{:.6g}", v); }

std::string list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out + "]";
}

}  // namespace

std::string profile_toml(const Profile& p) {
  std::string out =
      "# dlsim calibration profile, written by `dlsim calibrate`; refit rather than edit.\n"
      "# [kernels] holds every measured kernel (median, P10 and P90 over repetitions, in\n"
      "# microseconds); [[fit]] the per-operator models that price kernels nobody measured.\n\n";
  out += "[profile]\n";
  out += fmt::format("device = {}\nmachine = {}\ncpu = {}\n", quoted(p.device), quoted(p.machine), quoted(p.cpu));
  if (!p.gpu.empty()) out += fmt::format("gpu = {}\n", quoted(p.gpu));
  out += fmt::format("fitted_by = {}\n", quoted(p.fitted_by));
  out += "sources = [\n";
  for (const auto& s : p.sources) out += "  " + quoted(s) + ",\n";
  out += "]\n\n[profile.identity]\n";
  for (const auto& [k, v] : p.identity) out += fmt::format("{} = {}\n", k, quoted(v));
  const auto& f = p.framework;
  out += fmt::format("\n[framework]\nname = {}\nkernels_from = {}\n", quoted(f.name), quoted(f.kernels_from));
  if (f.kernels_from == "onednn")  // the rules say how PyTorch's CPU path uses oneDNN and BLAS
    out += fmt::format(
        "conv_layout = {}\nlinear_uses_blas = {}\npointwise_conv_blas_below_batch = {}\n"
        "pointwise_conv_blas_max_threads = {}\ntraining_reorders_per_conv = {}\n",
        quoted(f.conv_layout), f.linear_uses_blas, f.pointwise_conv_blas_below_batch,
        f.pointwise_conv_blas_max_threads, f.training_reorders_per_conv);
  if (f.host_allocator != "none") out += fmt::format("host_allocator = {}\n", quoted(f.host_allocator));
  out += "\n[kernels]\nmeasured = [\n";
  for (const auto& [k, t] : p.measured)
    out += fmt::format("  {{ signature = {}, phase = {}, threads = {}, median_us = {}, p10_us = {}, p90_us = {}, "
                       "reps = {}{} }},\n",
                       quoted(k.signature), quoted(k.phase), k.threads, number(t.median_s * 1e6),
                       number(t.p10_s * 1e6), number(t.p90_s * 1e6), t.repetitions,
                       t.cpu_s > 0 ? ", cpu_us = " + number(t.cpu_s * 1e6) : "");
  out += "]\n";
  for (const auto& m : p.fits) {
    std::vector<std::string> names, coefs;
    for (const auto& n : m.features) names.push_back(quoted(n));
    for (double c : m.coefficients) coefs.push_back(number(c));
    out += fmt::format("\n[[fit]]\nop = {}\ndtype = {}\nphase = {}\nthreads = {}\nfeatures = {}\ncoefficients = {}\n"
                       "loo_error = {}\npoints = {}\n",
                       quoted(m.op), quoted(m.dtype), quoted(m.phase), m.threads, list(names), list(coefs), number(m.loo_error),
                       m.points);
  }
  for (const auto& [threads, trace] : p.stalls) {  // kernels/pytorch/stall_trace.py
    std::vector<std::string> durations;
    for (double d : trace.durations_s) durations.push_back(number(d * 1e6));
    out += fmt::format("\n[[stalls]]\nthreads = {}\ntraced_s = {}\ndurations_us = {}\n", threads,
                       number(trace.traced_s), list(durations));
    if (trace.speed.slowdowns.empty()) continue;
    std::vector<std::string> slowdowns;
    for (double s : trace.speed.slowdowns) slowdowns.push_back(fmt::format("{:.4f}", s));
    out += fmt::format("speed_window_ms = {}\nspeed = {}\n", number(trace.speed.window_s * 1e3), list(slowdowns));
  }
  return out;
}

}  // namespace dlsim::perf
