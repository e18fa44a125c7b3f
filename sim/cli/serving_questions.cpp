#include "cli/serving_questions.hpp"

#include <fmt/format.h>

#include "cli/plan_search.hpp"
#include "cli/predict.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "perf/step_allocations.hpp"
#include "scenario/catalog_loader.hpp"
#include "scenario/profile_reader.hpp"
#include "scenario/scenario.hpp"

namespace dlsim::cli {
namespace {

// Powers of two: what serving configurations are tried at.
std::vector<std::string> powers_of_two(int from, int to) {
  std::vector<std::string> out;
  for (int v = from; v <= to; v *= 2) out.push_back(std::to_string(v));
  return out;
}

// GPU counts for a fleet: 1 to 8 one by one, then in steps of about a quarter, to 256.
std::vector<std::string> fleet_sizes() {
  std::vector<std::string> out;
  for (int n = 1; n <= 256; n += n < 8 ? 1 : n / 4) out.push_back(std::to_string(n));
  return out;
}

bool on_glibc_heap(const scenario::RunSpec& spec) {
  const std::string path = spec.system.profile.empty() ? default_cpu_profile() : spec.system.profile;
  return scenario::load_profile(path).framework.host_allocator == "glibc";
}

}  // namespace

std::string answer(const std::string& scenario_path, const std::vector<std::string>& sets, const ServingQuestion& q,
                   const std::string& format) {
  std::vector<scenario::Override> overrides;
  for (const auto& s : sets) overrides.push_back(scenario::parse_override(s));
  const auto spec = scenario::load_scenario(scenario_path, overrides, scenario::builtin_catalog());
  const char* flag = q.rate > 0 ? "--rate" : "--max-p99";
  if (!spec.serving)
    throw InputError(Problem{{scenario_path, 0, 0}, flag, q.rate > 0 ? fmt::format("{}", q.rate) : q.max_p99,
                             "a serving scenario (workload.kind = \"infer\")", "drop the option for training"});
  scenario::PlanSpec p;
  p.scenario = scenario_path;
  if (!q.max_p99.empty()) {
    try {
      p.max_p99_s = parse_quantity(q.max_p99, UnitKind::time);
    } catch (const UnitError& e) {
      throw InputError(Problem{{"--max-p99", 0, 0}, "--max-p99", q.max_p99, e.what(), e.suggestion()});
    }
    if (p.max_p99_s <= 0)
      throw InputError(Problem{{"--max-p99", 0, 0}, "--max-p99", q.max_p99, "a time above zero", "e.g. 50ms"});
  }
  p.sets = sets;
  if (q.rate > 0) {
    // The cheapest fleet that takes the load: Poisson arrivals at the rate, every size.
    p.goal = "cheapest";
    p.min_throughput = q.rate;
    p.sets.insert(p.sets.end(), {"serving.arrival=\"poisson\"", "serving.concurrency=",  // a closed loop's, removed
                                 fmt::format("serving.image_rate={}", q.rate)});
    p.space.push_back({"system.devices", fleet_sizes()});
  } else {
    p.goal = "fastest";
    p.space.push_back({"workload.batch", powers_of_two(1, 128)});
    p.space.push_back({"serving.concurrency", powers_of_two(1, 64)});
  }
  auto summary = search_plan(p, "");
  std::string text = plan_text(summary);
  // A host whose pace the scenario gives as a band (system.launch_overhead_p90): the same
  // question again with every launch at its slow tenth, the answer to plan for.
  const double slow = spec.system.launch_overhead_p90_s;
  if (slow > spec.system.launch_overhead_s) {
    scenario::PlanSpec at_slow = p;
    at_slow.sets.push_back(fmt::format("system.launch_overhead=\"{:.6g}us\"", slow * 1e6));
    const auto slow_summary = search_plan(at_slow, "");
    summary["at_the_hosts_slow_tenth"] = slow_summary;
    text += fmt::format("at the host's slow tenth ({} a launch, system.launch_overhead_p90):\n", format_time(slow)) +
            plan_text(slow_summary);
  }
  // A CPU whose framework allocates from glibc's heap: again with every pass's refaults at
  // the slow tenth of their spread over heap states (system.heap_state = "p90"), unless
  // the pass's pages were counted (system.pass_page_faults, system.page_census).
  if (spec.system.device == "cpu" && spec.system.heap_state.empty() && spec.system.pass_page_faults < 0 &&
      spec.system.page_census.empty() && on_glibc_heap(spec)) {
    scenario::PlanSpec at_slow = p;
    at_slow.sets.push_back("system.heap_state=\"p90\"");
    const auto slow_summary = search_plan(at_slow, "");
    summary["at_the_heaps_slow_tenth"] = slow_summary;
    text += fmt::format("at the heap's slow tenth (its refaulted pages {:.2f} times the model's, system.heap_state = "
                        "\"p90\"):\n",
                        perf::kServedPassFaultSpread.p90) +
            plan_text(slow_summary);
  }
  return format == "json" ? summary.dump(2) + "\n" : text;
}

}  // namespace dlsim::cli
