#include "report/prediction_report.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "core/units.hpp"
#include "perf/step_allocations.hpp"
#include "report/run_percentile.hpp"

namespace dlsim::report {
namespace {

using nlohmann::ordered_json;

// A sample's percentile as perf_analyzer reports it (0 for none).
double percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return reported_percentile(values, q);
}

ordered_json band(double p10, double p50, double p90) { return {{"p10", p10}, {"p50", p50}, {"p90", p90}}; }

constexpr std::pair<const char*, double> kLatencyPercentiles[] = {{"p50", 0.5}, {"p90", 0.9}, {"p95", 0.95}, {"p99", 0.99}};

// An open loop's latency percentiles between their values with every pass at the fast and
// the slow tenth of its band (ms): not the pass band's ratio, which a queue magnifies.
ordered_json latency_band(const infer::InferenceResult& r) {
  ordered_json out = ordered_json::object();
  for (const auto& [name, q] : kLatencyPercentiles) {
    const double fast = percentile(r.fast_pass_latencies_s, q), centre = percentile(r.latencies_s, q),
                 slow = percentile(r.slow_pass_latencies_s, q);
    out[name] = band(1e3 * std::min({fast, centre, slow}), 1e3 * centre, 1e3 * std::max({fast, centre, slow}));
  }
  return out;
}

// A closed loop's percentiles as a run of `requests` reports them (run_percentile.hpp), in
// place of the simulated requests' own; their band spans the statistic's spread from run to
// run and the pass's band (`low`, `high`: its P10 and P90 over its centre), with which a
// closed loop's latency moves in proportion.
void run_latencies(ordered_json& out, const infer::InferenceResult& r, int requests, double low, double high) {
  out["latency_band_ms"] = ordered_json::object();
  for (const auto& [name, q] : kLatencyPercentiles) {
    const RunPercentile run = run_percentile(r.latencies_s, q, requests);
    out["latency_ms"][name] = 1e3 * run.mean;
    out["latency_band_ms"][name] = band(1e3 * run.p10 * low, 1e3 * run.mean, 1e3 * run.p90 * high);
  }
  out["latency_timed_requests"] = requests;
}

// What a CPU inference's latency tail is made of besides queueing: the machine's traced
// stalls and speed drift (infer/stalls.hpp), or nothing, which a user should know.
std::string tail_source(const perf::StallTrace& trace, const std::string& machine) {
  if (trace.durations_s.empty() && trace.speed.slowdowns.empty())
    return "no stall or speed trace in the profile: P99 holds queueing alone, and a real machine's runs more "
           "(kernels/pytorch/stall_trace.py)";
  std::string out = fmt::format("{} stalls in {:.0f} s", trace.durations_s.size(), trace.traced_s);
  if (trace.speed.slowdowns.empty())
    return out + fmt::format(" traced on {}, replayed; no speed trace: P99 may be low (rerun stall_trace.py)", machine);
  return out + fmt::format(" and the speed of {} windows of {:.0f} ms (P90 {:.2f}x the median) traced on {}, replayed",
                           trace.speed.slowdowns.size(), trace.speed.window_s * 1e3,
                           percentile(trace.speed.slowdowns, 0.9), machine);
}

// What a CPU inference pass's refaulted pages rest on (perf/step_plan.cpp's refault call):
// counted on the serving stack, or dlsim's glibc heap model, whose count the heap's state
// before the passes decides, which a user should know and can fix; empty where the pass
// refaults none.
std::string pages_source(const perf::StepPlan& plan) {
  for (const auto& c : plan.calls)
    if (c.phase == "refault" && c.stage == perf::Stage::forward)
      return plan.refaults_counted
                 ? c.answer.basis
                 : c.answer.basis + fmt::format("; the heap's state before the passes decides how many ({:g} to "
                                                "{:g} times the model's count as served passes met it): count "
                                                "them on the serving stack (validation/page_census.py) and set "
                                                "system.pass_page_faults or system.page_census",
                                                perf::kServedPassFaultSpread.p10, perf::kServedPassFaultSpread.p90);
  return "";
}

ordered_json provenance(const Prediction& p) {
  ordered_json shares = ordered_json::object();
  for (auto source : perf::kSources) {
    auto it = p.totals.seconds_by_source.find(source);
    shares[perf::to_string(source)] = it == p.totals.seconds_by_source.end() || p.totals.seconds <= 0
                                          ? 0.0
                                          : it->second / p.totals.seconds;
  }
  // The rest of a GPU's time: idle, waiting for its host to launch the next kernel.
  if (p.totals.launch_wait_s > 0) shares["host_launch_wait"] = p.totals.launch_wait_s / p.totals.seconds;
  ordered_json out = {{"share_of_predicted_time", shares},
                      {"kernels", p.plan.calls.size()},
                      {"profile", p.profile},
                      {"profile_machine", p.profile_machine},
                      {"framework", p.framework}};
  if (!p.scaling.empty()) out["scaled_to"] = p.scaling;
  if (!p.on_gpu && p.inference) {
    out["tail"] = tail_source(p.plan.stalls, p.profile_machine);
    if (const std::string pages = pages_source(p.plan); !pages.empty()) out["pages"] = pages;
  }
  return out;
}

}  // namespace

