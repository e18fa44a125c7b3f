#include "scenario/profile_reader.hpp"

#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "perf/features.hpp"
#include "scenario/toml_reader.hpp"

namespace dlsim::scenario {
namespace {

constexpr double kMaxMicroseconds = 1e12;
constexpr double kMaxSlowdown = 1e3;  // a speed window this many times the median is no speed

struct Header {
  std::string base;  // a derived profile's measured profile, relative to its own file
  std::string note;
};

void read_header(TableReader& r, perf::Profile& p, Header& h) {
  p.device = r.string("device", true).value_or("cpu");
  p.machine = r.string("machine", true).value_or("");
  p.cpu = r.string("cpu").value_or("");
  p.gpu = r.string("gpu").value_or("");
  if (p.device == "gpu" && p.gpu.empty()) r.problem("gpu", "", "the catalog GPU the kernels ran on (device = \"gpu\")");
  p.fitted_by = r.string("fitted_by").value_or("");
  h.base = r.string("base").value_or("");
  h.note = r.string("note").value_or("");
  p.sources = r.strings("sources").value_or(std::vector<std::string>{});
  if (const auto* identity = r.table("identity"))
    for (const auto& [k, v] : *identity)
      if (v.is_string()) p.identity[std::string(k.str())] = v.as_string()->get();
  r.finish();
}

void read_framework(TableReader& r, perf::FrameworkRules& f) {
  f.name = r.string("name").value_or(f.name);
  f.kernels_from = r.choice("kernels_from", {"onednn", "framework", "cudnn"}).value_or(f.kernels_from);
  f.conv_layout = r.choice("conv_layout", {"plain", "blocked"}).value_or(f.conv_layout);
  f.linear_uses_blas = r.boolean("linear_uses_blas").value_or(f.linear_uses_blas);
  f.pointwise_conv_blas_below_batch =
      static_cast<int>(r.integer("pointwise_conv_blas_below_batch", 0, 1 << 20).value_or(f.pointwise_conv_blas_below_batch));
  f.pointwise_conv_blas_max_threads =
      static_cast<int>(r.integer("pointwise_conv_blas_max_threads", 0, 1 << 16).value_or(f.pointwise_conv_blas_max_threads));
  f.training_reorders_per_conv =
      static_cast<int>(r.integer("training_reorders_per_conv", 0, 16).value_or(f.training_reorders_per_conv));
  f.host_allocator = r.choice("host_allocator", {"none", "glibc"}).value_or(f.host_allocator);
  r.finish();
}

void read_kernel(TableReader& r, perf::Profile& p) {
  const auto signature = r.string("signature", true);
  const auto phase = r.string("phase", true);
  const auto threads = r.integer("threads", 1, 1 << 16, true);
  const auto median = r.number("median_us", 0, kMaxMicroseconds, true);
  const auto p10 = r.number("p10_us", 0, kMaxMicroseconds, true);
  const auto p90 = r.number("p90_us", 0, kMaxMicroseconds, true);
  const auto reps = r.integer("reps", 1, 1 << 20, true);
  const auto cpu = r.number("cpu_us", 0, kMaxMicroseconds);
  r.finish();
  if (signature && phase && threads && median && p10 && p90 && reps)
    p.measured[{*signature, *phase, static_cast<int>(*threads)}] = {*median * 1e-6, *p10 * 1e-6, *p90 * 1e-6,
                                                                    static_cast<int>(*reps), cpu.value_or(0) * 1e-6};
}

void read_fit(TableReader& r, perf::Profile& p) {
  perf::FitModel m;
  m.op = r.string("op", true).value_or("");
  m.dtype = r.string("dtype").value_or(m.dtype);
  m.phase = r.string("phase", true).value_or("");
  m.threads = static_cast<int>(r.integer("threads", 1, 1 << 16, true).value_or(1));
  m.features = r.strings("features", true).value_or(std::vector<std::string>{});
  m.coefficients = r.numbers("coefficients", true).value_or(std::vector<double>{});
  m.loo_error = r.number("loo_error", 0, 1e6, true).value_or(1.0);
  m.points = static_cast<int>(r.integer("points", 1, 1 << 30, true).value_or(0));
  for (const auto& f : m.features)
    if (!perf::is_feature(f)) r.problem("features", f, "one of: " + perf::feature_names());
  if (m.features.size() != m.coefficients.size())
    r.problem("coefficients", fmt::format("{} values", m.coefficients.size()),
              fmt::format("one coefficient per feature ({})", m.features.size()));
  r.finish();
  p.fits.push_back(std::move(m));
}

void read_stalls(TableReader& r, perf::Profile& p) {
  const auto threads = r.integer("threads", 1, 1 << 16, true);
  const auto traced = r.number("traced_s", 1e-3, 1e7, true);
  const auto durations = r.numbers("durations_us", true);
  if (durations)
    for (double d : *durations)
      if (!(d > 0 && d <= kMaxMicroseconds))
        r.problem("durations_us", fmt::format("{}", d), "stalls of a positive number of microseconds",
                  "refit the profile from stall_trace.py's raw file");
  if (threads && p.stalls.count(static_cast<int>(*threads)))
    r.problem("threads", std::to_string(*threads), "one [[stalls]] per thread count");
  const auto window = r.number("speed_window_ms", 1e-3, 1e6, false);
  const auto speed = r.numbers("speed", false);
  if (speed)
    for (double s : *speed)
      if (!(s > 0 && s <= kMaxSlowdown))
        r.problem("speed", fmt::format("{}", s), fmt::format("slowdowns over the median window in (0, {}]", kMaxSlowdown),
                  "refit the profile from stall_trace.py's raw file");
  if (speed.has_value() != window.has_value())
    r.problem(speed ? "speed_window_ms" : "speed", "", "a speed trace and its windows' length, both",
              "refit the profile from stall_trace.py's raw file");
  r.finish();
  if (!threads || !traced || !durations) return;
  perf::StallTrace& trace = p.stalls[static_cast<int>(*threads)];
  trace.traced_s = *traced;
  for (double d : *durations) trace.durations_s.push_back(d * 1e-6);
  if (speed && window && !speed->empty()) trace.speed = {*window * 1e-3, *speed};
}

perf::Profile parse(const std::string& text, const std::string& source_name, Header& header) {
  const toml::table root = parse_document(text, source_name, "profiles are written by dlsim calibrate");
  ProblemList problems;
  perf::Profile p;
  TableReader top(root, "", problems);
  if (const auto* t = top.table("profile")) {
    TableReader r(*t, "profile", problems);
    read_header(r, p, header);
  } else {
    top.problem("profile", "", "a [profile] section", "profiles are written by dlsim calibrate");
  }
  if (const auto* t = top.table("framework")) {
    TableReader r(*t, "framework", problems);
    read_framework(r, p.framework);
  }
  if (const auto* t = top.table("kernels")) {
    TableReader k(*t, "kernels", problems);
    if (const auto* measured = k.array_of_tables("measured")) {
      size_t i = 0;
      for (const auto& entry : *measured) {
        TableReader r(*entry.as_table(), fmt::format("kernels.measured[{}]", i++), problems);
        read_kernel(r, p);
      }
    }
    k.finish();
  }
  if (const auto* fits = top.array_of_tables("fit")) {
    size_t i = 0;
    for (const auto& entry : *fits) {
      TableReader r(*entry.as_table(), fmt::format("fit[{}]", i++), problems);
      read_fit(r, p);
    }
  }
  if (const auto* stalls = top.array_of_tables("stalls")) {
    size_t i = 0;
    for (const auto& entry : *stalls) {
      TableReader r(*entry.as_table(), fmt::format("stalls[{}]", i++), problems);
      read_stalls(r, p);
    }
  }
  top.finish();
  problems.throw_if_any();
  return p;
}

// A file parsed once a process: a search prices every point with the same profile, and
// its forked children inherit what the parent read.  A file written since is read again.
struct ParsedFile {
  std::filesystem::file_time_type written;
  std::uintmax_t bytes = 0;
  perf::Profile profile;
  Header header;
};

ParsedFile parse_file(const std::string& path) {
  ParsedFile f;
  f.profile = parse(
      read_text_file(path, "a readable calibration profile", "calibration/profiles/ holds the committed ones"), path,
      f.header);
  return f;
}

// dlsim runs one thread a process (its parallel work is forked), and never changes directory.
const ParsedFile& parsed(const std::string& path) {
  static std::map<std::string, ParsedFile> files;  // by the path asked, which errors name
  std::error_code ec;
  const auto written = std::filesystem::last_write_time(path, ec);
  const auto bytes = ec ? 0 : std::filesystem::file_size(path, ec);
  if (ec) parse_file(path);  // throws, naming the file it cannot read
  ParsedFile& f = files[path];
  if (f.written != written || f.bytes != bytes) {
    f = parse_file(path);
    f.written = written, f.bytes = bytes;
  }
  return f;
}

}  // namespace

perf::Profile parse_profile(const std::string& text, const std::string& source_name) {
  Header header;
  return parse(text, source_name, header);
}

perf::Profile load_profile(const std::string& path) {
  const ParsedFile& own = parsed(path);
  if (own.header.base.empty()) return own.profile;
  perf::Profile base = load_profile((std::filesystem::path(path).parent_path() / own.header.base).string());
  if (!base.derivation.empty())
    throw InputError(Problem{{path, 0, 0}, "profile.base", own.header.base, "a measured profile, not another derived one",
                             "point base at the profile the kernels were timed in"});
  base.derivation = fmt::format("{} ({}): {}", path, own.profile.gpu, own.header.note);
  return base;
}

}  // namespace dlsim::scenario
