#include "perf/step_plan.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "graph/cost.hpp"
#include "graph/kernel_signature.hpp"
#include "perf/step_allocations.hpp"

namespace dlsim::perf {
namespace {

using graph::Graph;
using graph::Node;
using graph::OpKind;

constexpr double kZ90 = 1.2816;

// Autograd sums the gradients of a tensor that feeds several layers: one addition per
// consumer beyond the first.
std::vector<std::pair<const Node*, int>> extra_consumers(const Graph& graph) {
  std::vector<int> consumers(graph.nodes().size(), 0);
  for (const auto& node : graph.nodes())
    for (auto in : node.inputs) ++consumers[static_cast<size_t>(in)];
  std::vector<std::pair<const Node*, int>> out;
  for (const auto& node : graph.nodes())
    if (node.kind != OpKind::input && consumers[static_cast<size_t>(node.id)] > 1)
      out.emplace_back(&node, consumers[static_cast<size_t>(node.id)] - 1);
  return out;
}

// "adam fp32 p<parameters> t<tensors> max<elements>": the optimizer's work over every
// parameter tensor; the largest decides how much of it runs out of cache.
std::string optimizer_signature(const std::string& optimizer, const Graph& graph, graph::DataType type) {
  const auto totals = graph::model_totals(graph, 1, type);
  return fmt::format("{} {} p{} t{} max{}", optimizer, graph::to_string(type), totals.params, totals.param_tensors,
                     totals.largest_param_tensor);
}

std::string gradient_sum(const Node& node, int64_t batch, const std::string& type) {
  return fmt::format("add {} n{} e{} x2", type, batch, graph::elements(node.output));
}

struct Builder {
  const Graph& graph;
  int64_t batch;
  int threads;
  const KernelTimes& times;
  const FrameworkRules& rules;
  graph::DataType type;
  StepPlan plan;
  PassThreads where = PassThreads::own_cores;  // inference's

  void call(Stage stage, const Node& node, const std::string& signature, const std::string& phase) {
    push(stage, node.name, signature, phase, times.time(signature, phase, threads));
  }
  // A multi-threaded kernel keeps its threads busy only part of the time (serial parts); a
  // profile that timed the process's CPU time says how much, else every thread is counted.
  void push(Stage stage, const std::string& layer, const std::string& signature, const std::string& phase,
            const Answer& a) {
    const double cpu_s = a.cpu_seconds > 0 ? a.cpu_seconds : a.seconds * threads;
    plan.calls.push_back({stage, layer, signature, phase, a, 0.0, cpu_s});
  }
  // A reorder oneDNN was seen not to need (the tensor already had its layout) is skipped.
  void reorder(Stage stage, const Node& node, const std::string& signature, const std::string& phase) {
    if (!times.known_absent(signature, phase, threads)) call(stage, node, signature, phase);
  }

  bool pointwise_blas(const Node& node) const {
    const auto& a = std::get<graph::ConvAttrs>(node.attrs);
    const auto& w = a.window;
    return w.kernel_h == 1 && w.kernel_w == 1 && w.stride_h == 1 && w.stride_w == 1 && w.pad_top == 0 &&
           w.pad_left == 0 && w.pad_bottom == 0 && w.pad_right == 0 && a.dilation_h == 1 && a.dilation_w == 1 &&
           a.groups == 1 && batch < rules.pointwise_conv_blas_below_batch &&
           threads <= rules.pointwise_conv_blas_max_threads;
  }
  // Kernels timed through the framework's operators carry its dispatch and layouts already.
  bool framework_ops() const { return rules.kernels_from != "onednn"; }
  bool on_blas(const Node& node) const {
    if (framework_ops()) return false;
    return (node.kind == OpKind::linear && rules.linear_uses_blas) || (node.kind == OpKind::conv && pointwise_blas(node));
  }
  bool plain_conv(const Node& node) const {
    return !framework_ops() && node.kind == OpKind::conv && rules.conv_layout == "plain";
  }
  bool reorders(const Node& node) const { return !framework_ops() && node.kind == OpKind::conv; }
  bool feeds_on_input(const Node& node) const {
    return node.inputs.size() == 1 && graph.node(node.inputs[0]).kind == OpKind::input;
  }

