#include "perf/benchmark_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/text_file.hpp"

namespace dlsim::perf {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& path, const std::string& key, const std::string& value,
                      const std::string& expected) {
  throw InputError(Problem{{path, 0, 0}, key, value, expected,
                           "benchmark files come from kernels/cpu/dlsim-cpu-bench or kernels/gpu with "
                           "--benchmark_out_format=json"});
}

double seconds_per(const std::string& unit) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  if (unit == "s") return 1.0;
  return 0;
}

// "<signature> | threads=<n> | <phase>/real_time" (CPU) or "<signature> | gpu | <phase>/manual_time"
// (GPU: one device, recorded as one thread) -> key; false when the name is not ours.
bool parse_name(const std::string& name, KernelKey& key) {
  if (const auto gpu = name.find(" | gpu | "); gpu != std::string::npos) {
    key.signature = name.substr(0, gpu);
    key.threads = 1;
    key.phase = name.substr(gpu + 9);
    key.phase = key.phase.substr(0, key.phase.find('/'));
    return !key.signature.empty() && !key.phase.empty();
  }
  const auto first = name.find(" | threads=");
  if (first == std::string::npos) return false;
  const auto second = name.find(" | ", first + 3);
  if (second == std::string::npos) return false;
  key.signature = name.substr(0, first);
  const std::string threads = name.substr(first + 11, second - first - 11);
  if (threads.empty() || threads.size() > 6 || threads.find_first_not_of("0123456789") != std::string::npos)
    return false;
  key.threads = std::stoi(threads);
  key.phase = name.substr(second + 3);
  key.phase = key.phase.substr(0, key.phase.find('/'));
  return !key.signature.empty() && !key.phase.empty() && key.threads > 0;
}

// Google Benchmark writes a non-finite statistic as a bare NaN or Infinity (the coefficient
// of variation of a counter that is zero in every repetition, say), which is not JSON: each
// such token outside a string becomes null, so the rows around it still read.
std::string nonfinite_to_null(const std::string& text) {
  static const char* const tokens[] = {"-Infinity", "Infinity", "-NaN", "NaN", "-nan", "nan", "-inf", "inf"};
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) out += text[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    const auto token = std::find_if(std::begin(tokens), std::end(tokens),
                                    [&](const char* t) { return text.compare(i, std::strlen(t), t) == 0; });
    if (token != std::end(tokens)) {
      out += "null";
      i += std::strlen(*token) - 1;
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

Timing summarize(std::vector<double> seconds) {
  Timing t;
  if (seconds.empty()) return t;
  std::sort(seconds.begin(), seconds.end());
  auto quantile = [&](double q) {
    const double pos = q * static_cast<double>(seconds.size() - 1);
    const auto lo = static_cast<size_t>(std::floor(pos));
    const size_t hi = std::min(lo + 1, seconds.size() - 1);
    return seconds[lo] + (pos - static_cast<double>(lo)) * (seconds[hi] - seconds[lo]);
  };
  t.median_s = quantile(0.5);
  t.p10_s = quantile(0.1);
  t.p90_s = quantile(0.9);
  t.repetitions = static_cast<int>(seconds.size());
  return t;
}

RawBenchmarks parse_benchmark_json(const std::string& text, const std::string& path) {
  const json doc = json::parse(nonfinite_to_null(text), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) bad(path, "", "", "a JSON object (Google Benchmark output)");
  if (!doc.contains("benchmarks") || !doc["benchmarks"].is_array())
    bad(path, "benchmarks", "", "an array of benchmark rows");
  RawBenchmarks raw;
  raw.path = path;
  if (doc.contains("context") && doc["context"].is_object())
    for (const auto& [k, v] : doc["context"].items())
      if (v.is_string()) raw.context[k] = v.get<std::string>();
  for (const auto& row : doc["benchmarks"]) {
    if (!row.is_object() || !row.contains("name") || !row["name"].is_string()) continue;
    const std::string name = row["name"].get<std::string>();
    KernelKey key;
    if (!parse_name(name, key)) bad(path, "benchmarks[].name", name, "'<signature> | threads=<n> | <phase>' or '<signature> | gpu | <phase>'");
    if (row.value("error_occurred", false)) {
      raw.failed.push_back(name + ": " + row.value("error_message", std::string("error")));
      continue;
    }
    if (row.value("run_type", std::string("iteration")) != "iteration") continue;  // aggregates
    const double unit = seconds_per(row.value("time_unit", std::string("ns")));
    if (unit == 0) bad(path, name + ".time_unit", row.value("time_unit", std::string()), "ns, us, ms or s");
    if (!row.contains("real_time") || !row["real_time"].is_number())
      bad(path, name + ".real_time", "", "a number");
    const double t = row["real_time"].get<double>() * unit;
    if (!(t > 0) || !std::isfinite(t)) bad(path, name + ".real_time", std::to_string(t), "a positive time");
    raw.times[key].push_back(t);
    // Every thread's CPU time (kernels/pytorch/benchmark_file.py); Google Benchmark's own
    // cpu_time counts the calling thread only, so it is not read.
    if (row.contains("process_cpu_time") && row["process_cpu_time"].is_number())
      raw.cpu_times[key].push_back(row["process_cpu_time"].get<double>() * unit);
  }
  if (raw.times.empty()) bad(path, "benchmarks", "", "at least one timed kernel");
  return raw;
}

RawBenchmarks read_benchmark_json(const std::string& path) {
  return parse_benchmark_json(read_text_file(path, "a readable benchmark JSON file", "check the path"), path);
}

}  // namespace dlsim::perf
