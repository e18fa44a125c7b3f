#include "plan/sweep_records.hpp"

#include <fstream>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsim::plan {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

const char* const kMetrics[] = {"throughput_images_per_s", "offered_images_per_s",   "devices",
                                "step_time_s",             "scaling_efficiency",     "gpu_utilization",
                                "latency_ms.p50",          "latency_ms.p99",         "memory.per_device_bytes",
                                "stages_s.exposed_communication",                    "stages_s.input_stall",
                                "cost.usd_per_hour",       "cost.usd_per_million_images",
                                "cost.job.t_sum_s",        "cost.job.billed_s",      "cost.job.usd"};

const json* find(const json& doc, const std::string& dotted) {
  const json* at = &doc;
  size_t start = 0;
  for (size_t dot; at; start = dot + 1) {
    dot = dotted.find('.', start);
    const std::string part = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    at = at->is_object() && at->contains(part) ? &(*at)[part] : nullptr;
    if (dot == std::string::npos) break;
  }
  return at;
}

// CSV quoting: a field with a comma, quote or newline is quoted, quotes doubled.
std::string field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::map<std::string, double> sweep_metrics(const json& run) {
  std::map<std::string, double> out;
  for (const char* m : kMetrics)
    if (const json* v = find(run, m); v && v->is_number()) out[m] = v->get<double>();
  return out;
}

std::string to_json_line(const PointRecord& r) {
  ordered_json values = ordered_json::object();
  for (const auto& [k, v] : r.point.values) values[k] = v;
  ordered_json line{{"index", r.point.index}, {"values", values}, {"exit_code", r.exit_code}};
  if (r.exit_code == 0) {
    ordered_json metrics = ordered_json::object();
    for (const auto& [k, v] : r.metrics) metrics[k] = v;
    line["metrics"] = metrics;
  } else {
    line["error"] = r.error;
  }
  return line.dump() + "\n";
}

namespace {

bool is_record(const json& j) { return j.is_object() && j.contains("index") && j.contains("values") && j.contains("exit_code"); }

PointRecord from_json(const json& j) {
  PointRecord r;
  r.point.index = j["index"].get<size_t>();
  for (const auto& [k, v] : j["values"].items()) r.point.values.emplace_back(k, v.get<std::string>());
  r.exit_code = j["exit_code"].get<int>();
  r.error = j.value("error", std::string());
  if (j.contains("metrics"))
    for (const auto& [k, v] : j["metrics"].items()) r.metrics[k] = v.get<double>();
  return r;
}

}  // namespace

PointRecord read_record_line(const std::string& line) {
  const json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !is_record(j)) return PointRecord{{}, 1, "no record: " + line.substr(0, 200), {}};
  return from_json(j);
}

std::map<size_t, PointRecord> read_records(const std::string& path) {
  std::map<size_t, PointRecord> out;
  std::ifstream in(path);
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (line.empty()) continue;
    const json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !is_record(j))
      throw InputError(Problem{{path, line_no, 0}, "", line.substr(0, 60), "a point record written by dlsim sweep",
                               "remove the damaged line and run the sweep again: it resumes"});
    PointRecord r = from_json(j);
    out[r.point.index] = std::move(r);
  }
  return out;
}

std::string records_jsonl(const std::map<size_t, PointRecord>& records) {
  std::string out;
  for (const auto& [i, r] : records) out += to_json_line(r);
  return out;
}

std::string results_csv(const std::vector<Vary>& varies, const std::map<size_t, PointRecord>& records) {
  std::string out = "index";
  for (const auto& v : varies) out += "," + field(v.key);
  out += ",status";
  for (const char* m : kMetrics) out += std::string(",") + m;
  out += ",error\n";
  for (const auto& [i, r] : records) {
    out += std::to_string(i);
    for (const auto& [k, v] : r.point.values) out += "," + field(v);
    out += r.exit_code == 0 ? ",ok" : fmt::format(",failed ({})", r.exit_code);
    for (const char* m : kMetrics) {
      const auto it = r.metrics.find(m);
      out += it == r.metrics.end() ? "," : fmt::format(",{:.6g}", it->second);
    }
    out += "," + field(r.error) + "\n";
  }
  return out;
}

}  // namespace dlsim::plan