  void forward(const Node& node, bool training) {
    const std::string sig = graph::kernel_signature(graph, node, batch, type);
    if (sig.empty() || (node.kind == OpKind::dropout && !training)) return;
    if (on_blas(node)) return call(Stage::forward, node, sig, "blas_fwd");
    if (plain_conv(node)) {
      reorder(Stage::forward, node, sig, "plain_reorder_weights");
      return call(Stage::forward, node, sig, "plain_fwd");
    }
    if (reorders(node)) reorder(Stage::forward, node, sig, "reorder_src");
    call(Stage::forward, node, sig, training ? "fwd" : inference_phase(sig));
    if (reorders(node)) reorder(Stage::forward, node, sig, "reorder_dst");
  }

  // Inference runs an operator's eval, no-grad forward where the profile timed it (batch
  // norm applies running statistics instead of computing the batch's), and as a request
  // thread calls it beside another team on more than one thread where that was timed too
  // (kInferOnRequestThread; one thread starts no team of threads, so the other teams do
  // not matter there).  Either timed inside whole passes comes first (kInferInPass: a loop
  // keeps an operator's weights in the caches, a pass reads them cold).  A CPU profile
  // that timed only the training forward prices it (PyTorch's CPU batch norm in eval mode
  // is another kernel, 10x faster on the Zen 5); a GPU's, where the eval forward moves
  // fewer bytes, carries it there by the rooflines (KernelTimes); one that timed neither
  // leaves the eval forward to the roofline.
  std::string inference_phase(const std::string& sig) const {
    const std::string op = times.priced_as(sig);
    if (where != PassThreads::own_cores && threads > 1) {
      if (where == PassThreads::taking_turns && times.has_phase(op, kInferInPassTakingTurns))
        return kInferInPassTakingTurns;
      if (where == PassThreads::shared_core && times.has_phase(op, kInferInPassSharedCore))
        return kInferInPassSharedCore;
      for (const char* phase : {kInferInPassOnRequestThread, kInferOnRequestThread})
        if (times.has_phase(op, phase)) return phase;
    }
    if (times.has_phase(op, kInferInPass)) return kInferInPass;
    if (times.has_phase(op, "infer") || !times.has_phase(op, "fwd")) return "infer";
    const auto parsed = kernels::parse_signature(sig);
    const bool eval_does_less = kernel_features(parsed, "infer").bytes < kernel_features(parsed, "fwd").bytes;
    return times.on_gpu() && eval_does_less ? "infer" : "fwd";
  }

  void backward(const Node& node) {
    const std::string sig = graph::kernel_signature(graph, node, batch, type);
    if (sig.empty() || node.kind == OpKind::add || node.kind == OpKind::concat) return;  // views of the gradient
    const bool data_gradient = !feeds_on_input(node);
    if (on_blas(node)) {
      if (data_gradient) call(Stage::backward, node, sig, "blas_bwd_data");
      return call(Stage::backward, node, sig, "blas_bwd_weights");
    }
    if (node.kind != OpKind::conv && node.kind != OpKind::linear) return call(Stage::backward, node, sig, "bwd_data");
    if (plain_conv(node)) {
      if (data_gradient) call(Stage::backward, node, sig, "plain_bwd_data");
      return call(Stage::backward, node, sig, "plain_bwd_weights");
    }
    for (int i = 1; i < rules.training_reorders_per_conv && reorders(node); ++i) {
      reorder(Stage::backward, node, sig, "reorder_dst");
      if (data_gradient) reorder(Stage::backward, node, sig, "reorder_src");
    }
    if (data_gradient) call(Stage::backward, node, sig, "bwd_data");
    call(Stage::backward, node, sig, "bwd_weights");
  }

