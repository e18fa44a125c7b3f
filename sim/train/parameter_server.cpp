#include "train/parameter_server.hpp"

#include <algorithm>
#include <deque>
#include <numeric>
#include <stdexcept>

#include <simgrid/s4u.hpp>

#include "platform/engine.hpp"
#include "platform/network_model.hpp"
#include "platform/single_host.hpp"
#include "train/input_feed.hpp"

namespace dlsim::train {

using simgrid::s4u::Comm;
using simgrid::s4u::CommPtr;
using simgrid::s4u::Host;
using simgrid::s4u::Semaphore;
using simgrid::s4u::SemaphorePtr;

namespace {

// A worker's compute between two points where gradients leave it; the optimizer's
// update is the servers' work, so the plan's update calls are not a worker's.
struct Segment {
  double seconds = 0;
  size_t first = 0, end = 0;            // the plan's calls it runs (the update calls excepted)
  std::vector<size_t> gradients_ready;  // indices into the gradients, pushed at its end
};

std::vector<Segment> worker_segments(const perf::StepPlan& plan, const std::vector<perf::Gradient>& gradients) {
  std::vector<Segment> out(1);
  size_t next = 0;
  for (size_t i = 0; i < plan.calls.size(); ++i) {
    if (plan.calls[i].stage == perf::Stage::update) continue;
    out.back().seconds += plan.calls[i].device_seconds();
    out.back().end = i + 1;
    bool any = false;
    while (next < gradients.size() && gradients[next].ready_after == i) {
      out.back().gradients_ready.push_back(next++);
      any = true;
    }
    if (any) {
      out.push_back({});
      out.back().first = out.back().end = i + 1;
    }
  }
  return out;
}

struct Push {
  int worker = 0;
  size_t gradient = 0;
  CommPtr flow;
};

// The workers of one node are alike: the same kernels, the same route to every server, a
// PCIe lane and a protocol stack each, the node's switch uplinks and NIC shared.  So a
// node's workers are simulated as one that moves all their bytes together, through a
// stack and a PCIe path carrying all of theirs, and max-min sharing treats it exactly as
// it treats them apart, since every flow then stands for the same number of workers.  The
// nodes of a star are alike in the same way, so all of them are pooled into one worker
// node whose NIC carries all their bytes; the servers then sit on nodes of their own.
// Pooling is exact with dedicated servers.  With servers beside the workers (on every
// node), 1/N of a server's pushes and pulls come from its own node and never cross a NIC,
// while pooled they all do: a server node's NIC is widened by N/(N-1), so that it carries
// what it carries among N nodes, and the pooled workers' NIC so that it passes their
// bytes at the pace of the node that sends the most over the network (the one whose own
// servers hold the least), which a synchronous step waits for.  A node's NIC is then no
// longer shared between its workers and its servers, whose traffic a synchronous step
// keeps apart in time, but for one thing: the nodes whose own servers hold large
// variables pull them locally, run ahead, and push while their NICs still serve the
// others' pulls.  That costs a few per cent where NICs are the bottleneck on few nodes
// (tests/train: 3-4% at 3 to 8 nodes, 1.6% at 16, 0.8% at 32; none where the servers'
// protocol stacks bind, as they do for ResNet-50 at 64 to 1,024 V100s), so servers beside
// the workers are pooled from kPooledBesideServers nodes on.  Together this divides the
// flows by the GPU count.  Synchronous training only: an asynchronous server applies one
// worker's push after another, so the workers drift apart (6-13% off on tests/train's
// case).  Not when a trace should show every GPU, nor when the nodes are not all workers
// or their PCIe switches hold different numbers of them, nor under racks, whose uplinks a
// pooled node would not load as its nodes do.
constexpr int kPooledBesideServers = 32;

struct Grouping {
  int members = 1;      // workers per simulated worker
  bool pooled = false;  // every worker node as one, the servers on nodes of their own
  platform::ClusterSpec cluster;
};

Grouping group_workers(const ParameterServerSpec& spec) {
  const platform::ClusterSpec& c = spec.cluster;
  const int m = c.gpus_per_node, g = c.gpus_per_pcie_switch;
  if (!spec.synchronous || spec.trace || spec.gpus % m != 0 || (m % g != 0 && g < m)) return {1, false, c};
  const int nodes = spec.gpus / m;
  const bool pool = nodes > 1 && c.nodes_per_rack == 0 &&
                    (spec.dedicated || (nodes == c.nodes && nodes >= kPooledBesideServers));
  if (m <= 1 && !pool) return {1, false, c};
  Grouping grouped{pool ? spec.gpus : m, pool, c};
  grouped.cluster.gpus_per_node = 1;
  grouped.cluster.gpus_per_pcie_switch = 1;
  grouped.cluster.nvlink_pairs.clear();  // a worker's pushes and pulls go through the host
  grouped.cluster.pcie_Bps = c.pcie_Bps * std::max(1, m / g) * (pool ? nodes : 1);  // the switch uplinks together
  if (pool) {
    grouped.cluster.nodes = 1;
    grouped.cluster.host_cores = c.host_cores * nodes;  // the loaders' cores (input_feed.hpp)
    grouped.cluster.nic_Bps = c.nic_Bps * nodes;
    grouped.cluster.server_nodes = spec.dedicated ? c.server_nodes : c.nodes;
    grouped.cluster.server_nic_Bps = c.nic_Bps;
  }
  return grouped;
}

// A pooled cluster's NICs when the servers sit beside the workers (above); `bytes_on` is
// each server's share of the variables.
void widen_pooled_nics(const ParameterServerSpec& spec, const std::vector<double>& bytes_on, Grouping& grouping) {
  if (!grouping.pooled || spec.dedicated) return;
  const int nodes = spec.cluster.nodes;
  std::vector<double> on_node(static_cast<size_t>(nodes), 0.0);
  for (size_t s = 0; s < bytes_on.size(); ++s) on_node[s % static_cast<size_t>(nodes)] += bytes_on[s];
  const double all = std::accumulate(on_node.begin(), on_node.end(), 0.0);
  const double most_remote = all - *std::min_element(on_node.begin(), on_node.end());
  if (all <= 0 || most_remote <= 0) return;
  grouping.cluster.nic_Bps *= all / most_remote;
  grouping.cluster.server_nic_Bps = spec.cluster.nic_Bps * nodes / (nodes - 1);
}

// The node a server process runs on: round-robin over the server nodes, or over the GPU
// nodes when the servers sit beside the workers (a pooled cluster keeps those nodes as
// server nodes after its one worker node).
int server_node(const ParameterServerSpec& spec, const Grouping& grouping, size_t s) {
  const int i = static_cast<int>(s);
  if (grouping.pooled) return 1 + i % grouping.cluster.server_nodes;
  return spec.dedicated ? spec.cluster.nodes + i % spec.cluster.server_nodes : i % spec.cluster.nodes;
}

}  // namespace

int workers_simulated_as_one(const ParameterServerSpec& spec) { return group_workers(spec).members; }

std::vector<int> place_variables(const std::vector<perf::Gradient>& gradients, int servers, bool greedy) {
  if (!greedy) {
    std::vector<int> server_of(gradients.size());
    for (size_t g = 0; g < gradients.size(); ++g) server_of[g] = static_cast<int>(g % static_cast<size_t>(servers));
    return server_of;
  }
  std::vector<size_t> order(gradients.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return gradients[a].bytes > gradients[b].bytes; });
  std::vector<double> load(static_cast<size_t>(servers), 0.0);
  std::vector<int> server_of(gradients.size(), 0);
  for (size_t g : order) {
    const auto least = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    server_of[g] = static_cast<int>(least);
    load[least] += gradients[g].bytes;
  }
  return server_of;
}

