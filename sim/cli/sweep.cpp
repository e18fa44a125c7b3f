// dlsim sweep: a scenario predicted at every combination of some keys' values, each point
// in its own process (SimGrid allows one engine per process), `--jobs` at once.
//   dlsim sweep SCENARIO.toml --vary key=v1,v2,... [--vary ...] [--set key=value]...
//               [--jobs N] [--shard k/n] --out DIR
//   dlsim merge DIR... --out DIR
// What is written and how a sweep resumes: plan/sweep_records.hpp.
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/plots.hpp"
#include "cli/point.hpp"
#include "core/error.hpp"
#include "core/text_file.hpp"
#include "plan/sweep.hpp"
#include "plan/sweep_records.hpp"
#include "report/sweep_plots.hpp"

namespace dlsim::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

struct SweepOptions {
  std::string scenario;
  std::vector<std::string> varies, sets;
  int jobs = 1;
  std::string shard = "1/1";
  std::string out;
};

ordered_json manifest(const SweepOptions& o, const std::vector<plan::Vary>& varies) {
  ordered_json vary = ordered_json::array();
  for (const auto& v : varies) vary.push_back({{"key", v.key}, {"values", v.values}});
  return {{"scenario", o.scenario}, {"set", o.sets}, {"vary", vary}, {"shard", o.shard}};
}

struct Running {
  plan::SweepPoint point;
  int fd = -1;
  std::string output;
};

// Forks a child that predicts the point and writes its record line to a pipe.
std::pair<pid_t, Running> start(const SweepOptions& o, const plan::SweepPoint& point) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("cannot create a pipe");
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("cannot fork");
  if (pid == 0) {
    close(fds[0]);
    const std::string line = plan::to_json_line(predict_point(o.scenario, o.sets, point));
    for (size_t done = 0; done < line.size();) {
      const ssize_t n = write(fds[1], line.data() + done, line.size() - done);
      if (n <= 0) _exit(1);
      done += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  return {pid, Running{point, fds[0], ""}};
}

std::string describe(const plan::SweepPoint& p) {
  std::string out;
  for (const auto& [k, v] : p.values) out += (out.empty() ? "" : " ") + k + "=" + v;
  return out;
}

void progress(size_t done, size_t total, const plan::PointRecord& r) {
  if (isatty(STDERR_FILENO)) {
    const size_t width = 30, filled = total ? width * done / total : width;
    std::cerr << "\r[" << std::string(filled, '#') << std::string(width - filled, '.') << "] " << done << "/" << total
              << (done == total ? "\n" : "") << std::flush;
    return;
  }
  const auto t = r.metrics.find("throughput_images_per_s");
  std::cerr << fmt::format("sweep: [{}/{}] {}: {}\n", done, total, describe(r.point),
                           r.exit_code != 0           ? fmt::format("failed (exit {})", r.exit_code)
                           : t != r.metrics.end()     ? fmt::format("{:.4g} images/s", t->second)
                                                      : std::string("done"));
}

// Runs the pending points, `jobs` at once, appending each record as it finishes.
void run_points(const SweepOptions& o, const std::vector<plan::SweepPoint>& pending, const std::string& jsonl,
                std::map<size_t, plan::PointRecord>& records, size_t total) {
  std::map<pid_t, Running> running;
  size_t next = 0;
  std::ofstream append(jsonl, std::ios::app);
  while (next < pending.size() || !running.empty()) {
    while (next < pending.size() && static_cast<int>(running.size()) < o.jobs) running.insert(start(o, pending[next++]));
    // Drain every pipe, so that no child blocks on a full one, then reap a child.
    std::vector<pollfd> fds;
    for (auto& [pid, r] : running) fds.push_back({r.fd, POLLIN, 0});
    poll(fds.data(), fds.size(), -1);
    for (auto& [pid, r] : running) {
      char buffer[65536];
      for (pollfd p{r.fd, POLLIN, 0}; poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP));) {
        const ssize_t n = read(r.fd, buffer, sizeof buffer);
        if (n <= 0) break;
        r.output.append(buffer, static_cast<size_t>(n));
      }
    }
    int status = 0;
    const pid_t done = waitpid(-1, &status, WNOHANG);
    if (done <= 0) continue;
    Running r = std::move(running.at(done));
    running.erase(done);
    char buffer[65536];
    for (ssize_t n; (n = read(r.fd, buffer, sizeof buffer)) > 0;) r.output.append(buffer, static_cast<size_t>(n));
    close(r.fd);
    plan::PointRecord record{r.point, 1, "the point's process ended without a record", {}};
    const auto parsed = nlohmann::json::parse(r.output, nullptr, false);
    if (!parsed.is_discarded()) {
      record.exit_code = parsed["exit_code"].get<int>();
      record.error = parsed.value("error", std::string());
      if (parsed.contains("metrics"))
        for (const auto& [k, v] : parsed["metrics"].items()) record.metrics[k] = v.get<double>();
    }
    append << plan::to_json_line(record) << std::flush;
    records[record.point.index] = record;
    progress(records.size(), total, record);
  }
}

void write_folder(const std::string& dir, const ordered_json& sweep, const std::vector<plan::Vary>& varies,
                  const std::map<size_t, plan::PointRecord>& records) {
  std::ofstream(fs::path(dir) / "sweep.json") << sweep.dump(2) << "\n";
  std::ofstream(fs::path(dir) / "points.jsonl") << plan::records_jsonl(records);
  std::ofstream(fs::path(dir) / "results.csv") << plan::results_csv(varies, records);
  draw_plots(report::sweep_plots(varies, records), dir);
}