  // The pages glibc's heap gives back and faults again in each stage, at a page's price
  // inside passes where the profile timed it, else at the price of a page written fresh
  // rather than warm; optimizer empty: an inference pass, whose count is the one counted on
  // its stack (rules.refault_pages), which bands only the page's price, or else the heap
  // state's (rules.refault_factor times the model's), whose band spans the spread of states.
  void heap_refaults(const std::string& optimizer) {
    const std::string reference = first_touch_signature(kFirstTouchPages);
    const bool in_pass = times.has_phase(kFirstTouchOp, kInPassPagePhase);
    const Answer priced = times.time(reference, in_pass ? kInPassPagePhase : "fresh", threads);
    const double warm = in_pass ? 0.0 : times.time(reference, "warm", threads).seconds;
    const double per_page = std::max(priced.seconds - warm, 0.0) / double(kFirstTouchPages);
    const bool inference = optimizer.empty();
    const auto faults = inference ? StepPageFaults{inference_page_faults(graph, batch, type), 0, 0}
                                  : training_page_faults(graph, batch, optimizer, type);
    const std::pair<Stage, int64_t> stages[] = {
        {Stage::forward, faults.forward}, {Stage::backward, faults.backward}, {Stage::update, faults.update}};
    const bool counted = inference && rules.refault_pages >= 0;
    plan.refaults_counted = counted;
    for (const auto& [stage, modelled] : stages) {
      const int64_t pages = counted     ? (stage == Stage::forward ? rules.refault_pages : 0)
                            : inference ? std::llround(double(modelled) * rules.refault_factor)
                                        : modelled;
      // The band: an uncounted inference pass's over heap states (measured for served
      // passes); a counted pass's and a training step's refaults keep their count and the
      // page price's error.
      const auto spread = inference && !counted ? kServedPassFaultSpread : PageFaultSpread{1, 1};
      const double band_pages = double(inference && !counted ? modelled : pages);
      plan.refault_p10_s += per_page * spread.p10 * band_pages;
      plan.refault_p90_s += per_page * spread.p90 * band_pages;
      if (pages == 0) continue;
      Answer a = priced;
      a.seconds = per_page * double(pages);
      a.cpu_seconds = 0;  // the reference's is for its own pages
      if (inference && !counted) a.rel_error = 0;  // the spread over heap states bands it
      const std::string count = counted            ? fmt::format("{} pages (counted; the model's {})", pages, modelled)
                                : pages == modelled ? fmt::format("{} pages", pages)
                                                    : fmt::format("{} pages ({:.2f} times the model's {})", pages,
                                                                  rules.refault_factor, modelled);
      a.basis = fmt::format("{} refaulted{} at {:.2f} us a page ({}, {})", count, counted ? "" : " (glibc heap model)",
                            per_page * 1e6, in_pass ? "inside passes" : "fresh less warm", to_string(priced.source));
      push(stage, "heap", first_touch_signature(pages), "refault", a);
    }
  }

  // Beside other teams, more threads than cores, with more than one thread: every operator
  // of the pass wakes its team (kTeamWakeOp), where the profile timed that, but those timed
  // inside passes taking turns, whose times hold their wakes as such passes pay them.  A
  // team on its caller's core wakes by a context switch, which its times hold.
  void team_wakes() {
    if (where == PassThreads::own_cores || where == PassThreads::shared_core || threads < 2 ||
        !times.has_phase(kTeamWakeOp, "after_idle"))
      return;
    const std::string sig = team_wake_signature();
    const Answer after_idle = times.time(sig, "after_idle", threads);
    const double wake = std::max(
        after_idle.seconds - times.time(sig, "idle", threads).seconds - times.time(sig, "back_to_back", threads).seconds,
        0.0);
    const auto operators = std::count_if(plan.calls.begin(), plan.calls.end(),
                                         [](const KernelCall& c) { return c.phase != kInferInPassTakingTurns; });
    if (operators == 0) return;
    Answer a = after_idle;
    a.seconds = wake * double(operators);
    a.cpu_seconds = a.seconds;  // the caller spins at the team's barrier, its sleeping threads take no CPU
    a.basis = fmt::format("{} operators each waking a team of {} threads, {:.1f} us a wake ({} after idle, less idle "
                          "and back to back)", operators, threads, wake * 1e6, to_string(after_idle.source));
    push(Stage::forward, "team", sig, "wake", a);
  }