void add_prediction(ordered_json& out, const Prediction& p, int64_t batch) {
  const double samples = static_cast<double>(batch);
  // The band's width comes from the kernel plan; the simulation sets its centre.
  const double low = p.totals.seconds > 0 ? p.totals.p10_seconds / p.totals.seconds : 1;
  const double high = p.totals.seconds > 0 ? p.totals.p90_seconds / p.totals.seconds : 1;
  if (p.training) {
    const auto& t = *p.training;
    const double step = t.step_time_s, images = samples * t.devices;
    out["throughput_images_per_s"] = images / step;
    out["throughput_band_images_per_s"] = band(images / (step * high), images / step, images / (step * low));
    out["step_time_s"] = step;
    out["step_time_band_s"] = band(step * low, step, step * high);
    out["devices"] = t.devices;
    // Against one device running the same kernels alone: its step is their sum, with the
    // waits for its host to launch them.
    out["scaling_efficiency"] = (t.forward_s + t.backward_s + t.update_s + t.launch_wait_s) / step;
    out["stages_s"] = {{"forward", t.forward_s},
                       {"backward", t.backward_s},
                       {"update", t.update_s},
                       {"launch_wait", t.launch_wait_s},
                       {"exposed_communication", t.exposed_communication_s},
                       {"input_stall", t.input_stall_s}};
    out["communicated_bytes_per_device"] = t.communicated_bytes;
    if (t.rings > 0) out["allreduce_rings"] = t.rings;
    if (!t.links.empty()) {
      out["busiest_links"] = ordered_json::array();
      out["links"] = ordered_json::array();
      for (const auto& l : t.links) {
        const ordered_json use = {{"link", l.link}, {"utilization", l.utilization}};
        if (out["busiest_links"].size() < train::kBusiestLinks) out["busiest_links"].push_back(use);
        out["links"].push_back(use);
      }
    }
    if (p.on_gpu)  // the share of the step a GPU spends in kernels
      out["gpu_utilization"] = (t.forward_s + t.backward_s + t.update_s) / step;
  }
  if (p.inference) {
    const auto& r = *p.inference;
    const double rate = r.achieved_requests_per_s > 0 ? r.achieved_requests_per_s : r.requests / r.makespan_s;
    out["throughput_images_per_s"] = samples * rate;
    out["throughput_band_images_per_s"] = band(samples * rate / high, samples * rate, samples * rate / low);
    if (r.offered_requests_per_s > 0) out["offered_images_per_s"] = samples * r.offered_requests_per_s;
    out["latency_ms"] = ordered_json::object();
    for (const auto& [name, q] : kLatencyPercentiles) out["latency_ms"][name] = 1e3 * percentile(r.latencies_s, q);
    if (!r.fast_pass_latencies_s.empty())
      out["latency_band_ms"] = latency_band(r);
    if (p.timed_requests > 0 && !r.latencies_s.empty()) run_latencies(out, r, p.timed_requests, low, high);
    out["forward_pass_band_s"] = band(r.forward_s * low, r.forward_s, r.forward_s * high);
    // Passes taking turns on a CPU whose cores their teams outnumber: the share drawn with
    // the team apart (perf::StepPlan::apart_share), which a scheduler trace can count.
    if (p.plan.apart_share > 0) out["passes_apart_share"] = p.plan.apart_share;
    out["throughput_requests_per_s"] = rate;
    if (p.on_gpu)  // forward passes only; several instances on one GPU may overlap theirs
      out["gpu_utilization"] = (r.gpu_busy_s > 0 ? r.gpu_busy_s : r.forward_s * r.requests) / (r.gpus * r.makespan_s);
    if (r.server_cores > 0) {
      out["cpu_utilization"] = {{"server_machines", r.server_cpu_s / (r.server_cores * r.makespan_s)}};
      if (r.client_cores > 0)
        out["cpu_utilization"]["client_machines"] = r.client_cpu_s / (r.client_cores * r.makespan_s);
    }
    if (r.peak_requests_in_servers > 0)
      out["server_queue_peak"] = {{"requests", r.peak_requests_in_servers}, {"bytes", r.peak_request_bytes_in_servers}};
    if (r.send_s + r.queue_s + r.compute_s + r.receive_s > 0)
      out["breakdown_ms"] = {{"send", 1e3 * r.send_s},
                             {"server_queue", 1e3 * r.queue_s},
                             {"compute", 1e3 * r.compute_s},
                             {"receive", 1e3 * r.receive_s}};
  }
  out["provenance"] = provenance(p);
}

