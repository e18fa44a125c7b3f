// dlsim validate: predicts every measured case and reports the error per case and group.
//   dlsim validate [CASES.toml...] [--format table|json|markdown]
// Each prediction runs in its own process (one SimGrid engine per process), once for all the
// cases that ask it, as many at a time as the machine has cores.  Exit status 1
// when a group's mean absolute percentage error passes its committed bound or a case cannot
// be predicted.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/kernel.hpp"
#include "cli/predict.hpp"
#include "cli/process.hpp"
#include "core/error.hpp"
#include "report/generator.hpp"
#include "report/run_report.hpp"
#include "scenario/catalog_loader.hpp"
#include "scenario/model_source.hpp"
#include "scenario/profile_reader.hpp"
#include "scenario/validation_cases.hpp"

namespace dlsim::cli {
namespace {

using nlohmann::ordered_json;
namespace fs = std::filesystem;

// P10 and P90 of a normal distribution lie 1.2816 standard deviations from its median.
constexpr double kZ90 = 1.2816;

// A dotted key names a value inside an object ("latency_ms.p99").
ordered_json::json_pointer dotted(std::string key) {
  std::replace(key.begin(), key.end(), '.', '/');
  return ordered_json::json_pointer("/" + key);
}

struct Outcome {
  const scenario::ValidationCase* c = nullptr;
  bool ok = false;
  std::string error;
  double predicted = 0, p10 = 0, p90 = 0;
  double error_pct = 0;
  bool in_band = false;
};

// What one prediction answers: a scenario with its overrides, or a kernel.  Cases that ask
// the same question (a configuration's throughput, P99, busy share and server phases) share
// one answer, since a prediction depends on nothing else.
std::string question_of(const scenario::ValidationCase& c) {
  if (c.kernel)
    return fmt::format("kernel\n{}\n{}\n{}\n{}", c.kernel->signature, c.kernel->phase, c.kernel->device,
                       c.kernel->profile);
  std::string question = "scenario\n" + c.scenario;
  for (const auto& o : c.overrides) question += "\n" + o.key + "=" + o.value;
  return question;
}

// Predicts one case in the calling process (a child's): its run's JSON, or the error.
int answer(const scenario::ValidationCase& c, std::string& output) {
  try {
    const auto& catalog = scenario::builtin_catalog();
    if (c.kernel) {
      output = price_kernel(*c.kernel, false, catalog).dump();
      return 0;
    }
    const auto spec = scenario::load_scenario(c.scenario, c.overrides, catalog);
    const auto model = scenario::load_model(spec.workload.model);
    const auto prediction = predict(spec, model, catalog);
    output = report::run_json(spec, model, catalog, prediction ? &*prediction : nullptr).dump();
    return 0;
  } catch (const std::exception& e) {
    output = e.what();
    return 1;
  }
}

// Every case's answer: each question asked once, in a child process of its own, as many at
// a time as the machine has cores.
struct Answers {
  std::vector<ChildResult> asked;  // one per question
  std::vector<size_t> of_case;     // each case's question
  const ChildResult& operator[](size_t c) const { return asked[of_case[c]]; }
};

// A forked child inherits the profiles its parent has parsed (scenario/profile_reader.hpp):
// the parent reads each profile the questions price from once, rather than every child.
void read_profiles_first(const std::vector<const scenario::ValidationCase*>& questions) {
  std::set<std::string> paths;
  for (const auto* c : questions) try {
      if (c->kernel) {
        paths.insert(profile_path(c->kernel->device, c->kernel->profile));
      } else {
        const auto spec = scenario::load_scenario(c->scenario, c->overrides, scenario::builtin_catalog());
        paths.insert(profile_path(spec.system.device, spec.system.profile));
      }
    } catch (const std::exception&) {
      // the question's own child says what is wrong with it
    }
  for (const auto& path : paths) try {
      scenario::load_profile(path);
    } catch (const std::exception&) {
      // so does the child of each question priced from it
    }
}

Answers answers_of(const std::vector<scenario::ValidationCase>& cases) {
  Answers out;
  std::map<std::string, size_t> questions;
  std::vector<const scenario::ValidationCase*> first;
  for (const auto& c : cases) {
    const auto [it, added] = questions.emplace(question_of(c), first.size());
    if (added) first.push_back(&c);
    out.of_case.push_back(it->second);
  }
  read_profiles_first(first);
  out.asked = run_in_children(
      first.size(), [&first](size_t i, std::string& output) { return answer(*first[i], output); },
      std::max(1u, std::thread::hardware_concurrency()));
  return out;
}

Outcome predict_case(const scenario::ValidationCase& c, const ChildResult& child) {
  Outcome o;
  o.c = &c;
  if (child.status != 0) {
    o.error = child.output.empty() ? fmt::format("prediction exited with status {}", child.status) : child.output;
    return o;
  }
  const auto run = ordered_json::parse(child.output);
  const ordered_json::json_pointer pointer = dotted(c.predicted_key);
  if (!run.contains(pointer)) {
    o.error = fmt::format("the prediction has no '{}'", c.predicted_key);
    return o;
  }
  o.ok = true;
  o.predicted = run[pointer].get<double>();
  std::string band_key = c.predicted_key == "throughput_images_per_s" ? "throughput_band_images_per_s" : "";
  // An open loop's latency percentile carries a band of its own (its passes' band through the queue).
  if (c.predicted_key.rfind("latency_ms.", 0) == 0 && run.contains("latency_band_ms"))
    band_key = "latency_band_ms." + c.predicted_key.substr(std::string("latency_ms.").size());
  // Another quantity of a step or a forward pass (a stage's seconds, a latency) carries the
  // band of the whole: its P10/P50 and P90/P50.
  const char* whole = run.contains("step_time_band_s") ? "step_time_band_s"
                      : run.contains("forward_pass_band_s") ? "forward_pass_band_s"
                                                            : nullptr;
  if (!band_key.empty()) {
    const auto& b = run[dotted(band_key)];
    o.p10 = b["p10"].get<double>();
    o.p90 = b["p90"].get<double>();
  } else if (whole) {
    const auto& b = run[whole];
    const double centre = b["p50"].get<double>();
    o.p10 = o.predicted * b["p10"].get<double>() / centre;
    o.p90 = o.predicted * b["p90"].get<double>() / centre;
  } else {
    // A kernel's answer carries its relative error (one standard deviation).
    const double sigma = run.contains("rel_error") ? run["rel_error"].get<double>() : 0.0;
    o.p10 = o.predicted * std::max(1 - kZ90 * sigma, 0.1);
    o.p90 = o.predicted * (1 + kZ90 * sigma);
  }
  o.error_pct = 100.0 * (o.predicted - c.measured) / c.measured;
  o.in_band = c.measured >= o.p10 && c.measured <= o.p90;
  return o;
}

struct Group {
  std::string name;
  int n = 0, failed = 0, in_band = 0;
  double sum_abs = 0, max_abs = 0, bound = 0;
  double mape() const { return n ? sum_abs / n : 0; }
  bool passes() const { return failed == 0 && mape() <= bound; }
};

std::vector<Group> groups_of(const std::vector<Outcome>& outcomes) {
  std::vector<Group> groups;
  std::map<std::string, size_t> index;
  for (const auto& o : outcomes) {
    auto [it, added] = index.emplace(o.c->group, groups.size());
    if (added) groups.push_back({o.c->group});
    Group& g = groups[it->second];
    g.bound = o.c->bound_mape_pct;
    if (!o.ok) {
      ++g.failed;
      continue;
    }
    ++g.n;
    g.in_band += o.in_band;
    g.sum_abs += std::abs(o.error_pct);
    g.max_abs = std::max(g.max_abs, std::abs(o.error_pct));
  }
  return groups;
}

ordered_json to_json(const std::vector<Outcome>& outcomes, const std::vector<Group>& groups) {
  ordered_json out{{"generator", report::generator()}, {"cases", ordered_json::array()}, {"groups", ordered_json::array()}};
  for (const auto& o : outcomes) {
    ordered_json c{{"id", o.c->id}, {"group", o.c->group}, {"measured", o.c->measured}};
    if (o.ok) {
      c["predicted"] = o.predicted;
      c["error_pct"] = o.error_pct;
      c["predicted_band"] = {{"p10", o.p10}, {"p90", o.p90}};
      c["measured_in_band"] = o.in_band;
    } else {
      c["predicted"] = nullptr;
      c["error"] = o.error;
    }
    c["source"] = o.c->row.to_string();
    out["cases"].push_back(c);
  }
  for (const auto& g : groups)
    out["groups"].push_back({{"name", g.name}, {"n", g.n}, {"failed", g.failed}, {"mape_pct", g.mape()},
                             {"max_pct", g.max_abs}, {"band_coverage_pct", g.n ? 100.0 * g.in_band / g.n : 0.0},
                             {"bound_mape_pct", g.bound}, {"passes", g.passes()}});
  return out;
}

std::string to_text(const std::vector<Outcome>& outcomes, const std::vector<Group>& groups, bool markdown) {
  std::string out;
  const char* row = markdown ? "| {} | {} | {:.4g} | {} | {} | {} |\n" : "{:<34} {:<38} {:>10.4g} {:>10} {:>8} {:>7}\n";
  out += markdown ? "| case | group | measured | predicted | error | in band |\n|---|---|---:|---:|---:|:-:|\n"
                  : fmt::format("{:<34} {:<38} {:>10} {:>10} {:>8} {:>7}\n", "case", "group", "measured",
                                "predicted", "error", "in band");
  for (const auto& o : outcomes)
    out += fmt::format(fmt::runtime(row), o.c->id, o.c->group, o.c->measured,
                       o.ok ? fmt::format("{:.4g}", o.predicted) : "failed",
                       o.ok ? fmt::format("{:+.1f}%", o.error_pct) : "-", o.ok ? (o.in_band ? "yes" : "no") : "-");
  out += markdown ? "\n| group | cases | MAPE | max | band coverage | bound | |\n|---|---:|---:|---:|---:|---:|:-:|\n"
                  : "\n";
  for (const auto& g : groups)
    out += fmt::format(fmt::runtime(markdown ? "| {} | {} | {:.1f}% | {:.1f}% | {:.0f}% | {:.0f}% | {} |\n"
                                             : "{:<38} n={:<3} MAPE {:5.1f}%  max {:5.1f}%  band coverage {:3.0f}%  "
                                               "bound {:.0f}%  {}\n"),
                       g.name, g.n + g.failed, g.mape(), g.max_abs, g.n ? 100.0 * g.in_band / g.n : 0.0, g.bound,
                       g.passes() ? "pass" : "FAIL");
  return out;
}

}  // namespace

void add_validate_command(CLI::App& app) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto format = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("validate", "Predict the measured runs and report the error per case and group");
  cmd->add_option("cases", *files, "case files (default: every validation/cases/*.toml)")->check(CLI::ExistingFile);
  cmd->add_option("--format", *format, "table, json or markdown")
      ->check(CLI::IsMember({"table", "json", "markdown"}))
      ->default_val("table");
  cmd->callback([=] {
    std::vector<std::string> paths = *files;
    if (paths.empty()) {
      for (const auto& entry : fs::directory_iterator(fs::path(DLSIM_SOURCE_DIR) / "validation/cases"))
        if (entry.path().extension() == ".toml") paths.push_back(entry.path().string());
      std::sort(paths.begin(), paths.end());
    }
    std::vector<scenario::ValidationCase> cases;
    for (const auto& p : paths)
      for (auto& c : scenario::load_cases(p)) cases.push_back(std::move(c));
    const Answers answers = answers_of(cases);
    std::vector<Outcome> outcomes;
    for (size_t i = 0; i < cases.size(); ++i) outcomes.push_back(predict_case(cases[i], answers[i]));
    const auto groups = groups_of(outcomes);
    std::cout << (*format == "json" ? to_json(outcomes, groups).dump(2) + "\n" : to_text(outcomes, groups, *format == "markdown"));
    for (const auto& g : groups)
      if (!g.passes())
        throw CheckFailed(fmt::format("validation group {} fails: MAPE {:.1f}% against its bound of {:.0f}%{}",
                                             g.name, g.mape(), g.bound,
                                             g.failed ? fmt::format(", {} case(s) not predicted", g.failed) : ""));
  });
}

}  // namespace dlsim::cli
