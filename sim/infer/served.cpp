#include "infer/served.hpp"

#include <algorithm>
#include <deque>
#include <random>

#include <simgrid/s4u.hpp>

#include "infer/cpu_teams.hpp"
#include "infer/draws.hpp"
#include "platform/engine.hpp"
#include "platform/network_model.hpp"
#include "platform/single_host.hpp"

namespace dlsim::infer {

using simgrid::s4u::Comm;
using simgrid::s4u::ExecPtr;
using simgrid::s4u::Host;
using simgrid::s4u::Semaphore;
using simgrid::s4u::SemaphorePtr;

std::vector<double> arrival_times(Arrival arrival, double rate, int count, uint64_t seed,
                                  const std::vector<double>& intervals) {
  std::vector<double> times;
  std::mt19937_64 random(seed);
  double t = 0;
  for (int i = 0; i < count; ++i) {
    if (arrival == Arrival::replay) {
      times.push_back(t);
      t += intervals[static_cast<size_t>(i) % intervals.size()];
      continue;
    }
    times.push_back(arrival == Arrival::poisson ? t : i / rate);
    t += exponential_gap(random, rate);
  }
  return times;
}

namespace {

struct Request {
  double arrived_s = 0;        // in the server's queue
  double served_s = 0;         // answer ready on the server
  SemaphorePtr done;
  aid_t sender = 0;            // the client actor (a connection: a Python server's handler thread)
};

// One server: its process, its queue (with a semaphore counting what is in it) and the
// GPUs its model instances run on.
struct Server {
  Host* process = nullptr;
  Host* node = nullptr;
  std::vector<Host*> gpus;
  std::deque<Request*> queue;
  SemaphorePtr waiting = Semaphore::create(0);
  Host* interpreter = nullptr;  // where the server has one: its threads' Python work takes turns on it
};

class Simulation {
 public:
  explicit Simulation(const ServedSpec& spec) : spec_(spec), cluster_(spec.cluster), pace_random_(spec.seed) {}

  InferenceResult run(simgrid::s4u::Engine& engine);

 private:
  Request* take(Server& s) {
    s.waiting->acquire();
    Request* r = s.queue.front();
    s.queue.pop_front();
    return r;
  }
  void give_back(Server& s, std::vector<Request*>& batch, size_t keep);
  std::vector<Request*> form_batch(Server& s);
  void serve(Server& s, Host* gpu);
  void request(size_t n, size_t loader);
  void send(Host* from_machine, Host* from, Host* to_machine, Host* to, double bytes, Host* to_interpreter,
            Host* from_interpreter);
  void copy_in(Server& s);
  void forward_on_gpu(Server& s, Host* gpu, size_t requests, bool handed_over);
  double host_pace_beyond_median(size_t requests, bool handed_over);
  double placement_beyond_mean(size_t requests);