std::string prediction_table(const ordered_json& run) {
  std::string out;
  const auto& t = run["throughput_band_images_per_s"];
  out += fmt::format("  throughput {:.4g} images/s (P10 {:.4g}, P90 {:.4g})\n", run["throughput_images_per_s"].get<double>(),
                     t["p10"].get<double>(), t["p90"].get<double>());
  if (run.contains("offered_images_per_s"))
    out += fmt::format("  offered load {:.4g} images/s (open loop)\n", run["offered_images_per_s"].get<double>());
  if (run.contains("step_time_s")) {
    const auto& s = run["stages_s"];
    out += fmt::format("  step time {:.4g} s: forward {:.4g} s, backward {:.4g} s, update {:.4g} s, exposed "
                       "communication {:.4g} s, input stall {:.4g} s\n",
                       run["step_time_s"].get<double>(), s["forward"].get<double>(), s["backward"].get<double>(),
                       s["update"].get<double>(), s["exposed_communication"].get<double>(),
                       s["input_stall"].get<double>());
    if (s["launch_wait"].get<double>() > 0)
      out += fmt::format("  the GPU waits {:.4g} s a step for its host to launch kernels\n", s["launch_wait"].get<double>());
    if (run["devices"].get<int>() > 1)
      out += fmt::format("  {} devices, scaling efficiency {:.1f}%, {} communicated per device and step{}\n",
                         run["devices"].get<int>(), 100 * run["scaling_efficiency"].get<double>(),
                         format_bytes(run["communicated_bytes_per_device"].get<double>()),
                         run.value("allreduce_rings", 1) > 1
                             ? fmt::format(" over {} rings", run["allreduce_rings"].get<int>())
                             : "");
    if (run.contains("busiest_links")) {
      std::string links;
      for (const auto& l : run["busiest_links"])
        links += fmt::format("{}{} {:.0f}%", links.empty() ? "" : ", ", l["link"].get<std::string>(),
                             100 * l["utilization"].get<double>());
      out += "  busiest links: " + links + "\n";
    }
  }
  if (run.contains("latency_ms")) {
    const auto& l = run["latency_ms"];
    out += fmt::format("  latency p50 {:.4g} ms, p90 {:.4g} ms, p95 {:.4g} ms, p99 {:.4g} ms\n", l["p50"].get<double>(),
                       l["p90"].get<double>(), l["p95"].get<double>(), l["p99"].get<double>());
    if (run.contains("latency_band_ms")) {
      const auto& b = run["latency_band_ms"];
      const std::string what =
          run.contains("latency_timed_requests")
              ? fmt::format("as a run of {} requests reports them (perf_analyzer's rank; P10-P90 over runs and "
                            "the pass's band)",
                            run["latency_timed_requests"].get<int>())
              : "with every pass at its band's fast and slow tenth";
      out += fmt::format("  {}: p50 {:.4g}-{:.4g} ms, p99 {:.4g}-{:.4g} ms\n", what, b["p50"]["p10"].get<double>(),
                         b["p50"]["p90"].get<double>(), b["p99"]["p10"].get<double>(), b["p99"]["p90"].get<double>());
    }
    if (run.contains("breakdown_ms")) {
      const auto& b = run["breakdown_ms"];
      out += fmt::format("  per request: send {:.4g} ms, server queue {:.4g} ms, compute {:.4g} ms, receive {:.4g} ms\n",
                         b["send"].get<double>(), b["server_queue"].get<double>(), b["compute"].get<double>(),
                         b["receive"].get<double>());
    }
    if (run.contains("server_queue_peak"))
      out += fmt::format("  at most {} requests ({}) held by the servers at once\n",
                         run["server_queue_peak"]["requests"].get<int>(),
                         format_bytes(run["server_queue_peak"]["bytes"].get<double>()));
    if (run.contains("cpu_utilization")) {
      const auto& c = run["cpu_utilization"];
      out += fmt::format("  CPU busy: server machines {:.0f}%", 100 * c["server_machines"].get<double>());
      if (c.contains("client_machines"))
        out += fmt::format(", client machines {:.0f}%", 100 * c["client_machines"].get<double>());
      out += "\n";
    }
  }
  const auto& p = run["provenance"];
  std::string shares;
  for (const auto& [source, share] : p["share_of_predicted_time"].items())
    if (share.get<double>() > 0) shares += fmt::format("{}{} {:.1f}%", shares.empty() ? "" : ", ", source, 100 * share.get<double>());
  out += fmt::format("  predicted time: {} ({} kernels; profile {})\n", shares, p["kernels"].get<size_t>(),
                     p["profile"].get<std::string>());
  if (p.contains("scaled_to")) out += fmt::format("  rests on: {}\n", p["scaled_to"].get<std::string>());
  if (p.contains("tail")) out += fmt::format("  latency tail: {}\n", p["tail"].get<std::string>());
  if (p.contains("pages")) out += fmt::format("  pages a pass: {}\n", p["pages"].get<std::string>());
  return out;
}

}  // namespace dlsim::report
