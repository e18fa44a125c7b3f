#include "cli/predict.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "cli/input_costs.hpp"
#include "cli/process.hpp"
#include "cli/protocol_costs.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "infer/in_process.hpp"
#include "infer/served.hpp"
#include "perf/autocast.hpp"
#include "perf/host_copies.hpp"
#include "perf/engine.hpp"
#include "perf/fit.hpp"
#include "perf/glibc_heap.hpp"
#include "perf/handler_buffers.hpp"
#include "perf/launch.hpp"
#include "perf/step_allocations.hpp"
#include "scenario/page_census.hpp"
#include "scenario/profile_reader.hpp"
#include "scenario/scenario.hpp"
#include "train/data_parallel.hpp"
#include "train/parameter_server.hpp"
#include "train/single_device.hpp"

namespace dlsim::cli {
namespace {

// Steps and requests simulated: the model is deterministic, so a few show the steady state;
// where a CPU's interruptions stall its passes or its speed drifts (infer/stalls.hpp), or a
// GPU host's pace is drawn for each pass (perf/launch.hpp), enough requests for their P99
// to stand on a few hundred.
constexpr int kTrainingSteps = 3;
constexpr int kRequestsPerClient = 8;
constexpr int kStalledRequests = 512;

int requests_per_client(const perf::StepPlan& plan, int clients) {
  const bool steady =
      plan.stalls.durations_s.empty() && plan.stalls.speed.slowdowns.empty() && plan.launch_wait_spread_s.empty();
  return steady ? kRequestsPerClient : std::max(kRequestsPerClient, (kStalledRequests + clients - 1) / clients);
}

std::optional<perf::CpuScaling> cpu_scaling(const perf::Profile& profile, const scenario::RunSpec& spec,
                                            const hardware::Catalog& catalog) {
  const std::string& target = spec.system.cpu.empty() ? profile.cpu : spec.system.cpu;
  const std::string& isa = spec.system.isa;
  if (profile.cpu.empty() && !isa.empty())
    throw UnrunnableError(fmt::format("profile {} names no catalog CPU, so system.isa = \"{}\" has no peak to lower",
                                      profile.machine, isa));
  if (profile.cpu.empty() || (target == profile.cpu && isa.empty())) return std::nullopt;
  const auto* source = catalog.find_cpu(profile.cpu);
  if (!source)
    throw UnrunnableError(fmt::format("profile {} was measured on CPU '{}', which the catalog does not know, so it "
                                      "cannot be carried to {}",
                                      profile.machine, profile.cpu, target));
  const auto& from = *source;
  const auto& to = *catalog.find_cpu(target);
  if (!isa.empty() && spec.system.cpu.empty() && !hardware::simd_supports(to.simd, isa))  // else checked with the scenario
    throw InputError(Problem{{spec.source, 0, 0}, "system.isa", isa,
                             fmt::format("at most {}, the widest instructions of {}", to.simd, to.name),
                             "a binary built for wider instructions does not run there"});
  const double peak = isa.empty() ? to.peak_fp32_flops_per_core() : to.peak_fp32_flops_per_core(isa);
  const std::string& to_simd = isa.empty() ? to.simd : isa;
  // The libraries pick other kernels for other vector widths, and equal peaks then do not make
  // equal speed (validation/cases/pytorch_cpu_devbox_milan.toml: Zen 4's AVX-512 profile on a
  // Zen 3 with AVX2, rated alike by the catalog, came out far too fast).
  const std::string widths =
      from.simd == to_simd ? ""
                           : fmt::format("; across vector widths ({} to {}): calibrate this CPU", from.simd, to_simd);
  return perf::CpuScaling{
      from.peak_fp32_flops_per_core() / peak, from.base_clock_Hz / to.base_clock_Hz,
      fmt::format("carried from {} to {}{}: convolutions and GEMMs by per-core peak FP32 ({:.0f} vs {:.0f} GFLOP/s), "
                  "other kernels by clock ({:.2f} vs {:.2f} GHz){}",
                  from.name, to.name, isa.empty() ? "" : " running a binary built for " + isa,
                  from.peak_fp32_flops_per_core() / 1e9, peak / 1e9, from.base_clock_Hz / 1e9, to.base_clock_Hz / 1e9,
                  widths),
      to.write_bandwidth_Bps, to.fresh_write_bandwidth_Bps, to.name};
}

// What the catalog's GPU can deliver: its arithmetic peaks as far as its SMs can issue them,
// its memory's peak and what streaming kernels sustain of it.
perf::GpuRates gpu_rates(const hardware::Gpu& g, const hardware::Catalog& catalog) {
  const double e = g.issue_efficiency;
  return {g.name,
          g.sm_count,
          e * g.fp32_flops,
          e * g.fp16_flops,
          e * g.tf32_tensor_flops,
          e * g.fp16_tensor_flops,
          g.memory_bandwidth_Bps,
          catalog.sustained_bandwidth_Bps(g)};
}

// The threads a CPU's kernels run on as far as speed goes: a framework thread on the second
// hyperthread of a busy core shares its FMA units and caches, so threads beyond an
// instance's cores are taken to add nothing (stated, not calibrated: the profiles time one
// thread per core).
int kernel_threads(const scenario::RunSpec& spec, const hardware::Catalog& catalog, std::string& scaling) {
  const int threads = spec.system.threads;
  if (spec.system.instance.empty()) return threads;
  const auto& instance = catalog.instance(spec.system.instance);
  if (threads <= instance.cores()) return threads;
  scaling += fmt::format("{}{} threads run at the speed of {}, the cores of {}'s {} vCPUs (hyperthreads add nothing)",
                         scaling.empty() ? "" : "; ", threads, instance.cores(), instance.name, instance.vcpus);
  return instance.cores();
}

// Where a serving process's passes run (perf::PassThreads): whether its teams outnumber the
// machine's cores (each thread that runs passes keeps a team of `threads`, its own and
// threads - 1 the runtime manages, as does a loader thread that ran parallel operators, and
// libgomp counts those and the process's first thread against the cores: its "throttled"
// spin, idle threads sleep at once where there are more), and if so whether several request
// threads take turns running them.  Said in the notes when they outnumber the cores.
perf::PassThreads pass_threads(const scenario::RunSpec& spec, const hardware::Catalog& catalog, int threads,
                               std::string& notes) {
  if (!spec.serving || threads < 2) return perf::PassThreads::own_cores;
  const int passing = spec.serving->pass_threads;
  const bool loader = spec.serving->loader_team;
  const int teams = passing + (loader ? 1 : 0);
  const int cores = scenario::host_cores(spec.system, catalog);
  const int64_t managed = 1 + int64_t{teams} * (threads - 1);
  if (managed <= cores) return perf::PassThreads::own_cores;
  notes += fmt::format("{}{} thread{} running passes{}{}, a team of {} each: {} runtime threads on {} cores, so idle "
                       "ones sleep and every operator wakes its team",
                       notes.empty() ? "" : "; ", passing, passing == 1 ? "" : "s", passing == 1 ? "" : " in turns",
                       loader ? " and the model's loader" : "", threads, managed, cores);
  return passing > 1 ? perf::PassThreads::taking_turns : perf::PassThreads::one_request_thread;
}

}  // namespace

std::string profile_dir() {
  const char* dir = std::getenv("DLSIM_PROFILE_DIR");
  return dir && *dir ? dir : DLSIM_PROFILE_DIR;
}

std::string default_cpu_profile() { return profile_dir() + "/devbox-emerald-rapids-2vcpu-pytorch.toml"; }

std::string default_gpu_profile(const std::string& gpu) { return fmt::format("{}/gpu/{}.toml", profile_dir(), gpu); }

std::string profile_path(const std::string& device, const std::string& named) {
  if (!named.empty()) return named;
  return device == "cpu" ? default_cpu_profile() : default_gpu_profile(device);
}

GpuPricing gpu_pricing(const std::string& gpu, const std::string& named_profile, bool allow_fallback,
                       const hardware::Catalog& catalog) {
  GpuPricing g;
  g.path = profile_path(gpu, named_profile);
  if (named_profile.empty() && !std::filesystem::exists(g.path))
    throw UnrunnableError(fmt::format("no calibration profile for GPU '{}' ({} does not exist); calibrate it "
                                      "(calibration/README.md) and set system.profile",
                                      gpu, g.path));
  g.profile = scenario::load_profile(g.path);
  if (g.profile.device != "gpu")
    throw InputError(Problem{{g.path, 0, 0}, "profile.device", g.profile.device, "a GPU profile for GPU " + gpu,
                             "leave system.profile unset to use the GPU's own"});
  const auto* measured_on = catalog.find_gpu(g.profile.gpu);
  if (!measured_on)
    throw UnrunnableError(fmt::format("profile {} was measured on GPU '{}', which the catalog does not know", g.path,
                                      g.profile.gpu));
  g.options.allow_fallback = allow_fallback;
  g.options.gpu = perf::GpuTarget{gpu_rates(*measured_on, catalog), gpu_rates(catalog.gpu(gpu), catalog)};
  if (g.profile.gpu != gpu)
    g.scaling = fmt::format("{}kernels timed on {} carried to {} by the roofline ratio (peak of the data type, or "
                            "memory bandwidth, whichever bounds the kernel)",
                            g.profile.derivation.empty() ? "" : g.profile.derivation + "; ", g.profile.gpu, gpu);
  return g;
}

namespace {

// The nodes, PCIe, NVLink and NICs the scenario's GPUs sit in, from its instance (or, for a
// bare GPU, one node of that many GPUs, each on its own PCIe switch).
platform::ClusterSpec cluster_spec(const scenario::RunSpec& spec, const hardware::Catalog& catalog) {
  const auto& gpu = catalog.gpu(spec.system.device);
  platform::ClusterSpec c;
  c.nodes = spec.system.nodes;
  c.gpus_per_node = spec.system.devices;
  c.gpus_per_pcie_switch = 1;
  c.host_cores = spec.system.threads;
  double nic = spec.system.network_bandwidth_Bps;
  if (!spec.system.instance.empty()) {
    const auto& instance = catalog.instance(spec.system.instance);
    c.gpus_per_node = instance.gpus;
    c.gpus_per_pcie_switch = instance.gpus_per_pcie_switch;
    c.host_cores = instance.vcpus;
    // The catalog counts both directions.
    if (instance.nvlink == "nvswitch") c.nvlink_Bps = gpu.nvlink_bandwidth_Bps / 2;
    const double per_link = gpu.nvlink_links > 0 ? gpu.nvlink_bandwidth_Bps / 2 / gpu.nvlink_links : 0;
    for (const auto& pair : instance.nvlink_pairs)
      c.nvlink_pairs.push_back({pair.a, pair.b, pair.links, pair.links * per_link});
    if (nic <= 0) nic = catalog.find_nic(instance.nic)->payload_Bps();
  }
  c.pcie_Bps = catalog.find_pcie_link(gpu.host_link)->typical_Bps;
  c.nic_Bps = nic > 0 ? nic : c.pcie_Bps;  // one node: the NIC carries nothing
  c.nic_latency_s = spec.system.network_latency_s;
  c.nodes_per_rack = spec.system.nodes_per_rack;
  c.oversubscription = spec.system.oversubscription;
  return c;
}

// One CPU machine serving (no GPU): its cores; its NIC is system.network_bandwidth, or,
// when nothing crosses a network, as fast as a process's protocol stack.
platform::ClusterSpec cpu_cluster_spec(const scenario::RunSpec& spec, const hardware::Catalog& catalog,
                                       double stack_bytes_per_s) {
  platform::ClusterSpec c;
  c.gpus_per_node = 0;
  c.host_cores = std::max(scenario::host_cores(spec.system, catalog), spec.system.threads);
  c.nic_Bps = spec.system.network_bandwidth_Bps > 0 ? spec.system.network_bandwidth_Bps : stack_bytes_per_s;
  if (!spec.system.instance.empty() && !(spec.system.network_bandwidth_Bps > 0))
    c.nic_Bps = catalog.find_nic(catalog.instance(spec.system.instance).nic)->payload_Bps();
  c.nic_latency_s = spec.system.network_latency_s;
  return c;
}

// TensorFlow's parameter servers speak gRPC (C++).  On one node with
// local_parameter_device=cpu the variables stay in the workers' own process instead:
// gradients and weights cross PCIe into host memory, which every copy and the update
// stream through, with no protocol stack.
RpcCosts ps_transport_costs(const scenario::RunSpec& spec, const hardware::Catalog& catalog, std::string& notes) {
  if (spec.training->ps_transport == "grpc") return rpc_costs(spec, catalog, protocol_profile("grpc"), notes);
  RpcCosts in_process;
  in_process.cpu = catalog.find_cpu(spec.system.cpu);
  if (!in_process.cpu)
    throw UnrunnableError("training.ps_transport = \"in_process\" needs the host's CPU (its memory bandwidth): give "
                          "system.instance or system.cpu");
  in_process.bytes_per_s = in_process.cpu->memory_bandwidth_Bps;
  notes += fmt::format("{}variables in the workers' process on {} (no protocol stack)", notes.empty() ? "" : "; ",
                       in_process.cpu->name);
  return in_process;
}

// Parameter servers: gRPC between every worker and server process (or none in process); a
// server's update at the CPU's memory bandwidth.
train::ParameterServerSpec ps_spec(const scenario::RunSpec& spec, const hardware::Catalog& catalog, bool synchronous,
                                   std::string& notes) {
  const RpcCosts rpc = ps_transport_costs(spec, catalog, notes);
  train::ParameterServerSpec ps;
  ps.cluster = cluster_spec(spec, catalog);
  ps.gpus = spec.system.devices;
  ps.servers = spec.training->parameter_servers;
  ps.dedicated = spec.training->ps_hosts == "dedicated";
  ps.greedy = spec.training->ps_placement == "greedy";
  if (ps.dedicated) ps.cluster.server_nodes = ps.servers;  // one instance of the scenario's kind per server
  ps.synchronous = synchronous;
  ps.steps = kTrainingSteps;
  ps.rpc_latency_s = rpc.latency_s;
  ps.rpc_bytes_per_s = rpc.bytes_per_s;
  ps.update_bytes_per_s = rpc.cpu ? rpc.cpu->memory_bandwidth_Bps : rpc.bytes_per_s;
  notes += fmt::format("; parameter-server updates at {:.0f} GB/s", ps.update_bytes_per_s / 1e9);
  return ps;
}

// A request's bytes, a batch of inputs of `word` bytes a value, and its answer's: the
// outputs of the last layer inference runs (the loss and auxiliary heads are training's),
// FP32, for the batch.
struct Payload {
  double request = 0;
  double response = 0;
};

Payload payload(const graph::Graph& model, int64_t batch, double word) {
  Payload p;
  const double images = static_cast<double>(batch);
  p.request = word * images * static_cast<double>(graph::elements(model.input_shape()));
  for (const auto& node : model.nodes())
    if (!node.train_only) p.response = 4.0 * images * static_cast<double>(graph::elements(node.output));
  return p;
}

// Whether a GPU serving scenario copies each batch from pageable host memory on the model's
// stream: an in-process application (unless its batch is already on the device) and a
// Python server, whose handler hands PyTorch the request's own bytes; a native server
// (Triton) stages through pinned buffers over the host link instead (infer/served.hpp).
bool pageable_copies(const scenario::RunSpec& spec) {
  if (!spec.serving || spec.system.device == "cpu" || spec.serving->input == "device") return false;
  return spec.serving->deployment == "in-process" || spec.serving->stack == "python";
}

// One GPU runs a step's kernels one after another on one stream: in SimGrid, a host with
// one core whose speed is the kernels' time, idle where its host launches them slower than
// they run (the scenario's step and launch overheads, perf/launch.hpp).
report::Prediction price_gpu(const scenario::RunSpec& spec, const graph::Graph& model,
                             const hardware::Catalog& catalog) {
  const GpuPricing pricing = gpu_pricing(spec.system.device, spec.system.profile, spec.system.allow_fallback, catalog);
  const perf::Profile& profile = pricing.profile;
  report::Prediction p;
  p.on_gpu = true;
  p.profile = pricing.path;
  p.profile_machine = profile.machine;
  p.framework = profile.framework.name;
  p.scaling = pricing.scaling;
  p.host_cpu = spec.system.cpu;  // an instance's, where one is given (the scenario reader fills it in)
  const perf::KernelTimes times(profile, pricing.options);
  const auto type = scenario::compute_type(spec.workload.precision);
  p.plan = spec.workload.kind == scenario::WorkloadKind::train
               ? perf::training_plan(model, spec.workload.batch, spec.training->optimizer, 1, times, profile.framework,
                                     type)
               : perf::inference_plan(model, spec.workload.batch, 1, times, profile.framework, type);
  if (spec.serving && spec.serving->engine == "tensorrt") {
    perf::fuse_for_engine(p.plan, model);
    p.framework += ", fused as a TensorRT engine runs it";
  } else if (spec.workload.precision == scenario::Precision::amp) {
    perf::add_autocast_casts(p.plan, model, spec.workload.batch, times);
    p.framework += ", autocast casting the weights to fp16 each step";
  }
  if (pageable_copies(spec)) {
    // The application's FP32 images in, the network's outputs back (FP32 either way).
    const Payload bytes = payload(model, spec.workload.batch, 4.0);
    const auto& gpu = catalog.gpu(spec.system.device);
    perf::add_host_copies(p.plan, bytes.request, bytes.response, times,
                          catalog.find_pcie_link(gpu.host_link)->typical_Bps);
    p.framework += ", input copied in from pageable host memory and the answer back";
  }
  perf::pipeline_launches(p.plan, {spec.system.step_overhead_s, spec.system.launch_overhead_s,
                                  spec.system.launch_overhead_p10_s, spec.system.launch_overhead_p90_s,
                                  spec.system.launch_spread, spec.system.launch_overhead_handoff_s});
  p.totals = p.plan.totals();
  return p;
}

// A Python server's two host buffers per request: the bytes its stack reads the request
// into and the handler's copy of them into a tensor (a bytes object is read-only), one
// thread writing at the CPU's measured rate; on a GPU server, the pages glibc gave back
// since the last request (perf/handler_buffers.hpp) are written at the rate of fresh pages
// instead, the read's beyond the stack's own rate.  A CPU server's passes raise glibc's
// thresholds past any request (its activations), so its buffers stay warm.  Zero, said in
// the notes, where the catalog has no such measurement for the server's CPU.
struct HandlerCosts {
  double copy_s = 0;
  double read_faults_s = 0;
};

HandlerCosts handler_costs(const scenario::RunSpec& spec, const graph::Graph& model, const hardware::Catalog& catalog,
                           const std::string& host_cpu, double request_bytes, std::string& notes) {
  if (spec.serving->stack != "python") return {};
  const hardware::Cpu* cpu = catalog.find_cpu(host_cpu);
  if (!cpu || !(cpu->write_bandwidth_Bps > 0)) {
    notes += "; the handler's copy of each request into a tensor is not priced: the server's CPU has no measured "
             "write_bandwidth in the catalog";
    return {};
  }
  HandlerCosts costs{request_bytes / cpu->write_bandwidth_Bps, 0};
  notes += fmt::format("; the handler copies each request into a tensor: {} at {:.1f} GB/s ({})",
                       format_time(costs.copy_s), cpu->write_bandwidth_Bps / 1e9, cpu->name);
  if (spec.system.device == "cpu") return costs;
  const auto fresh = perf::handler_fresh_pages(perf::parameter_tensor_bytes(model),
                                               static_cast<int64_t>(request_bytes), spec.serving->protocol == "http");
  if (fresh.read + fresh.copy == 0) return costs;
  if (!(cpu->fresh_write_bandwidth_Bps > 0)) {
    notes += fmt::format("; {} pages of each request's buffers are faulted afresh (glibc), not priced: the server's "
                         "CPU has no measured fresh_write_bandwidth in the catalog",
                         fresh.read + fresh.copy);
    return costs;
  }
  const double page = perf::GlibcHeap::kPage;
  const double premium = page / cpu->fresh_write_bandwidth_Bps - page / cpu->write_bandwidth_Bps;
  costs.copy_s += double(fresh.copy) * premium;
  costs.read_faults_s = double(fresh.read) * premium;
  notes += fmt::format("; glibc gives each request's buffers back: {} pages of the read and {} of the copy faulted "
                       "afresh, written at {:.2f} GB/s (+{} and +{})",
                       fresh.read, fresh.copy, cpu->fresh_write_bandwidth_Bps / 1e9, format_time(costs.read_faults_s),
                       format_time(double(fresh.copy) * premium));
  return costs;
}

// The serving simulation's latencies with every forward pass `factors[i]` times as long,
// each simulated in a child process (SimGrid runs one engine per process), so before this
// process's own.
std::vector<std::vector<double>> latencies_with_passes_scaled(const infer::ServedSpec& served,
                                                              const std::vector<double>& factors) {
  const auto children = run_in_children(
      factors.size(),
      [&](size_t i, std::string& out) {
        infer::ServedSpec scaled = served;
        for (double& seconds : scaled.forward_s) seconds *= factors[i];
        for (double& seconds : scaled.forward_cpu_s) seconds *= factors[i];
        for (double& seconds : scaled.forward_apart_beyond_s) seconds *= factors[i];
        for (double latency : infer::simulate_served(scaled).latencies_s) out += fmt::format("{:.17g}\n", latency);
        return 0;
      },
      factors.size());
  std::vector<std::vector<double>> out;
  for (const auto& child : children) {
    if (child.status != 0) throw std::runtime_error("a serving simulation at the pass band's edge failed");
    std::vector<double>& latencies = out.emplace_back();
    std::istringstream text(child.output);
    for (double latency; text >> latency;) latencies.push_back(latency);
  }
  return out;
}

// Serving over gRPC or HTTP (study A's local and remote deployments, and fleets of them): the
// protocol profile's push costs on every process's stack; inputs in the workload's
// precision, 1,000 fp32 logits back per image; a remote client across the slower of the
// two instances' NICs.  A fleet is the scenario's nodes, each serving on its GPUs.
infer::InferenceResult serve_over_protocol(const scenario::RunSpec& spec, const graph::Graph& model,
                                           const hardware::Catalog& catalog, const perf::StepPlan& plan,
                                           const std::string& host_cpu, bool latency_band, std::string& notes) {
  const perf::StepTotals forward = plan.totals();
  const auto& s = *spec.serving;
  const RpcCosts rpc = rpc_costs(spec, catalog, serving_protocol_profile(spec), notes);
  infer::ServedSpec served;
  const bool on_cpu = spec.system.device == "cpu";
  served.cluster = on_cpu ? cpu_cluster_spec(spec, catalog, rpc.bytes_per_s) : cluster_spec(spec, catalog);
  served.gpus_per_server = on_cpu ? 0 : std::min(spec.system.devices, served.cluster.gpus_per_node);
  served.instances_per_gpu = s.instances;
  served.copies_over_link = !pageable_copies(spec);
  served.one_interpreter = !on_cpu && s.stack == "python";
  if (served.one_interpreter)
    notes += "; one Python interpreter: its work on each message (not the bytes on the socket) and its passes take "
             "turns";
  served.remote = s.deployment == "remote";
  if (served.remote) {
    served.cluster.server_nodes = served.cluster.nodes;
    if (!s.client_instance.empty()) {
      const auto& client = catalog.instance(s.client_instance);
      served.cluster.nic_Bps = std::min(served.cluster.nic_Bps, catalog.find_nic(client.nic)->payload_Bps());
    }
  }
  const bool async = s.mode == "async";
  served.clients = async ? served.cluster.nodes : s.concurrency;
  served.in_flight = async ? s.concurrency : 1;
  served.requests_per_client = requests_per_client(plan, served.clients * served.in_flight);
  if (s.arrival != "closed") {
    served.arrival = s.arrival == "poisson"  ? infer::Arrival::poisson
                     : s.arrival == "replay" ? infer::Arrival::replay
                                             : infer::Arrival::constant;
    served.intervals_s = s.intervals_s;
    served.request_rate = s.request_rate;
    served.requests = s.requests;
    served.seed = static_cast<uint64_t>(s.seed);
  }
  served.rpc_bytes_per_s = rpc.bytes_per_s;
  served.rpc_latency_s = rpc.latency_s;
  const double word = graph::bytes_per_element(scenario::compute_type(spec.workload.precision));
  const Payload bytes = payload(model, spec.workload.batch, word);
  served.request_bytes = bytes.request;
  served.response_bytes = bytes.response;
  const HandlerCosts handler = handler_costs(spec, model, catalog, host_cpu, bytes.request, notes);
  served.handler_copy_s = handler.copy_s;
  served.read_faults_s = handler.read_faults_s;
  served.load_s = client_load_s(spec, model, catalog, notes);
  served.files = client_file_reads(spec, catalog, notes);
  // The dynamic batcher combines up to max_batch images' worth of requests: each size's
  // forward pass priced at its batch.
  served.forward_s = {forward.seconds};
  served.launch_wait_s = {forward.launch_wait_s};
  if (!plan.launch_wait_spread_s.empty()) {
    served.launch_wait_spread_s = {plan.launch_wait_spread_s};
    notes += "; each pass's host pace drawn from system.launch_spread";
  }
  const bool handoffs =
      served.one_interpreter && spec.system.launch_overhead_handoff_s != spec.system.launch_overhead_s;
  if (handoffs) {
    served.launch_wait_handoff_s = {plan.launch_wait_handoff_s};
    notes += fmt::format("; a pass answering another client than the one before launches at {} a kernel "
                         "(system.launch_overhead_handoff, or else the slow tenth's)",
                         format_time(spec.system.launch_overhead_handoff_s));
  }
  if (on_cpu) served.forward_cpu_s = {forward.cpu_seconds};
  served.apart_share = {plan.apart_share};
  served.forward_apart_beyond_s = {forward.apart_beyond_s};
  if (plan.apart_share > 0 && plan.apart_share < 1 && forward.apart_beyond_s > 0)
    notes += fmt::format("; each pass drawn with its team apart ({:.0f}% of passes, {} longer) or on its caller's "
                         "core",
                         100 * plan.apart_share, format_time(forward.apart_beyond_s));
  served.threads = std::max(1, spec.system.threads);
  served.stalls = plan.stalls;
  served.max_queue_delay_s = s.max_queue_delay_s;
  for (int64_t k = 2; k * spec.workload.batch <= s.max_batch; ++k) {
    scenario::RunSpec combined = spec;
    combined.workload.batch = k * spec.workload.batch;
    const report::Prediction priced = price(combined, model, catalog);
    served.forward_s.push_back(priced.totals.seconds);
    if (on_cpu) served.forward_cpu_s.push_back(priced.totals.cpu_seconds);
    served.apart_share.push_back(priced.plan.apart_share);
    served.forward_apart_beyond_s.push_back(priced.totals.apart_beyond_s);
    served.launch_wait_s.push_back(priced.totals.launch_wait_s);
    if (!priced.plan.launch_wait_spread_s.empty())
      served.launch_wait_spread_s.push_back(priced.plan.launch_wait_spread_s);
    if (handoffs) served.launch_wait_handoff_s.push_back(priced.plan.launch_wait_handoff_s);
  }
  for (int64_t images : s.preferred_batch) served.preferred_requests.push_back(static_cast<int>(images / spec.workload.batch));
  std::vector<std::vector<double>> band;
  if (latency_band && s.arrival != "closed" && forward.seconds > 0)
    band = latencies_with_passes_scaled(served, {forward.p10_seconds / forward.seconds,
                                                 forward.p90_seconds / forward.seconds});
  infer::InferenceResult result = infer::simulate_served(served);
  if (!band.empty()) {
    result.fast_pass_latencies_s = std::move(band[0]);
    result.slow_pass_latencies_s = std::move(band[1]);
  }
  return result;
}

// A Python in-process application copies each request's bytes into a tensor (the serving
// harness's in-process deployment calls its server's handler).
double in_process_copy_s(const scenario::RunSpec& spec, const graph::Graph& model, const hardware::Catalog& catalog,
                         report::Prediction& p) {
  if (!spec.serving || spec.serving->stack != "python") return 0;
  return handler_costs(spec, model, catalog, p.host_cpu, payload(model, spec.workload.batch, 4.0).request, p.scaling)
      .copy_s;
}

void simulate_gpu(const scenario::RunSpec& spec, const graph::Graph& model, const hardware::Catalog& catalog,
                  const PredictOptions& options, report::Prediction& p) {
  if (spec.workload.kind != scenario::WorkloadKind::train) {
    const int concurrency = spec.serving ? spec.serving->concurrency : 1;
    if (spec.serving && spec.serving->deployment != "in-process") {
      p.inference = serve_over_protocol(spec, model, catalog, p.plan, p.host_cpu, options.latency_band, p.scaling);
      return;
    }
    infer::InProcessSpec in_process{scenario::host_cores(spec.system, catalog), 1, concurrency,
                                    requests_per_client(p.plan, concurrency),
                                    true, client_load_s(spec, model, catalog, p.scaling),
                                    client_file_reads(spec, catalog, p.scaling)};
    in_process.copy_s = in_process_copy_s(spec, model, catalog, p);
    p.inference = infer::simulate_in_process(p.plan, in_process);
    return;
  }
  const std::string& strategy = spec.training->strategy;
  const bool loaded = spec.training->input != "synthetic";
  if (strategy == "allreduce" || (strategy == "single" && loaded)) {
    const auto cluster = cluster_spec(spec, catalog);
    p.training = train::simulate_allreduce_training(
        p.plan,
        spec.training->fusion == "horovod"
            ? perf::cycle_buckets(p.plan, model, spec.training->cycle_s, spec.training->bucket_bytes)
            : perf::gradient_buckets(p.plan, model, spec.training->bucket_bytes),
        {cluster, spec.system.devices, kTrainingSteps, train::allreduce_from_string(spec.training->allreduce), options.trace,
         input_pipeline(spec, model, catalog, cluster, p.scaling), spec.training->ring_order == "rank"});
  } else if (strategy == "ps_sync" || strategy == "ps_async") {
    auto ps = ps_spec(spec, catalog, strategy == "ps_sync", p.scaling);
    ps.trace = options.trace;
    ps.input = input_pipeline(spec, model, catalog, ps.cluster, p.scaling);
    p.training = train::simulate_ps_training(p.plan, perf::gradients(p.plan, model), ps);
  } else {
    p.training = train::simulate_training(p.plan, {1, 1, options.trace}, kTrainingSteps);
  }
}

// A scenario key that prices an inference pass's refaulted pages (system.heap_state,
// system.pass_page_faults) needs an inference workload and a framework over glibc's heap.
void require_refaulting_pass(const scenario::RunSpec& spec, const perf::FrameworkRules& rules, const std::string& key,
                             const std::string& value) {
  if (spec.workload.kind != scenario::WorkloadKind::infer)
    throw InputError(Problem{{spec.source, 0, 0}, key, value,
                             "an inference workload: served passes' pages were what was measured",
                             fmt::format("remove {} for training", key)});
  if (rules.host_allocator != "glibc")
    throw InputError(Problem{{spec.source, 0, 0}, key, value,
                             fmt::format("a profile whose framework allocates from glibc's heap (host_allocator = "
                                         "\"glibc\"); this profile's host_allocator is \"{}\"",
                                         rules.host_allocator),
                             fmt::format("remove {}, or point system.profile at a PyTorch CPU profile", key)});
}

// An inference pass's refaults as the scenario has them: the pages its stack was counted to
// fault (system.pass_page_faults, or its row of a page census: system.page_census), or the
// heap model's count at a tenth of its spread over heap states (system.heap_state); the
// report's framework says which.
void pass_refaults(const scenario::RunSpec& spec, perf::FrameworkRules& rules, std::string& framework) {
  if (spec.system.census) {
    require_refaulting_pass(spec, rules, "system.page_census", spec.system.page_census);
    const scenario::ServingSpec serving = spec.serving.value_or(scenario::ServingSpec{});  // none: in process
    const scenario::PageCensusKey key{spec.system.page_census_model, spec.workload.batch, spec.system.threads,
                                      serving.deployment, serving.protocol, serving.mode, serving.concurrency,
                                      serving.input};
    if (const auto pages = spec.system.census->pages(key)) {
      rules.refault_pages = *pages;
      framework += fmt::format(", {} pages refaulted a pass (the page census's count)", *pages);
    } else {
      framework += fmt::format(", the heap model's refaults (the page census has no {})", scenario::to_string(key));
    }
    return;
  }
  if (const int64_t pages = spec.system.pass_page_faults; pages >= 0) {
    require_refaulting_pass(spec, rules, "system.pass_page_faults", std::to_string(pages));
    rules.refault_pages = pages;
    framework += fmt::format(", {} pages refaulted a pass (counted)", pages);
    return;
  }
  const std::string& state = spec.system.heap_state;
  if (state.empty() || state == "model") return;
  require_refaulting_pass(spec, rules, "system.heap_state", state);
  const bool slow = state == "p90";
  rules.refault_factor = slow ? perf::kServedPassFaultSpread.p90 : perf::kServedPassFaultSpread.p10;
  framework += fmt::format(", the heap's refaults at their {} tenth ({:.2f} times the model's)", slow ? "slow" : "fast",
                           rules.refault_factor);
}

// The profile's framework rules, with the scenario's choice of library for fully connected
// layers; `framework` (the report's name for them) says when the choice departs from them.
perf::FrameworkRules framework_rules(const scenario::RunSpec& spec, const perf::Profile& profile,
                                     std::string& framework) {
  perf::FrameworkRules rules = profile.framework;
  pass_refaults(spec, rules, framework);
  const std::string& linear = spec.system.linear_kernels;
  if (linear.empty()) return rules;
  if (rules.kernels_from != "onednn")
    throw InputError(Problem{{spec.source, 0, 0}, "system.linear_kernels", linear,
                             fmt::format("a profile of oneDNN and BLAS kernels (kernels_from = \"onednn\"); {} timed {}'s "
                                         "own operators, whose library cannot be swapped",
                                         profile.machine, rules.name),
                             "point system.profile at a oneDNN profile, e.g. "
                             "calibration/profiles/devbox-emerald-rapids-2vcpu.toml (relative to the scenario's folder)"});
  rules.linear_uses_blas = linear == "blas";
  if (rules.linear_uses_blas != profile.framework.linear_uses_blas)
    framework += rules.linear_uses_blas ? ", fully connected layers in the system BLAS"
                                        : ", fully connected layers in oneDNN";
  return rules;
}

report::Prediction price_cpu(const scenario::RunSpec& spec, const graph::Graph& model,
                             const hardware::Catalog& catalog) {
  if (spec.workload.precision != scenario::Precision::fp32)
    throw UnrunnableError(fmt::format("the CPU profiles time fp32 kernels only; workload.precision = \"{}\" has no "
                                      "calibration here",
                                      to_string(spec.workload.precision)));
  report::Prediction p;
  p.profile = profile_path("cpu", spec.system.profile);
  const perf::Profile profile = scenario::load_profile(p.profile);
  p.profile_machine = profile.machine;
  p.framework = profile.framework.name;
  const perf::FrameworkRules rules = framework_rules(spec, profile, p.framework);
  perf::LookupOptions options;
  options.allow_fallback = spec.system.allow_fallback;
  const std::string cpu_name = !spec.system.cpu.empty() ? spec.system.cpu : profile.cpu;
  p.host_cpu = cpu_name;
  if (const auto* cpu = catalog.find_cpu(cpu_name)) {
    options.fallback_flops_per_s = cpu->peak_fp32_flops_per_core();
    options.fallback_bytes_per_s = cpu->memory_bandwidth_Bps / cpu->cores_per_socket;
  }
  options.cpu = cpu_scaling(profile, spec, catalog);
  if (options.cpu) p.scaling = options.cpu->basis;
  const perf::KernelTimes times(profile, options);
  const int threads = kernel_threads(spec, catalog, p.scaling);
  const perf::PassThreads where = pass_threads(spec, catalog, threads, p.scaling);
  p.plan = spec.workload.kind == scenario::WorkloadKind::train
               ? perf::training_plan(model, spec.workload.batch, spec.training->optimizer, threads, times, rules)
               : perf::inference_plan(model, spec.workload.batch, threads, times, rules, graph::DataType::fp32,
                                      where);
  if (const auto stalls = profile.stalls.find(threads); stalls != profile.stalls.end()) p.plan.stalls = stalls->second;
  if (const double pace = spec.system.cpu_pace; pace != 1 || !spec.system.cpu_pace_by_op.empty()) {
    const auto& by_op = spec.system.cpu_pace_by_op;
    perf::at_pace(p.plan, pace, by_op);
    std::string paces = fmt::format("every {}kernel at {:.3g} times its calibrated time", by_op.empty() ? "" : "other ", pace);
    for (const auto& [op, op_pace] : by_op) paces += fmt::format(", {} kernels at {:.3g}", op, op_pace);
    p.scaling += fmt::format("{}{}, the machine's pace on the day (system.cpu_pace{})", p.scaling.empty() ? "" : "; ",
                             paces, by_op.empty() ? "" : ", system.cpu_pace_by_op");
  }
  p.totals = p.plan.totals();
  return p;
}

void simulate_cpu(const scenario::RunSpec& spec, const graph::Graph& model, const hardware::Catalog& catalog,
                  const PredictOptions& options, report::Prediction& p) {
  const int threads = spec.system.threads;
  const int cores = std::max(scenario::host_cores(spec.system, catalog), threads);
  if (spec.workload.kind == scenario::WorkloadKind::train) {
    p.training = train::simulate_training(p.plan, {cores, threads, options.trace}, kTrainingSteps);
  } else {
    const int concurrency = spec.serving ? spec.serving->concurrency : 1;
    if (spec.serving && spec.serving->deployment != "in-process") {
      p.inference = serve_over_protocol(spec, model, catalog, p.plan, p.host_cpu, options.latency_band, p.scaling);
      return;
    }
    infer::InProcessSpec in_process{cores, threads, concurrency, requests_per_client(p.plan, concurrency), false,
                                    client_load_s(spec, model, catalog, p.scaling),
                                    client_file_reads(spec, catalog, p.scaling), p.plan.stalls};
    in_process.copy_s = in_process_copy_s(spec, model, catalog, p);
    p.inference = infer::simulate_in_process(p.plan, in_process);
  }
}

}  // namespace

report::Prediction price(const scenario::RunSpec& spec, const graph::Graph& model, const hardware::Catalog& catalog) {
  return spec.system.device != "cpu" ? price_gpu(spec, model, catalog) : price_cpu(spec, model, catalog);
}

std::optional<report::Prediction> predict(const scenario::RunSpec& spec, const graph::Graph& model,
                                          const hardware::Catalog& catalog, PredictOptions options) {
  if (!scenario::not_simulated_yet(spec).empty()) return std::nullopt;
  report::Prediction p = price(spec, model, catalog);
  if (p.on_gpu)
    simulate_gpu(spec, model, catalog, options, p);
  else
    simulate_cpu(spec, model, catalog, options, p);
  if (spec.serving) p.timed_requests = spec.serving->timed_requests;
  return p;
}

}  // namespace dlsim::cli