TrainingResult simulate_ps_training(const perf::StepPlan& plan, const std::vector<perf::Gradient>& gradients,
                                    const ParameterServerSpec& spec) {
  if (spec.steps < 3) throw std::invalid_argument("a parameter-server simulation needs at least 3 steps");
  if (spec.dedicated && spec.cluster.server_nodes < 1)
    throw std::invalid_argument("dedicated parameter servers need cluster.server_nodes");
  auto engine = platform::make_engine();
  platform::apply(platform::NetworkModelConfig{});
  const std::vector<int> server_of = place_variables(gradients, spec.servers, spec.greedy);
  std::vector<size_t> variables_on(static_cast<size_t>(spec.servers), 0);
  std::vector<double> bytes_on(static_cast<size_t>(spec.servers), 0);
  for (size_t g = 0; g < gradients.size(); ++g) {
    ++variables_on[static_cast<size_t>(server_of[g])];
    bytes_on[static_cast<size_t>(server_of[g])] += gradients[g].bytes;
  }
  Grouping grouping = group_workers(spec);
  widen_pooled_nics(spec, bytes_on, grouping);
  const double members = grouping.members;
  platform::Cluster cluster(grouping.cluster);
  const size_t workers = static_cast<size_t>(spec.gpus / grouping.members), servers = static_cast<size_t>(spec.servers);
  std::vector<Host*> gpu(workers), ps(servers);
  for (size_t s = 0; s < servers; ++s)
    ps[s] = cluster.add_process(server_node(spec, grouping, s), "ps" + std::to_string(s), spec.rpc_bytes_per_s,
                                spec.rpc_latency_s / 2);
  for (size_t w = 0; w < workers; ++w) {
    gpu[w] = cluster.gpu(static_cast<int>(w));
    cluster.set_process_link(gpu[w], members * spec.rpc_bytes_per_s, spec.rpc_latency_s / 2);
    for (auto* p : ps) cluster.connect(gpu[w], p);
  }
  InputFeed input(spec.input, cluster, gpu, spec.steps, grouping.members);
  cluster.seal();
  const std::vector<Segment> work = worker_segments(plan, gradients);
  std::vector<double> stalled(workers, 0.0);  // over the steps the steady state counts

  // A worker's pushes go out in order; its sender hands each to its server once it has
  // arrived, so that a server never waits on one flow while another has come in.
  std::vector<std::deque<Push>> outbox(workers), inbox(servers);
  std::vector<SemaphorePtr> sent(workers), arrived(servers);
  for (auto& s : sent) s = Semaphore::create(0);
  std::vector<std::vector<SemaphorePtr>> applied(servers);  // [server][worker]: its pushes of a step applied
  for (size_t s = 0; s < servers; ++s) {
    arrived[s] = Semaphore::create(0);
    for (size_t w = 0; w < workers; ++w) applied[s].push_back(Semaphore::create(0));
  }
  std::vector<std::vector<double>> step_end(workers);
  TrainingResult result;
  result.trace.on = spec.trace;

  for (size_t w = 0; w < workers; ++w)
    simgrid::s4u::Actor::create("worker" + std::to_string(w), gpu[w], [&, w] {
      const std::string track = "gpu" + std::to_string(w);
      for (int step = 0; step < spec.steps; ++step) {
        const bool traced = step + 1 == spec.steps && w < kMaxTracedDevices;
        const double waiting = platform::now();
        std::vector<CommPtr> pulls;
        if (step > 0) {
          for (size_t s = 0; s < servers; ++s) applied[s][w]->acquire();
          // One flow per server carries all its variables (TensorFlow reads them in
          // parallel, one request each): the per-request latency is paid once per server.
          for (size_t s = 0; s < servers; ++s)
            if (bytes_on[s] > 0)
              pulls.push_back(Comm::sendto_async(ps[s], gpu[w], static_cast<uint64_t>(members * bytes_on[s])));
        }
        if (!input.synthetic()) {  // the batch comes in while the weights do
          const double batch_wait = platform::now();
          input.take(w);
          if (step > 1) stalled[w] += platform::now() - batch_wait;
        }
        for (auto& p : pulls) p->wait();
        if (traced && step > 0)
          result.trace.add(track + " pull", "wait for updates and batch, pull weights", waiting, platform::now() - waiting);
        for (const auto& segment : work) {
          if (traced) result.trace.kernels(track, plan, segment.first, segment.end, platform::now());
          if (segment.seconds > 0) simgrid::s4u::this_actor::execute(segment.seconds * platform::kOpsPerSecond);
          for (size_t g : segment.gradients_ready) {
            const auto s = static_cast<size_t>(server_of[g]);
            outbox[w].push_back({static_cast<int>(w), g,
                                 Comm::sendto_async(gpu[w], ps[s], static_cast<uint64_t>(members * gradients[g].bytes))});
            sent[w]->release();
          }
        }
        step_end[w].push_back(simgrid::s4u::Engine::get_clock());
      }
    });

  for (size_t w = 0; w < workers; ++w)
    simgrid::s4u::Actor::create("sender" + std::to_string(w), gpu[w], [&, w] {
      for (size_t n = 0; n < gradients.size() * static_cast<size_t>(spec.steps); ++n) {
        sent[w]->acquire();
        Push push = outbox[w].front();
        outbox[w].pop_front();
        push.flow->wait();
        const auto s = static_cast<size_t>(server_of[push.gradient]);
        inbox[s].push_back(push);
        arrived[s]->release();
      }
    });

  auto update = [&](double bytes) {
    simgrid::s4u::this_actor::execute(bytes / spec.update_bytes_per_s * platform::kOpsPerSecond);
  };
  // The last step's updates, traced on the server's track.
  auto traced_update = [&](size_t s, int step, size_t gradient, double bytes) {
    const double start = platform::now();
    update(bytes);
    if (step + 1 == spec.steps && s < kMaxTracedDevices)
      result.trace.add("ps" + std::to_string(s), "update " + gradients[gradient].layer, start, platform::now() - start);
  };
  for (size_t s = 0; s < servers; ++s)
    simgrid::s4u::Actor::create("server" + std::to_string(s), ps[s], [&, s] {
      std::vector<size_t> pushes_of_variable(gradients.size(), 0), applied_of_worker(workers, 0);
      for (int step = 0; step < spec.steps; ++step) {
        for (size_t n = 0; n < variables_on[s] * workers; ++n) {
          arrived[s]->acquire();
          const Push push = inbox[s].front();
          inbox[s].pop_front();
          const double bytes = gradients[push.gradient].bytes;
          if (!spec.synchronous) {
            traced_update(s, step, push.gradient, 3 * bytes);  // read the gradient, read and write the weights
            if (++applied_of_worker[static_cast<size_t>(push.worker)] == variables_on[s]) {
              applied_of_worker[static_cast<size_t>(push.worker)] = 0;
              applied[s][static_cast<size_t>(push.worker)]->release();
            }
          } else if (++pushes_of_variable[push.gradient] == workers) {
            pushes_of_variable[push.gradient] = 0;
            traced_update(s, step, push.gradient, (static_cast<double>(spec.gpus) + 2) * bytes);  // sum them, apply
          }
        }
        if (spec.synchronous)
          for (auto& a : applied[s]) a->release();
      }
    });
  input.start();
  engine->run();
  result.links = cluster.busiest_links();

  result.steps = spec.steps;
  result.devices = spec.gpus;
  // Each worker's own period, from the end of its second step (the first that pulled) to
  // the end of its last; the cluster's images/s is the sum of the workers' own rates.
  double rate = 0;
  for (const auto& ends : step_end) rate += members * (spec.steps - 2) / (ends.back() - ends[1]);
  result.step_time_s = static_cast<double>(spec.gpus) / rate;
  for (const auto& call : plan.calls) {
    if (call.stage == perf::Stage::forward) result.forward_s += call.answer.seconds;
    else if (call.stage == perf::Stage::backward) result.backward_s += call.answer.seconds;
    if (call.stage != perf::Stage::update) result.launch_wait_s += call.launch_wait_s;
  }
  for (double s : stalled) result.input_stall_s += s / (spec.steps - 2) / static_cast<double>(workers);
  result.exposed_communication_s = std::max(
      0.0, result.step_time_s - result.forward_s - result.backward_s - result.launch_wait_s - result.input_stall_s);
  for (const auto& g : gradients) result.communicated_bytes += 2 * g.bytes;  // pushed and pulled
  return result;
}

}  // namespace dlsim::train
