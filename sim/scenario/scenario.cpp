#include "scenario/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/suggest.hpp"
#include "core/text_file.hpp"
#include "graph/kernel_signature.hpp"
#include "graph/zoo.hpp"
#include "perf/launch.hpp"
#include "scenario/page_census.hpp"
#include "scenario/toml_reader.hpp"

namespace dlsim::scenario {
namespace fs = std::filesystem;
namespace {

// Deep-merges `from` into `into`: tables merge key by key, anything else replaces.
void merge(toml::table& into, const toml::table& from) {
  for (const auto& [key, node] : from) {
    auto* existing = into.get(key);
    if (existing && existing->is_table() && node.is_table()) {
      merge(*existing->as_table(), *node.as_table());
    } else {
      into.insert_or_assign(key, node);
    }
  }
}

// Removes a dotted key ("serving.concurrency") from the tree, if it is there.
void erase_dotted(toml::table& root, const std::string& key) {
  toml::table* table = &root;
  size_t start = 0;
  for (size_t dot = key.find('.'); dot != std::string::npos && table; start = dot + 1, dot = key.find('.', start))
    table = (*table)[key.substr(start, dot - start)].as_table();
  if (table) table->erase(key.substr(start));
}

void apply_overrides(toml::table& root, const std::vector<Override>& overrides, ProblemList& problems) {
  for (const auto& o : overrides) {
    const std::string source = "--set " + o.text;
    if (o.value.empty()) {  // "--set serving.concurrency=": as if the scenario did not set it
      erase_dotted(root, o.key);
      continue;
    }
    toml::table parsed;
    try {
      parsed = toml::parse(o.key + " = " + o.value, source);
    } catch (const toml::parse_error&) {
      // Not a TOML value: take it as a string, as a shell user means "--set workload.model=vgg16".
      std::string quoted;
      for (char c : o.value) {
        if (c == '"' || c == '\\') quoted += '\\';
        quoted += c;
      }
      try {
        parsed = toml::parse(o.key + " = \"" + quoted + "\"", source);
      } catch (const toml::parse_error& e) {
        problems.add(Problem{{source, 0, 0}, o.key, o.value,
                             fmt::format("a dotted key such as workload.batch and a value ({})", e.description()),
                             ""});
        continue;
      }
    }
    merge(root, parsed);
  }
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string check_model(TableReader& r, const std::string& model, const fs::path& base) {
  if (ends_with(model, ".toml") || ends_with(model, ".onnx")) {
    const fs::path path = fs::path(model).is_absolute() ? fs::path(model) : base / model;
    if (!is_regular_file(path.string())) {
      r.problem("model", model, fmt::format("names a model file that does not exist ({})", path.string()),
                "paths are relative to the scenario's folder");
      return model;
    }
    return path.string();
  }
  if (!graph::find_zoo_model(model))
    r.problem("model", model, "expected a zoo model name or a path to a .toml or .onnx model",
              suggest(model, graph::zoo_names()));
  return model;
}

WorkloadSpec read_workload(TableReader& r, const fs::path& base) {
  WorkloadSpec w;
  if (auto kind = r.choice("kind", {"train", "infer"}, true))
    w.kind = *kind == "train" ? WorkloadKind::train : WorkloadKind::infer;
  if (auto model = r.string("model", true)) w.model = check_model(r, *model, base);
  w.batch = r.integer("batch", 1, 1 << 20, true).value_or(0);
  if (auto p = r.choice("precision", {"fp32", "tf32", "fp16", "amp"})) {
    const std::pair<const char*, Precision> names[] = {
        {"fp32", Precision::fp32}, {"tf32", Precision::tf32}, {"fp16", Precision::fp16}, {"amp", Precision::amp}};
    for (const auto& [name, value] : names)
      if (*p == name) w.precision = value;
  }
  r.finish();
  return w;
}

constexpr const char* kHostPaceTool = "validation/host_pace.py prints it from pinned passes";

// Whether the scenario gives system.launch_overhead (the median), which `key` describes the
// host around; a problem at `key` if not.
bool has_median_pace(TableReader& r, const std::string& key, const std::string& what) {
  if (r.has("launch_overhead")) return true;
  r.problem(key, "", what + " around system.launch_overhead", "give system.launch_overhead (the median) too");
  return false;
}

// A pass's time per kernel over its median on one CPU of the host, at perf::kSpreadPercentiles.
void read_launch_spread(TableReader& r, SystemSpec& s) {
  const auto spread = r.numbers("launch_spread");
  if (!spread || !has_median_pace(r, "launch_spread", "a spread")) return;
  const size_t count = perf::kSpreadPercentiles.size();
  bool ascending = spread->size() == count;
  for (size_t i = 0; ascending && i < count; ++i)
    ascending = (*spread)[i] > 0 && (*spread)[i] <= 10 && (i == 0 || (*spread)[i] >= (*spread)[i - 1]);
  if (!ascending) {
    r.problem("launch_spread", fmt::format("[{}]", fmt::join(*spread, ", ")),
              fmt::format("{} ratios in (0, 10], ascending: the time per kernel over its median at P1, P5, P10, P25, "
                          "P50, P75, P90, P95 and P99",
                          count),
              kHostPaceTool);
    return;
  }
  s.launch_spread = *spread;
}

// The host's time per kernel at its fast and slow tenth around system.launch_overhead.
void read_launch_band(TableReader& r, SystemSpec& s) {
  const auto p10 = r.quantity("launch_overhead_p10", UnitKind::time);
  const auto p90 = r.quantity("launch_overhead_p90", UnitKind::time);
  s.launch_overhead_p10_s = p10.value_or(s.launch_overhead_s);
  s.launch_overhead_p90_s = p90.value_or(s.launch_overhead_s);
  if ((p10 || p90) && !has_median_pace(r, p10 ? "launch_overhead_p10" : "launch_overhead_p90", "a band")) return;
  if (p10 && *p10 > s.launch_overhead_s)
    r.problem("launch_overhead_p10", format_time(*p10),
              fmt::format("at most system.launch_overhead ({}): the host's fast tenth", format_time(s.launch_overhead_s)),
              kHostPaceTool);
  if (p90 && *p90 < s.launch_overhead_s)
    r.problem("launch_overhead_p90", format_time(*p90),
              fmt::format("at least system.launch_overhead ({}): the host's slow tenth", format_time(s.launch_overhead_s)),
              kHostPaceTool);
}

// The host's time per kernel in a pass whose thread took over from another's; where not
// given, the host's slow tenth (read_launch_band first).
void read_launch_handoff(TableReader& r, SystemSpec& s) {
  const auto handoff = r.quantity("launch_overhead_handoff", UnitKind::time);
  if (handoff) has_median_pace(r, "launch_overhead_handoff", "a pace");
  s.launch_overhead_handoff_s = handoff.value_or(s.launch_overhead_p90_s);
}

// system.page_census: a readable census, for a CPU, instead of a count or a heap state, and
// the model it names (system.page_census_model, or the census's only one).
void read_page_census(TableReader& r, SystemSpec& s, const fs::path& base) {
  const auto file = r.string("page_census");
  const auto model = r.string("page_census_model");
  if (!file) {
    if (model) r.problem("page_census_model", *model, "system.page_census beside it", "name the census, or remove this");
    return;
  }
  const fs::path path = fs::path(*file).is_absolute() ? fs::path(*file) : base / *file;
  if (!is_regular_file(path.string())) {
    r.problem("page_census", *file, fmt::format("names a page census that does not exist ({})", path.string()),
              "paths are relative to the scenario's folder; validation/page_census.py makes one");
    return;
  }
  if (s.device != "cpu")
    r.problem("page_census", *file, "a CPU device: a GPU's passes keep their memory in the framework's caching allocator",
              "remove system.page_census, or set system.device = \"cpu\"");
  if (s.pass_page_faults >= 0 || !s.heap_state.empty())
    r.problem("page_census", *file,
              "a census alone: not with system.pass_page_faults or system.heap_state, which price every pass alike",
              "remove the other key");
  s.page_census = path.lexically_normal().string();
  s.census = std::make_shared<const PageCensus>(PageCensus::read(s.page_census));
  const auto models = s.census->models();
  if (model && std::find(models.begin(), models.end(), *model) == models.end()) {
    const auto close = closest_name(*model, models);
    r.problem("page_census_model", *model, fmt::format("a model the census counted ({})", fmt::join(models, ", ")),
              close ? fmt::format("did you mean '{}'?", *close) : "");
  } else if (!model && models.size() != 1)
    r.problem("page_census", *file,
              fmt::format("a census of one model, or system.page_census_model naming one of its {} ({})",
                          models.size(), fmt::join(models, ", ")),
              "set system.page_census_model");
  s.page_census_model = model ? *model : models.size() == 1 ? models.front() : "";
}

// system.cpu_pace_by_op: a pace of their own for a CPU's kernels of some operators, each an
// operator a kernel signature names.
void read_pace_by_op(TableReader& r, SystemSpec& s) {
  auto by_op = r.section("cpu_pace_by_op");
  if (!by_op) return;
  if (s.device != "cpu")
    r.problem("cpu_pace_by_op", "", "a CPU device: a GPU's kernels run at the GPU's pace",
              "remove system.cpu_pace_by_op, or set system.device = \"cpu\"");
  const auto known = graph::kernel_operators();
  for (const auto& op : by_op->keys()) {
    if (std::binary_search(known.begin(), known.end(), op)) {
      if (const auto pace = by_op->number(op, 0.1, 10)) s.cpu_pace_by_op[op] = *pace;
      continue;
    }
    by_op->allow(op);
    by_op->problem(op, by_op->shown(op),
                   fmt::format("an operator a kernel's signature names ({})", fmt::join(known, ", ")),
                   suggest(op, known));
  }
  by_op->finish();
}

SystemSpec read_system(TableReader& r, const hardware::Catalog& catalog, const fs::path& base) {
  SystemSpec s;
  const hardware::Instance* instance = nullptr;
  if (auto name = r.string("instance")) {
    instance = catalog.find_instance(*name);
    if (instance) s.instance = *name;
    else r.problem("instance", *name, "names no catalog instance", suggest(*name, catalog.instance_names()));
  }
  if (auto device = r.string("device")) {
    if (*device != "cpu" && !catalog.find_gpu(*device)) {
      auto valid = catalog.gpu_names();
      valid.push_back("cpu");
      r.problem("device", *device, "expected \"cpu\" or a catalog GPU", suggest(*device, valid));
    } else if (instance && *device != "cpu" && *device != instance->gpu) {
      r.problem("device", *device,
                fmt::format("instance {} has {}", instance->name,
                            instance->gpu.empty() ? "no GPU" : "GPUs of type " + instance->gpu),
                instance->gpu.empty() ? "use device = \"cpu\"" : fmt::format("use device = \"{}\"", instance->gpu));
    }
    s.device = *device;
  } else if (instance) {
    s.device = instance->gpu.empty() ? "cpu" : instance->gpu;
  } else if (!r.has("instance")) {
    r.problem("device", "", "system.device or system.instance is required",
              "e.g. device = \"v100-sxm2\" or instance = \"p3.2xlarge\"");
  }
  s.devices = static_cast<int>(r.integer("devices", 1, 1 << 20).value_or(1));
  if (instance && instance->gpus > 0 && s.device != "cpu" && s.devices > instance->gpus) {
    if (s.devices % instance->gpus != 0)
      r.problem("devices", std::to_string(s.devices),
                fmt::format("a multiple of {} (the GPUs of one {}) when more than one node is used", instance->gpus,
                            instance->name));
    s.nodes = (s.devices + instance->gpus - 1) / instance->gpus;
  }
  s.threads = static_cast<int>(r.integer("threads", 1, 1 << 16).value_or(instance ? instance->vcpus : 1));
  if (instance && s.threads > instance->vcpus)
    r.problem("threads", std::to_string(s.threads), fmt::format("at most the {} vCPUs of {}", instance->vcpus,
                                                                instance->name));
  if (auto cpu = r.string("cpu")) {
    if (!catalog.find_cpu(*cpu))
      r.problem("cpu", *cpu, "names no catalog CPU", suggest(*cpu, catalog.cpu_names()));
    else if (instance && instance->cpu != *cpu)
      r.problem("cpu", *cpu, fmt::format("instance {} has {}", instance->name, instance->cpu),
                "leave system.cpu out when an instance is given");
    s.cpu = *cpu;
  } else if (instance) {
    s.cpu = instance->cpu;
  }
  s.isa = r.choice("isa", hardware::simd_levels()).value_or("");
  if (!s.isa.empty()) {
    const auto* cpu = catalog.find_cpu(s.cpu);
    if (s.device != "cpu")
      r.problem("isa", s.isa, "a CPU device: it names the instructions a CPU framework's binary was built for",
                "remove system.isa, or set system.device = \"cpu\"");
    else if (cpu && !hardware::simd_supports(cpu->simd, s.isa))
      r.problem("isa", s.isa, fmt::format("at most {}, the widest instructions of {}", cpu->simd, cpu->name),
                "a binary built for wider instructions does not run there");
  }
  s.allow_fallback = r.boolean("allow_fallback").value_or(false);
  s.step_overhead_s = r.quantity("step_overhead", UnitKind::time).value_or(0);
  s.launch_overhead_s = r.quantity("launch_overhead", UnitKind::time).value_or(0);
  read_launch_band(r, s);
  read_launch_spread(r, s);
  read_launch_handoff(r, s);
  if (s.device == "cpu")
    for (const char* key :
         {"step_overhead", "launch_overhead", "launch_overhead_p10", "launch_overhead_p90", "launch_spread",
          "launch_overhead_handoff"})
      if (r.has(key))
        r.problem(key, "", "is a GPU host's cost; a CPU profile times kernels through the framework, so its "
                           "overhead is in the kernels' times",
                  "remove it, or use a GPU device");
  s.linear_kernels = r.choice("linear_kernels", {"blas", "onednn"}).value_or("");
  if (!s.linear_kernels.empty() && s.device != "cpu")
    r.problem("linear_kernels", s.linear_kernels, "a CPU device: GPU profiles time cuBLAS's GEMMs as frameworks call them",
              "remove system.linear_kernels, or set system.device = \"cpu\"");
  s.heap_state = r.choice("heap_state", {"model", "p10", "p90"}).value_or("");
  if (!s.heap_state.empty() && s.device != "cpu")
    r.problem("heap_state", s.heap_state, "a CPU device: a GPU's passes keep their memory in the framework's caching "
              "allocator", "remove system.heap_state, or set system.device = \"cpu\"");
  s.pass_page_faults = r.integer("pass_page_faults", 0, int64_t{1} << 40).value_or(-1);
  if (s.pass_page_faults >= 0 && s.device != "cpu")
    r.problem("pass_page_faults", std::to_string(s.pass_page_faults),
              "a CPU device: a GPU's passes keep their memory in the framework's caching allocator",
              "remove system.pass_page_faults, or set system.device = \"cpu\"");
  if (s.pass_page_faults >= 0 && !s.heap_state.empty())
    r.problem("pass_page_faults", std::to_string(s.pass_page_faults),
              "either a counted pass (system.pass_page_faults) or a heap state (system.heap_state), not both",
              "remove system.heap_state: a counted pass's pages are not a draw");
  read_page_census(r, s, base);
  s.cpu_pace = r.number("cpu_pace", 0.1, 10).value_or(1);
  if (r.has("cpu_pace") && s.device != "cpu")
    r.problem("cpu_pace", fmt::format("{}", s.cpu_pace),
              "a CPU device: a GPU's kernels run at the GPU's pace, its host's is system.launch_overhead",
              "remove system.cpu_pace, or set system.device = \"cpu\"");
  read_pace_by_op(r, s);
  s.network_bandwidth_Bps = r.quantity("network_bandwidth", UnitKind::bandwidth).value_or(0);
  s.network_latency_s = r.quantity("network_latency", UnitKind::time).value_or(0);
  s.network = r.choice("network", {"star", "fat_tree"}).value_or("star");
  const bool tree = s.network == "fat_tree";
  s.nodes_per_rack = static_cast<int>(r.integer("nodes_per_rack", 1, 1 << 16, tree).value_or(0));
  s.oversubscription = r.number("oversubscription", 1, 1024).value_or(1);
  if (!tree)
    for (const char* key : {"nodes_per_rack", "oversubscription"})
      if (r.has(key)) r.problem(key, "", "describes a fat tree", "set system.network = \"fat_tree\"");
  if (auto profile = r.string("profile")) {
    const fs::path path = fs::path(*profile).is_absolute() ? fs::path(*profile) : base / *profile;
    if (!is_regular_file(path.string()))
      r.problem("profile", *profile, fmt::format("names a calibration profile that does not exist ({})", path.string()),
                "paths are relative to the scenario's folder");
    s.profile = path.lexically_normal().string();
  }
  if (auto profile = r.string("input_profile")) {
    const fs::path path = fs::path(*profile).is_absolute() ? fs::path(*profile) : base / *profile;
    if (!is_regular_file(path.string()))
      r.problem("input_profile", *profile,
                fmt::format("names an input calibration that does not exist ({})", path.string()),
                "paths are relative to the scenario's folder; calibration/profiles/input/ holds them");
    s.input_profile = path.lexically_normal().string();
  }
  r.finish();
  return s;
}

TrainingSpec read_training(TableReader& r, const SystemSpec& system) {
  TrainingSpec t;
  const auto strategy = r.choice("strategy", {"single", "allreduce", "ps_sync", "ps_async"});
  if (strategy) t.strategy = *strategy;
  t.optimizer = r.choice("optimizer", {"sgd", "sgd_momentum", "adam"}).value_or(t.optimizer);
  t.fusion = r.choice("fusion", {"buckets", "horovod"}).value_or(t.fusion);
  const bool horovod = t.fusion == "horovod";
  // Horovod before 0.21 fused up to 64 MiB every 5 ms (its tensor-fusion documentation).
  t.bucket_bytes = r.quantity("bucket_size", UnitKind::bytes).value_or(horovod ? 64.0 * 1024 * 1024 : t.bucket_bytes);
  t.cycle_s = r.quantity("cycle_time", UnitKind::time).value_or(t.cycle_s);
  if (!horovod && r.has("cycle_time"))
    r.problem("cycle_time", "", "is Horovod's tensor-fusion cycle", "set training.fusion = \"horovod\"");
  if (!(t.cycle_s > 0)) r.problem("cycle_time", fmt::format("{}", t.cycle_s), "a positive time, e.g. \"5ms\"");
  t.parameter_servers = static_cast<int>(r.integer("parameter_servers", 1, 4096).value_or(t.parameter_servers));
  t.ps_hosts = r.choice("ps_hosts", {"colocated", "dedicated"}).value_or(t.ps_hosts);
  t.ps_placement = r.choice("ps_placement", {"greedy", "round_robin"}).value_or(t.ps_placement);
  t.ps_transport = r.choice("ps_transport", {"grpc", "in_process"}).value_or(t.ps_transport);
  if (t.ps_transport == "in_process") {
    if (system.nodes > 1)
      r.problem("ps_transport", t.ps_transport,
                fmt::format("one node: the variables live in the workers' own process, but {} devices take {} nodes",
                            system.devices, system.nodes),
                "use \"grpc\" across nodes");
    else if (t.ps_hosts == "dedicated")
      r.problem("ps_transport", t.ps_transport, "servers beside the workers: a dedicated server is another process",
                "remove training.ps_hosts, or use \"grpc\"");
  }
  t.allreduce = r.choice("allreduce", {"ring", "hierarchical", "tree"}).value_or(t.allreduce);
  t.ring_order = r.choice("ring_order", {"topology", "rank"}).value_or(t.ring_order);
  t.input = r.choice("input", {"synthetic", "memory", "jpeg"}).value_or(t.input);
  t.loader_workers = static_cast<int>(r.integer("loader_workers", 1, 1 << 12).value_or(0));
  t.prefetch_to_gpu = r.boolean("prefetch_to_gpu").value_or(false);
  if (!(t.bucket_bytes > 0)) r.problem("bucket_size", fmt::format("{}", t.bucket_bytes), "a positive size, e.g. \"25MiB\"");
  if (!strategy && system.devices > 1 && !r.has("strategy"))
    r.problem("strategy", "", fmt::format("is required with {} devices", system.devices),
              "e.g. strategy = \"allreduce\"");
  if (strategy && *strategy == "single" && system.devices > 1)
    r.problem("strategy", *strategy, fmt::format("\"single\" trains on one device, but system.devices = {}",
                                                 system.devices),
              "use \"allreduce\", \"ps_sync\" or \"ps_async\", or set system.devices = 1");
  // One device with parameter servers is a real set-up: TensorFlow's
  // local_parameter_device=cpu keeps the variables on the host and pulls them every step.
  if (strategy && *strategy == "allreduce" && system.devices == 1)
    r.problem("strategy", *strategy, "all-reduce needs system.devices > 1",
              "use \"single\", or \"ps_sync\" to keep one device's variables on the host");
  r.finish();
  return t;
}

JobSpec read_job(TableReader& r, const hardware::Catalog& catalog, const SystemSpec& system) {
  JobSpec j;
  j.dataset_images = r.integer("dataset", 1, int64_t{1} << 40, true).value_or(0);
  j.epochs = static_cast<int>(r.integer("epochs", 1, 1 << 20).value_or(1));
  for (auto [key, field] : {std::pair{"startup", &j.startup_s}, std::pair{"install", &j.install_s},
                            std::pair{"data_load", &j.data_load_s}, std::pair{"start", &j.start_s},
                            std::pair{"verify", &j.verify_s}, std::pair{"save_data", &j.save_data_s},
                            std::pair{"poweroff", &j.poweroff_s}})
    *field = r.quantity(key, UnitKind::time).value_or(0);
  j.billing = r.choice("billing", catalog.billing_rule_names()).value_or("");
  if (const auto image = r.quantity("container_image", UnitKind::bytes)) {
    const auto* instance = catalog.find_instance(system.instance);
    const auto* nic = instance ? catalog.find_nic(instance->nic) : nullptr;
    const double pull = r.quantity("registry_bandwidth", UnitKind::bandwidth).value_or(nic ? nic->payload_Bps() : 0);
    if (pull > 0) j.container_pull_s = *image / pull;
    j.container_start_s = r.quantity("container_start", UnitKind::time).value_or(0);
  } else {
    for (const char* key : {"registry_bandwidth", "container_start"})
      if (r.has(key)) r.problem(key, "", "describes a container: give job.container_image (its size) too");
  }
  if (const auto cpus = r.integer("container_cpus", 1, 1 << 16); cpus && *cpus < system.threads)
    r.problem("container_cpus", std::to_string(*cpus),
              fmt::format("at least system.threads = {}: the framework's threads would share fewer cores",
                          system.threads),
              fmt::format("set system.threads = {}", *cpus));
  r.finish();
  return j;
}

// perf_analyzer's --request-intervals file: the gaps between consecutive requests in
// microseconds, one per line ('#' starts a comment).
std::vector<double> read_intervals(TableReader& r, const std::string& name, const fs::path& base) {
  const fs::path path = fs::path(name).is_absolute() ? fs::path(name) : base / name;
  if (!is_regular_file(path.string())) {
    r.problem("intervals", name, fmt::format("names a file of request intervals that does not exist ({})", path.string()),
              "paths are relative to the scenario's folder");
    return {};
  }
  std::istringstream text(read_text_file(path.string(), "a file of request intervals"));
  std::vector<double> out;
  int line_no = 0;
  for (std::string line; std::getline(text, line);) {
    ++line_no;
    const std::string data = line.substr(0, line.find('#'));
    if (data.find_first_not_of(" \t\r") == std::string::npos) continue;
    char* end = nullptr;
    const double us = std::strtod(data.c_str(), &end);
    if (end == data.c_str() || std::string(end).find_first_not_of(" \t\r") != std::string::npos || !(us >= 0) ||
        !std::isfinite(us))
      throw InputError(Problem{{path.string(), line_no, 1}, "serving.intervals", data,
                               "one interval in microseconds per line (perf_analyzer's --request-intervals)",
                               "e.g. 1500"});
    out.push_back(us * 1e-6);
  }
  if (out.empty()) r.problem("intervals", name, "a file with at least one interval");
  return out;
}

constexpr int kPythonGrpcWorkers = 8;  // kernels/net/serving_stack.py: serve(workers=8)

// The threads a serving process runs its passes on, each with a team of its own: an
// in-process caller's clients each call from theirs; a C++ server (Triton) runs each model
// instance on one; Python's HTTP server serves each connection on a thread of its own and
// its gRPC server takes requests on a pool (serving_stack.py: up to kPythonGrpcWorkers),
// a thread per request in flight.  An open loop's requests in flight are not known
// beforehand: taken as the pool's size.
//
// The pool (Python's ThreadPoolExecutor) hands a request to a worker that has gone back
// idle, and starts a new one otherwise.  A closed loop sends its next request as soon as
// the answer is back; where the pass's team, gRPC's poller and the clients on the same
// host outnumber its cores, the worker that answered has not got back by then, and the
// pool runs the requests in flight on one thread more (recorded,
// validation/data/serving_latencies_*: on a 2-vCPU VM one client's passes ran on 2 threads
// in all 4 runs and two clients' at batch 1 on 3 in all 60; on a 16-vCPU GPU host at 4
// threads one client's on 1 in 12 runs, four clients' on 4 in 9 of 11; measured blind
// after, on the 2-vCPU VM at 2 threads one client's on 2 in all 14 runs, two clients' on 3
// in 3 of 4, four clients' on 5 in all 4).
int default_pass_threads(const ServingSpec& s, int threads, int cores) {
  if (s.deployment == "in-process") return s.concurrency;
  if (s.stack == "native") return s.instances;
  if (s.arrival != "closed") return kPythonGrpcWorkers;
  if (s.protocol != "grpc") return s.concurrency;
  const int local_clients = s.deployment == "local" ? s.concurrency : 0;
  const bool crowded = threads + 1 + local_clients > cores;
  return std::min(s.concurrency + (crowded ? 1 : 0), kPythonGrpcWorkers);
}

ServingSpec read_serving(TableReader& r, const hardware::Catalog& catalog, const SystemSpec& system, int64_t batch,
                         const fs::path& base) {
  ServingSpec s;
  s.deployment = r.choice("deployment", {"in-process", "local", "remote"}).value_or("in-process");
  const bool in_process = s.deployment == "in-process";
  if (auto protocol = r.choice("protocol", {"http", "grpc"}, !in_process && !r.has("protocol"))) {
    if (in_process)
      r.problem("protocol", *protocol, "an in-process deployment calls the framework directly, without a protocol",
                "remove serving.protocol or use deployment = \"local\"");
    s.protocol = *protocol;
  }
  s.mode = r.choice("mode", {"sync", "async"}).value_or("sync");
  if (in_process && s.mode == "async")
    r.problem("mode", s.mode, "an in-process deployment is synchronous only (study A: library calls are not parallel)");
  const auto concurrency = r.integer("concurrency", 1, 1 << 16);
  s.concurrency = static_cast<int>(concurrency.value_or(1));
  if (auto client = r.string("client_instance")) {
    if (s.deployment != "remote")
      r.problem("client_instance", *client, "applies only to deployment = \"remote\"");
    else if (!catalog.find_instance(*client))
      r.problem("client_instance", *client, "names no catalog instance", suggest(*client, catalog.instance_names()));
    s.client_instance = *client;
  } else if (s.deployment == "remote" && !(system.network_bandwidth_Bps > 0)) {
    r.problem("client_instance", "", "is required for deployment = \"remote\" (or system.network_bandwidth, the link to the client)",
              "e.g. client_instance = \"t3.2xlarge\"");
  }
  s.stack = r.choice("stack", {"native", "python"}).value_or(s.stack);
  if (auto profile = r.string("protocol_profile")) {
    const fs::path path = fs::path(*profile).is_absolute() ? fs::path(*profile) : base / *profile;
    if (in_process)
      r.problem("protocol_profile", *profile, "a protocol stack's calibration: deployment \"local\" or \"remote\"");
    else if (!is_regular_file(path.string()))
      r.problem("protocol_profile", *profile,
                fmt::format("names a protocol calibration that does not exist ({})", path.string()),
                "paths are relative to the scenario's folder; calibration/profiles/protocols/ holds them");
    s.protocol_profile = path.lexically_normal().string();
  }
  s.max_batch = r.integer("max_batch", 1, int64_t{1} << 20).value_or(0);
  s.max_queue_delay_s = r.quantity("max_queue_delay", UnitKind::time).value_or(0);
  if ((s.max_batch > 0 || s.max_queue_delay_s > 0) && in_process)
    r.problem("max_batch", std::to_string(s.max_batch), "a server's dynamic batcher: deployment \"local\" or \"remote\"");
  s.preferred_batch = r.integers("preferred_batch", 1, 16, 1, int64_t{1} << 20).value_or(s.preferred_batch);
  for (int64_t p : s.preferred_batch)
    if (p % batch != 0 || p > s.max_batch)
      r.problem("preferred_batch", std::to_string(p),
                fmt::format("whole requests of workload.batch = {} images, at most serving.max_batch = {}", batch,
                            s.max_batch),
                fmt::format("e.g. preferred_batch = [{}]", std::max<int64_t>(batch, s.max_batch / batch * batch)));
  s.instances = static_cast<int>(r.integer("instances", 1, 64).value_or(1));
  s.arrival = r.choice("arrival", {"closed", "constant", "poisson", "replay"}).value_or("closed");
  const bool open = s.arrival != "closed", replay = s.arrival == "replay";
  if (auto intervals = r.string("intervals", replay)) {
    if (!replay) r.problem("intervals", *intervals, "applies to serving.arrival = \"replay\"");
    else s.intervals_s = read_intervals(r, *intervals, base);
  }
  // The load in requests per second, or in images per second (a planner varying the batch
  // keeps the same image rate).
  s.request_rate = r.number("request_rate", 1e-6, 1e9, open && !replay && !r.has("image_rate")).value_or(0);
  if (const auto images = r.number("image_rate", 1e-6, 1e12)) {
    if (r.has("request_rate"))
      r.problem("image_rate", fmt::format("{}", *images), "either serving.request_rate or serving.image_rate, not both");
    s.request_rate = *images / static_cast<double>(batch);
  }
  s.requests = static_cast<int>(
      r.integer("requests", 1, 1 << 20).value_or(replay && !s.intervals_s.empty() ? static_cast<int64_t>(s.intervals_s.size()) : 1000));
  if (replay && (r.has("request_rate") || r.has("image_rate")))
    r.problem(r.has("request_rate") ? "request_rate" : "image_rate", "", "a replay's load is its intervals",
              "remove it, or use serving.arrival = \"constant\" or \"poisson\"");
  s.seed = r.integer("seed", 0, std::numeric_limits<int64_t>::max()).value_or(1);
  if (!open)
    for (const char* key : {"request_rate", "image_rate", "requests", "seed"})
      if (r.has(key)) r.problem(key, "", "applies to an open loop", "set serving.arrival = \"constant\" or \"poisson\"");
  s.timed_requests = static_cast<int>(r.integer("timed_requests", 1, 1 << 20).value_or(0));
  if (open && s.timed_requests > 0)
    r.problem("timed_requests", std::to_string(s.timed_requests), "applies to serving.arrival = \"closed\"",
              "an open loop's percentiles are over its serving.requests");
  if (open && concurrency)  // one out of range is said once, above
    r.problem("concurrency", std::to_string(*concurrency), "applies to serving.arrival = \"closed\"",
              "an open loop's load is serving.request_rate");
  if (in_process && (open || s.instances > 1))
    r.problem(open ? "arrival" : "instances", open ? s.arrival : std::to_string(s.instances),
              "a server's load and instances: deployment \"local\" or \"remote\"");
  s.engine = r.choice("engine", {"framework", "tensorrt"}).value_or(s.engine);
  if (s.engine != "framework" && system.device == "cpu")
    r.problem("engine", s.engine, "a GPU: the CPU profiles time the framework's own operators",
              "remove serving.engine, or serve on a GPU");
  s.input = r.choice("input", {"tensors", "files", "device"}).value_or(s.input);
  if (s.input == "device" && (s.deployment != "in-process" || system.device == "cpu"))
    r.problem("input", s.input, "in-process on a GPU (a request over a protocol arrives in the server's memory)",
              "use serving.input = \"tensors\"");
  if (auto disk = r.string("disk")) {
    if (!catalog.find_disk(*disk)) r.problem("disk", *disk, "names no catalog disk", suggest(*disk, catalog.disk_names()));
    s.disk = *disk;
  }
  s.file_bytes = r.quantity("file_size", UnitKind::bytes).value_or(s.file_bytes);
  if (s.input != "files")
    for (const char* key : {"disk", "file_size"})
      if (r.has(key)) r.problem(key, "", "describes the files a client reads", "set serving.input = \"files\"");
  const auto pass_threads = r.integer("pass_threads", 1, 1 << 16);
  s.pass_threads = pass_threads ? static_cast<int>(*pass_threads)
                                : default_pass_threads(s, system.threads, host_cores(system, catalog));
  s.loader_team = r.boolean("loader_team").value_or(false);
  r.finish();
  return s;
}

}  // namespace

Override parse_override(const std::string& argument) {
  const auto eq = argument.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(Problem{{"--set", 0, 0}, "", argument, "expected key=value, e.g. --set workload.batch=64", ""});
  return Override{argument.substr(0, eq), argument.substr(eq + 1), argument};
}

RunSpec parse_scenario(const std::string& text, const std::string& source_name, const std::vector<Override>& overrides,
                       const hardware::Catalog& catalog) {
  ProblemList problems;
  toml::table root = parse_document(text, source_name);
  apply_overrides(root, overrides, problems);
  const fs::path base = fs::path(source_name).parent_path();
  OverrideSources sources;
  for (const auto& o : overrides) sources.emplace_back(o.key, o.text);

  RunSpec spec;
  spec.source = source_name;
  TableReader top(root, "", problems, &sources);
  top.string("description");
  const auto* workload = top.table("workload");
  const auto* system = top.table("system");
  if (!workload && !top.has("workload")) top.problem("workload", "", "the [workload] section is required");
  if (!system && !top.has("system")) top.problem("system", "", "the [system] section is required");
  if (workload) {
    TableReader r(*workload, "workload", problems, &sources);
    spec.workload = read_workload(r, base);
  }
  if (system) {
    TableReader r(*system, "system", problems, &sources);
    spec.system = read_system(r, catalog, base);
  }
  if (const auto* training = top.table("training")) {
    TableReader r(*training, "training", problems, &sources);
    if (spec.workload.kind != WorkloadKind::train)
      r.problem("", "", "the [training] section applies to workload.kind = \"train\"");
    spec.training = read_training(r, spec.system);
  } else if (spec.workload.kind == WorkloadKind::train && workload) {
    const toml::table none;
    TableReader r(none, "training", problems, &sources);
    spec.training = read_training(r, spec.system);
  }
  if (const auto* serving = top.table("serving")) {
    TableReader r(*serving, "serving", problems, &sources);
    if (spec.workload.kind != WorkloadKind::infer)
      r.problem("", "", "the [serving] section applies to workload.kind = \"infer\"");
    spec.serving = read_serving(r, catalog, spec.system, std::max<int64_t>(spec.workload.batch, 1), base);
  } else if (spec.workload.kind == WorkloadKind::infer) {
    spec.serving = ServingSpec{};
    if (spec.system.device != "cpu") spec.serving->input = "device";
  }
  if (const auto* job = top.table("job")) {
    TableReader r(*job, "job", problems, &sources);
    if (spec.workload.kind != WorkloadKind::train) r.problem("", "", "the [job] section applies to training");
    if (spec.system.instance.empty()) r.problem("", "", "a priced [job] needs system.instance (its price and billing)");
    spec.job = read_job(r, catalog, spec.system);
  }
  top.finish();
  problems.throw_if_any();
  return spec;
}

int host_cores(const SystemSpec& system, const hardware::Catalog& catalog) {
  if (const auto* instance = system.instance.empty() ? nullptr : catalog.find_instance(system.instance))
    return instance->vcpus;
  const auto* cpu = system.cpu.empty() ? nullptr : catalog.find_cpu(system.cpu);
  return std::max(system.threads, cpu ? cpu->cores_per_socket : 0);
}

RunSpec load_scenario(const std::string& path, const std::vector<Override>& overrides,
                      const hardware::Catalog& catalog) {
  std::ifstream in(path);
  if (!in)
    throw InputError(Problem{{path, 0, 0}, "", "", "a readable scenario file; it cannot be opened", "check the path"});
  std::ostringstream text;
  text << in.rdbuf();
  return parse_scenario(text.str(), path, overrides, catalog);
}

}  // namespace dlsim::scenario