  // On its own cores a team's idle threads spin up to the profile's spin (kTeamSpinOp)
  // through the part of each call they sit out, before its next operator's parallel region
  // wakes them: the spin takes CPU, not time.  (A call's own CPU time, timed inside passes,
  // misses much of a spinning thread's: Linux credits a thread running on another core at
  // its scheduler ticks, which mostly fall outside so short a call.)
  void team_spins() {
    if (where != PassThreads::own_cores || threads < 2 || !times.has_phase(kTeamSpinOp, "after_long_idle")) return;
    const std::string sig = team_spin_signature();
    const Answer after = times.time(sig, "after_long_idle", threads);
    const int waiting = threads - 1;
    const double spin = std::max(after.cpu_seconds - times.time(sig, "long_idle", threads).cpu_seconds -
                                     times.time(sig, "back_to_back", threads).cpu_seconds,
                                 0.0) / double(waiting);
    double spun = 0, seconds = 0, cpu_s = 0;  // core-seconds; the pass's time and its calls' core-seconds
    for (const auto& c : plan.calls) {
      spun += std::min(std::max(c.answer.seconds * threads - c.cpu_s, 0.0), spin * double(waiting));
      seconds += c.answer.seconds;
      cpu_s += c.cpu_s;
    }
    spun = std::min(spun, std::max(seconds * threads - cpu_s, 0.0));  // no more than the team's cores
    if (spun <= 0) return;
    Answer a = after;
    a.seconds = 0;
    a.rel_error = 0;
    a.cpu_seconds = spun;
    a.basis = fmt::format("{} idle threads spinning up to {:.2f} ms an operator before they sleep, {:.2f} core-ms a "
                          "pass ({})", waiting, spin * 1e3, spun * 1e3, to_string(after.source));
    push(Stage::forward, "team", sig, "spin", a);
  }

  void gradient_sums() {
    for (const auto& [node, extra] : extra_consumers(graph))
      for (int i = 0; i < extra; ++i) call(Stage::backward, *node, gradient_sum(*node, batch, graph::to_string(type)), "fwd");
  }
};

}  // namespace

std::string to_string(Stage stage) {
  switch (stage) {
    case Stage::forward: return "forward";
    case Stage::backward: return "backward";
    case Stage::update: return "update";
  }
  return "unknown";
}

StepTotals StepPlan::totals() const {
  StepTotals t;
  double sigma = 0;
  for (const auto& c : calls) {
    t.seconds += c.answer.seconds;
    t.seconds_by_source[c.answer.source] += c.answer.seconds;
    sigma += c.answer.rel_error * c.answer.seconds;
    t.launch_wait_s += c.launch_wait_s;
    t.cpu_seconds += c.cpu_s;
    t.apart_beyond_s += c.apart_beyond_s;
  }
  // The band is the kernels', the heap's refaults at the tenths of their spread and the
  // host's waits at its fast and slow pace.
  double refault_s = 0;
  for (const auto& c : calls)
    if (c.phase == "refault") refault_s += c.answer.seconds;
  const double kernels_s = t.seconds - refault_s;
  t.p10_seconds = std::max(kernels_s - kZ90 * sigma, 0.1 * kernels_s) + refault_p10_s + launch_wait_p10_s;
  t.p90_seconds = kernels_s + kZ90 * sigma + refault_p90_s + launch_wait_p90_s;
  t.seconds += t.launch_wait_s;
  return t;
}

std::vector<std::string> calibration_signatures(const Graph& graph, int64_t batch, graph::DataType type) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  auto add = [&](const std::string& sig) {
    if (!sig.empty() && seen.insert(sig).second) out.push_back(sig);
  };
  for (const auto& node : graph.nodes()) add(graph::kernel_signature(graph, node, batch, type));
  for (const auto& [node, extra] : extra_consumers(graph)) add(gradient_sum(*node, batch, graph::to_string(type)));
  for (const char* optimizer : {"sgd", "sgd_momentum", "adam"}) add(optimizer_signature(optimizer, graph, type));
  add(first_touch_signature(kFirstTouchPages));
  add(team_wake_signature());
  return out;
}

std::string team_wake_signature() { return std::string(kTeamWakeOp) + " fp32 n1 e200704"; }
std::string team_spin_signature() { return std::string(kTeamSpinOp) + " fp32 n1 e200704"; }

StepPlan training_plan(const Graph& graph, int64_t batch, const std::string& optimizer, int threads,
                       const KernelTimes& times, const FrameworkRules& rules, graph::DataType type) {
  Builder b{graph, batch, threads, times, rules, type, {}};
  for (const auto& node : graph.nodes()) b.forward(node, true);
  for (auto it = graph.nodes().rbegin(); it != graph.nodes().rend(); ++it) b.backward(*it);
  b.gradient_sums();
  const std::string update = optimizer_signature(optimizer, graph, graph::DataType::fp32);
  b.push(Stage::update, "optimizer", update, "update", times.time(update, "update", threads));
  if (rules.host_allocator == "glibc") b.heap_refaults(optimizer);
  b.team_spins();
  return std::move(b.plan);
}