  const ServedSpec& spec_;
  platform::Cluster cluster_;
  CpuTeams cores_;  // the machines' cores: forward passes on a CPU and the work beside them
  std::vector<Server> servers_;
  std::vector<Host*> clients_;            // one per server: the client process on its node or its own machine
  std::vector<Host*> client_machines_;    // where each client process's loading runs
  std::vector<MachineDisk> disks_;        // their disks
  std::vector<SemaphorePtr> loaders_;     // per client process (closed loop) or per node (open loop)
  InferenceResult result_;
  int in_servers_ = 0;
  double send_ = 0, queued_ = 0, computed_ = 0, received_ = 0;
  std::vector<double> answered_s_;
  std::vector<double> send_times_;  // open loop
  std::mt19937_64 pace_random_;     // the host's pace for each pass, or its team's place on a CPU
};

void Simulation::give_back(Server& s, std::vector<Request*>& batch, size_t keep) {
  while (batch.size() > keep) {
    s.queue.push_front(batch.back());
    batch.pop_back();
    s.waiting->release();
  }
}

// Triton's dynamic batcher: what is queued, up to the maximum; at once if that is the
// maximum or a preferred size can be formed (the largest, the rest left queued); else wait
// for more until the oldest has waited the delay.
std::vector<Request*> Simulation::form_batch(Server& s) {
  const size_t most = spec_.forward_s.size();
  std::vector<Request*> batch{take(s)};
  const double deadline = batch.front()->arrived_s + spec_.max_queue_delay_s;
  while (batch.size() < most) {
    while (batch.size() < most && !s.waiting->would_block()) batch.push_back(take(s));
    if (batch.size() == most) break;
    size_t preferred = 0;
    for (int p : spec_.preferred_requests)
      if (static_cast<size_t>(p) <= batch.size()) preferred = std::max(preferred, static_cast<size_t>(p));
    if (preferred > 0) {
      give_back(s, batch, preferred);
      break;
    }
    const double left = deadline - platform::now();
    if (left <= 0 || s.waiting->acquire_timeout(left)) break;
    batch.push_back(s.queue.front());
    s.queue.pop_front();
  }
  return batch;
}

// One model instance: batches from its server's queue through its GPU, for ever (the
// simulation ends when the last client is answered).
void Simulation::serve(Server& s, Host* gpu) {
  aid_t last_sender = -1;  // whose request this instance's last pass answered (-1: none yet)
  for (;;) {
    std::vector<Request*> batch = form_batch(s);
    const double start = platform::now();
    const double k = static_cast<double>(batch.size());
    const bool copies = gpu != s.node && spec_.copies_over_link;
    if (copies) Comm::sendto(s.node, gpu, static_cast<uint64_t>(k * spec_.request_bytes));
    const double forward_s = spec_.forward_s[batch.size() - 1];
    if (gpu == s.node)  // on the CPU: its threads contend with the processes' stacks for cores
      cores_.run_team(gpu, forward_s + placement_beyond_mean(batch.size()), spec_.threads);
    else
      forward_on_gpu(s, gpu, batch.size(), last_sender != -1 && batch.front()->sender != last_sender);
    last_sender = batch.front()->sender;
    if (gpu == s.node && !spec_.forward_cpu_s.empty()) result_.server_cpu_s += spec_.forward_cpu_s[batch.size() - 1];
    result_.gpu_busy_s +=
        forward_s - (spec_.launch_wait_s.empty() ? 0.0 : spec_.launch_wait_s[batch.size() - 1]);
    if (copies) Comm::sendto(gpu, s.node, static_cast<uint64_t>(k * spec_.response_bytes));
    for (Request* r : batch) {
      queued_ += start - r->arrived_s;
      r->served_s = platform::now();
      computed_ += r->served_s - start;
      r->done->release();
    }
  }
}

// The forward pass of `requests` combined on a GPU.  With one interpreter the pass's thread
// needs it from the first launch to the answer's conversion (it takes the lock back after
// each operator), but lets it go around each operator, while any other thread holds it
// through its own work: so the pass has a sliver of the interpreter wherever other work is
// there, and is stretched by it.
void Simulation::forward_on_gpu(Server& s, Host* gpu, size_t requests, bool handed_over) {
  const double ops = platform::kOpsPerSecond;
  constexpr double kPassShare = 1e-3;
  const double seconds = spec_.forward_s[requests - 1] + host_pace_beyond_median(requests, handed_over);
  const ExecPtr kernels = simgrid::s4u::this_actor::exec_init(seconds * ops)->set_host(gpu)->start();
  if (s.interpreter)
    simgrid::s4u::this_actor::exec_init(seconds * ops)->set_host(s.interpreter)->set_priority(kPassShare)->wait();
  kernels->wait();
}

// How much longer than at the median pace this pass waits for its host to launch its
// kernels (negative where faster): at the pace of a pass handed over from another client's
// thread where it was, and one draw from the host's per-pass spread.
double Simulation::host_pace_beyond_median(size_t requests, bool handed_over) {
  const size_t k = requests - 1;
  double beyond = 0;
  if (handed_over && !spec_.launch_wait_handoff_s.empty())
    beyond += spec_.launch_wait_handoff_s[k] - spec_.launch_wait_s[k];
  if (!spec_.launch_wait_spread_s.empty())
    beyond += percentile_draw(pace_random_, spec_.launch_wait_spread_s[k]) - spec_.launch_wait_s[k];
  return beyond;
}

// How much longer than the mean of its two places this pass on a CPU takes in the place it
// draws: with its team apart (at the share of passes apart) or on its caller's core.  Only
// where apart is the slower place (ServedSpec::apart_share).
double Simulation::placement_beyond_mean(size_t requests) {
  const size_t k = requests - 1;
  if (spec_.apart_share.empty() || spec_.apart_share[k] <= 0 || spec_.apart_share[k] >= 1) return 0;
  const double share = spec_.apart_share[k];
  const double beyond = spec_.forward_apart_beyond_s[k];
  if (beyond <= 0) return 0;
  return uniform_draw(pace_random_) <= share ? (1 - share) * beyond : -share * beyond;
}

// A message through both processes' stacks, whose work also occupies a core of each one's
// machine while it passes (where the machine's cores are busy, the message and the work
// beside it both slow; a forward pass's team there stalls, cpu_teams.hpp).  An end with
// one interpreter (`from_interpreter`, `to_interpreter`) moves the bytes outside it, then
// takes it for its per-request share.
void Simulation::send(Host* from_machine, Host* from, Host* to_machine, Host* to, double bytes,
                      Host* to_interpreter, Host* from_interpreter) {
  const double per_request_s = spec_.rpc_latency_s / 2;
  const double bytes_s = bytes / spec_.rpc_bytes_per_s;
  struct End {
    Host* machine;
    Host* interpreter;
    bool interpreting = false;
  };
  std::vector<End> ends{{from_machine, from_interpreter}, {to_machine, to_interpreter}};
  std::vector<ExecPtr> stacks;
  const auto message = Comm::sendto_async(from, to, static_cast<uint64_t>(bytes));
  for (const End& end : ends)
    stacks.push_back(cores_.start_beside(end.machine, end.interpreter ? bytes_s : per_request_s + bytes_s));
  while (!stacks.empty()) {
    const auto done = static_cast<size_t>(simgrid::s4u::Exec::wait_any(stacks));
    End& end = ends[done];
    if (!end.interpreting) cores_.end_beside(end.machine);
    if (end.interpreter && !end.interpreting) {
      end.interpreting = true;
      stacks[done] = simgrid::s4u::this_actor::exec_init(per_request_s * platform::kOpsPerSecond)
                         ->set_host(end.interpreter)
                         ->start();
      continue;
    }
    stacks.erase(stacks.begin() + static_cast<std::ptrdiff_t>(done));
    ends.erase(ends.begin() + static_cast<std::ptrdiff_t>(done));
  }
  message->wait();
}

// A Python server's stack finishes reading a request's bytes into fresh pages (a system
// call: outside the interpreter, on a core of its machine), then its handler copies them
// into a tensor: on its interpreter where it has one, else on a core of its machine.
void Simulation::copy_in(Server& s) {
  if (spec_.read_faults_s > 0) cores_.run_beside(s.node, spec_.read_faults_s);
  if (spec_.handler_copy_s <= 0) return;
  if (s.interpreter)
    simgrid::s4u::this_actor::exec_init(spec_.handler_copy_s * platform::kOpsPerSecond)
        ->set_host(s.interpreter)
        ->wait();
  else
    cores_.run_beside(s.node, spec_.handler_copy_s);
}

// One request of a client process (the `loader`th) on the client machine of server `n`.
void Simulation::request(size_t n, size_t loader) {
  Server& s = servers_[n];
  Host* client = clients_[n];
  if (spec_.load_s > 0 || spec_.files.from_disk()) {
    loaders_[loader]->acquire();
    disks_[n].read_request();
    if (spec_.load_s > 0) cores_.run_beside(client_machines_[n], spec_.load_s);
    loaders_[loader]->release();
  }
  Request r{0, 0, Semaphore::create(0), simgrid::s4u::this_actor::get_pid()};
  const double submitted = platform::now();
  send(client_machines_[n], client, s.node, s.process, spec_.request_bytes, s.interpreter, nullptr);
  copy_in(s);
  r.arrived_s = platform::now();
  send_ += r.arrived_s - submitted;
  result_.peak_requests_in_servers = std::max(result_.peak_requests_in_servers, ++in_servers_);
  s.queue.push_back(&r);
  s.waiting->release();
  r.done->acquire();
  --in_servers_;
  send(s.node, s.process, client_machines_[n], client, spec_.response_bytes, nullptr, s.interpreter);
  received_ += platform::now() - r.served_s;
  result_.latencies_s.push_back(platform::now() - submitted);
  answered_s_.push_back(platform::now());
}

InferenceResult Simulation::run(simgrid::s4u::Engine& engine) {
  const int nodes = spec_.cluster.nodes;
  for (int n = 0; n < nodes; ++n) {
    Server s;
    s.node = cluster_.host(n);
    s.process = cluster_.add_process(n, "server", spec_.rpc_bytes_per_s, spec_.rpc_latency_s / 2, true);
    for (int g = 0; g < spec_.gpus_per_server; ++g) {
      s.gpus.push_back(cluster_.gpu(n * spec_.cluster.gpus_per_node + g));
      cluster_.connect(s.node, s.gpus.back());
    }
    if (spec_.one_interpreter) s.interpreter = cluster_.add_core("n" + std::to_string(n) + ".interpreter");
    if (s.gpus.empty()) {  // the forward pass on the node's CPU
      s.gpus.push_back(s.node);
      cores_.interrupt(s.node, spec_.threads, spec_.stalls);
    }
    const int client_node = spec_.remote ? nodes + n : n;
    clients_.push_back(
        cluster_.add_process(client_node, "client", spec_.rpc_bytes_per_s, spec_.rpc_latency_s / 2, true));
    client_machines_.push_back(cluster_.host(client_node));
    disks_.emplace_back(client_machines_.back(), spec_.files);
    cluster_.connect(clients_.back(), s.process);
    servers_.push_back(std::move(s));
  }
  cluster_.seal();

  for (auto& s : servers_)
    for (Host* gpu : s.gpus)
      for (int i = 0; i < spec_.instances_per_gpu; ++i)
        simgrid::s4u::Actor::create("instance", s.process, [this, &s, gpu] { serve(s, gpu); })->daemonize();

  if (spec_.arrival == Arrival::closed) {
    result_.requests = spec_.clients * spec_.in_flight * spec_.requests_per_client;
    for (int c = 0; c < spec_.clients; ++c) {
      loaders_.push_back(Semaphore::create(1));
      for (int lane = 0; lane < spec_.in_flight; ++lane) {
        const auto n = static_cast<size_t>(c % nodes);
        simgrid::s4u::Actor::create("client", clients_[n], [this, n, c] {
          for (int i = 0; i < spec_.requests_per_client; ++i) request(n, static_cast<size_t>(c));
        });
      }
    }
  } else {
    result_.requests = spec_.requests;
    send_times_ = arrival_times(spec_.arrival, spec_.request_rate, spec_.requests, spec_.seed, spec_.intervals_s);
    const auto& times = send_times_;
    for (int n = 0; n < nodes; ++n) loaders_.push_back(Semaphore::create(1));
    simgrid::s4u::Actor::create("load", clients_.front(), [this, times] {
      for (size_t i = 0; i < times.size(); ++i) {
        simgrid::s4u::this_actor::sleep_until(times[i]);
        const size_t n = i % servers_.size();
        simgrid::s4u::Actor::create("request", clients_[n], [this, n] { request(n, n); });
      }
    });
  }
  engine.run();
  result_.makespan_s = platform::now();
  result_.forward_s = spec_.forward_s.front();
  result_.gpus = nodes * std::max(spec_.gpus_per_server, 1);
  result_.peak_request_bytes_in_servers = result_.peak_requests_in_servers * spec_.request_bytes;
  if (spec_.arrival != Arrival::closed && answered_s_.size() > 1) {
    // A replay offers its intervals' mean rate.
    const double span = send_times_.back() - send_times_.front();
    result_.offered_requests_per_s = spec_.arrival != Arrival::replay ? spec_.request_rate
                                     : span > 0                        ? (send_times_.size() - 1) / span
                                                                       : 0;
    result_.achieved_requests_per_s =
        static_cast<double>(answered_s_.size() - 1) / (answered_s_.back() - answered_s_.front());
  }
  const double n = result_.requests;
  // Each message's stack work at either end: its share of the per-request latency and its
  // bytes at the stack's rate.
  const double protocol_s = spec_.rpc_latency_s + (spec_.request_bytes + spec_.response_bytes) / spec_.rpc_bytes_per_s;
  result_.server_cpu_s += n * (protocol_s + spec_.read_faults_s + spec_.handler_copy_s);
  const double client_s = n * (protocol_s + spec_.load_s);
  result_.server_cores = nodes * spec_.cluster.host_cores;
  if (spec_.remote) {
    result_.client_cpu_s = client_s;
    result_.client_cores = nodes * spec_.cluster.host_cores;
  } else {
    result_.server_cpu_s += client_s;  // the clients share the servers' machines
  }
  result_.send_s = send_ / n;
  result_.queue_s = queued_ / n;
  result_.compute_s = computed_ / n;
  result_.receive_s = received_ / n;
  return result_;
}

}  // namespace

InferenceResult simulate_served(const ServedSpec& spec) {
  auto engine = platform::make_engine();
  platform::apply(platform::NetworkModelConfig{});
  Simulation simulation(spec);
  return simulation.run(*engine);
}

}  // namespace dlsim::infer
