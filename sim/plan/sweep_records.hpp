#pragma once
// What a sweep writes into its folder, so that nothing is lost and a sweep can resume:
//   sweep.json     the sweep: scenario, overrides, varied keys and values (no shard), and
//                  the shards written into the folder
//   points.jsonl   one line per finished point, appended as it finishes (whether it
//                  succeeded or failed, with its message), rewritten in index order at the end
//   results.csv    one row per finished point in index order: its values, status, metrics
// A merged folder holds exactly what the unsharded sweep would have written.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/sweep.hpp"

namespace dlsim::plan {

struct PointRecord {
  SweepPoint point;
  int exit_code = 0;                      // 0: predicted
  std::string error;                      // the message when it failed
  std::map<std::string, double> metrics;  // throughput_images_per_s, step_time_s, ...
};

// The metrics a sweep keeps from `dlsim run --format json` (flattened: "latency_ms.p99").
std::map<std::string, double> sweep_metrics(const nlohmann::json& run);

std::string to_json_line(const PointRecord& record);
// One line as to_json_line writes it; a line that is not one is a record of exit code 1.
PointRecord read_record_line(const std::string& line);
// Reads points.jsonl; a line that is not a record is an InputError naming file and line.
std::map<size_t, PointRecord> read_records(const std::string& path);
// points.jsonl, in index order.
std::string records_jsonl(const std::map<size_t, PointRecord>& records);
std::string results_csv(const std::vector<Vary>& varies, const std::map<size_t, PointRecord>& records);

}  // namespace dlsim::plan