namespace {

// A pass's operators' seconds: its calls but the heap's refaults and the team's wakes.
double operator_seconds(const StepPlan& plan) {
  double s = 0;
  for (const auto& c : plan.calls)
    if (c.layer != "heap" && c.layer != "team") s += c.answer.seconds;
  return s;
}

// A pass taking turns, with its team on the caller's core or apart (kApartPerWorkerShare
// the share of passes apart): each operator at the mean of its two prices, the apart
// pass's team wakes in the same proportion, and what the apart place adds to each kept
// (KernelCall::apart_beyond_s), so that a simulation can draw each pass's place.
StepPlan settled_pass(const Graph& graph, int64_t batch, int threads, const KernelTimes& times,
                      const FrameworkRules& rules, graph::DataType type) {
  StepPlan plan = inference_plan(graph, batch, threads, times, rules, type, PassThreads::shared_core);
  const StepPlan apart = inference_plan(graph, batch, threads, times, rules, type, PassThreads::one_request_thread);
  const double main = operator_seconds(inference_plan(graph, batch, threads, times, rules, type));
  const double shared = operator_seconds(plan);
  const double worker_share = main > 0 ? std::max(shared / main - 1, 0.0) : 0.0;
  const double apart_share = std::min(kApartPerWorkerShare * worker_share, 1.0);
  std::vector<KernelCall> wakes;
  auto other = apart.calls.begin();
  for (auto& c : plan.calls) {
    for (; other != apart.calls.end() && other->layer == "team"; ++other) wakes.push_back(*other);
    if (other == apart.calls.end() || other->signature != c.signature || other->layer != c.layer)
      throw std::logic_error("settled_pass: the pass's two placements call different kernels at " + c.layer);
    const Answer& a = other->answer;
    c.apart_beyond_s = a.seconds - c.answer.seconds;
    c.answer.rel_error += apart_share * (a.rel_error - c.answer.rel_error);
    c.answer.seconds += apart_share * (a.seconds - c.answer.seconds);
    c.cpu_s += apart_share * (other->cpu_s - c.cpu_s);
    if (c.layer != "heap")
      c.answer.basis = fmt::format("{}; {:.0f}% of passes with its team apart ({}: {:.3g} us)", c.answer.basis,
                                   100 * apart_share, other->phase, a.seconds * 1e6);
    ++other;
  }
  for (; other != apart.calls.end(); ++other) wakes.push_back(*other);
  for (auto& w : wakes) {
    w.apart_beyond_s = w.answer.seconds;
    w.answer.seconds *= apart_share;
    w.cpu_s *= apart_share;
    w.answer.basis = fmt::format("{}, in the {:.0f}% of passes with the team apart", w.answer.basis, 100 * apart_share);
    if (w.answer.seconds > 0) plan.calls.push_back(w);
  }
  plan.apart_share = apart_share;
  return plan;
}

}  // namespace

StepPlan inference_plan(const Graph& graph, int64_t batch, int threads, const KernelTimes& times,
                        const FrameworkRules& rules, graph::DataType type, PassThreads where) {
  if (where == PassThreads::taking_turns && threads > 1 && times.has_any_phase(kInferInPassSharedCore))
    return settled_pass(graph, batch, threads, times, rules, type);
  Builder b{graph, batch, threads, times, rules, type, {}, where};
  for (const auto& node : graph.nodes())
    if (!node.train_only) b.forward(node, false);
  b.team_wakes();
  if (rules.host_allocator == "glibc") b.heap_refaults("");
  b.team_spins();
  return std::move(b.plan);
}

void at_pace(StepPlan& plan, double pace, const std::map<std::string, double>& by_operator) {
  for (auto& c : plan.calls) {
    const auto own = by_operator.find(graph::signature_operator(c.signature));
    const double call_pace = own != by_operator.end() ? own->second : pace;
    c.answer.seconds *= call_pace;
    c.cpu_s *= call_pace;
    c.apart_beyond_s *= call_pace;
  }
  plan.refault_p10_s *= pace;
  plan.refault_p90_s *= pace;
}

}  // namespace dlsim::perf