ordered_json read_manifest(const std::string& dir) {
  const auto path = (fs::path(dir) / "sweep.json").string();
  const auto doc = ordered_json::parse(read_text_file(path, "a sweep folder's sweep.json", "dlsim sweep writes it"),
                                       nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("vary"))
    throw InputError(Problem{{path, 0, 0}, "", "", "the sweep.json dlsim sweep writes", ""});
  return doc;
}

std::vector<plan::Vary> varies_of(const ordered_json& sweep) {
  std::vector<plan::Vary> out;
  for (const auto& v : sweep["vary"]) out.push_back({v["key"], v["values"].get<std::vector<std::string>>()});
  return out;
}

int sweep(const SweepOptions& o) {
  std::vector<plan::Vary> varies;
  for (const auto& v : o.varies) varies.push_back(plan::parse_vary(v));
  const plan::Shard shard = plan::parse_shard(o.shard);
  const auto points = plan::sweep_points(varies, shard);
  fs::create_directories(o.out);
  const ordered_json sweep_doc = manifest(o, varies);
  if (fs::exists(fs::path(o.out) / "sweep.json") && read_manifest(o.out) != sweep_doc)
    throw InputError(Problem{{(fs::path(o.out) / "sweep.json").string(), 0, 0}, "--out", o.out,
                             "a folder holding this same sweep (or none)", "give another --out"});
  std::ofstream(fs::path(o.out) / "sweep.json") << sweep_doc.dump(2) << "\n";
  const auto jsonl = (fs::path(o.out) / "points.jsonl").string();
  auto records = plan::read_records(jsonl);
  std::vector<plan::SweepPoint> pending;
  for (const auto& p : points)
    if (!records.count(p.index)) pending.push_back(p);
  if (!records.empty())
    std::cerr << fmt::format("sweep: resuming, {} of {} points already done\n", records.size(), points.size());
  run_points(o, pending, jsonl, records, points.size());
  write_folder(o.out, sweep_doc, varies, records);
  size_t failed = 0;
  int first_code = 0;
  for (const auto& [i, r] : records)
    if (r.exit_code != 0) first_code = first_code ? first_code : r.exit_code, ++failed;
  std::cerr << fmt::format("sweep: {} points, {} failed; {}\n", records.size(), failed,
                           (fs::path(o.out) / "results.csv").string());
  return failed == records.size() && failed > 0 ? first_code : 0;
}

int merge(const std::vector<std::string>& dirs, const std::string& out) {
  ordered_json first;
  std::map<size_t, plan::PointRecord> records;
  for (const auto& dir : dirs) {
    ordered_json sweep_doc = read_manifest(dir);
    sweep_doc["shard"] = "1/1";
    if (first.is_null()) first = sweep_doc;
    if (sweep_doc != first)
      throw InputError(Problem{{(fs::path(dir) / "sweep.json").string(), 0, 0}, "", dir,
                               "a shard of the same sweep as " + dirs.front(), "merge the shards of one sweep"});
    for (auto& [i, r] : plan::read_records((fs::path(dir) / "points.jsonl").string())) {
      if (records.count(i) && plan::to_json_line(records.at(i)) != plan::to_json_line(r))
        throw InputError(Problem{{(fs::path(dir) / "points.jsonl").string(), 0, 0}, "index", std::to_string(i),
                                 "each point recorded once, or identically", ""});
      records[i] = r;
    }
  }
  fs::create_directories(out);
  const auto varies = varies_of(first);
  write_folder(out, first, varies, records);
  std::cerr << fmt::format("merge: {} of {} points; {}\n", records.size(), plan::point_count(varies),
                           (fs::path(out) / "results.csv").string());
  return 0;
}

}  // namespace

void add_sweep_commands(CLI::App& app) {
  auto o = std::make_shared<SweepOptions>();
  auto* cmd = app.add_subcommand("sweep", "Predict a scenario at every combination of some keys' values");
  cmd->add_option("scenario", o->scenario, "scenario file (.toml)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--vary", o->varies, "key=v1,v2,... (repeat for more keys; the first varies slowest)")
      ->required()
      ->allow_extra_args(false);
  cmd->add_option("--set", o->sets, "override a scenario key at every point")->allow_extra_args(false);
  cmd->add_option("--jobs", o->jobs, "points predicted at once (default: the cores)")
      ->check(CLI::Range(1, 4096))
      ->default_val(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  cmd->add_option("--shard", o->shard, "k/n: this machine's share of the points (then dlsim merge)");
  cmd->add_option("--out", o->out, "folder for sweep.json, points.jsonl, results.csv and the charts")->required();
  cmd->callback([o] {
    if (const int code = sweep(*o); code != 0) std::exit(code);
  });
  auto dirs = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  auto* m = app.add_subcommand("merge", "Join the folders of a sweep's shards");
  m->add_option("dirs", *dirs, "the shards' --out folders")->required()->check(CLI::ExistingDirectory);
  m->add_option("--out", *out, "folder to write")->required();
  m->callback([dirs, out] { merge(*dirs, *out); });
}

}  // namespace dlsim::cli
