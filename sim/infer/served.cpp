#include "infer/served.hpp"

#include <deque>

#include <simgrid/s4u.hpp>

#include "platform/engine.hpp"
#include "platform/network_model.hpp"
#include "platform/single_host.hpp"

namespace dlsim::infer {

using simgrid::s4u::Comm;
using simgrid::s4u::Semaphore;
using simgrid::s4u::SemaphorePtr;

namespace {

struct Request {
  double arrived_s = 0;        // in the server's queue
  double served_s = 0;         // answer ready on the server
  SemaphorePtr done;
};

}  // namespace

InferenceResult simulate_served(const ServedSpec& spec) {
  auto engine = platform::make_engine();
  platform::apply(platform::NetworkModelConfig{});
  platform::Cluster cluster(spec.cluster);
  auto* gpu = cluster.gpu(0);
  auto* server = cluster.add_process(0, "server", spec.rpc_bytes_per_s, spec.rpc_latency_s / 2);
  std::vector<simgrid::s4u::Host*> clients;
  for (int c = 0; c < spec.clients; ++c) {
    clients.push_back(cluster.add_process(spec.remote ? spec.cluster.nodes : 0, "client" + std::to_string(c),
                                          spec.rpc_bytes_per_s, spec.rpc_latency_s / 2));
    cluster.connect(clients.back(), server);
  }
  cluster.connect(cluster.host(0), gpu);
  cluster.seal();

  InferenceResult result;
  result.forward_s = spec.forward_s.front();
  result.requests = spec.clients * spec.in_flight * spec.requests_per_client;
  std::deque<Request*> queue;
  const SemaphorePtr waiting = Semaphore::create(0);
  double send = 0, queued = 0, computed = 0, received = 0;

  const size_t most = spec.forward_s.size();
  simgrid::s4u::Actor::create("server", server, [&] {
    for (int served = 0; served < result.requests;) {
      waiting->acquire();
      std::vector<Request*> batch{queue.front()};
      queue.pop_front();
      // Wait for more until the batch is full or the oldest has waited the maximum delay.
      const double deadline = batch.front()->arrived_s + spec.max_queue_delay_s;
      while (batch.size() < most && served + static_cast<int>(batch.size()) < result.requests) {
        const double left = deadline - platform::now();
        if (left <= 0 || waiting->acquire_timeout(left)) break;
        batch.push_back(queue.front());
        queue.pop_front();
      }
      const double start = platform::now();
      const double k = static_cast<double>(batch.size());
      Comm::sendto(cluster.host(0), gpu, static_cast<uint64_t>(k * spec.request_bytes));
      simgrid::s4u::this_actor::execute(spec.forward_s[batch.size() - 1] * platform::kOpsPerSecond);
      Comm::sendto(gpu, cluster.host(0), static_cast<uint64_t>(k * spec.response_bytes));
      for (Request* r : batch) {
        queued += start - r->arrived_s;
        r->served_s = platform::now();
        computed += r->served_s - start;
        r->done->release();
      }
      served += static_cast<int>(batch.size());
    }
  });
  for (int c = 0; c < spec.clients; ++c)
    for (int lane = 0; lane < spec.in_flight; ++lane)
      simgrid::s4u::Actor::create("client", clients[static_cast<size_t>(c)], [&, c] {
        auto* self = clients[static_cast<size_t>(c)];
        for (int i = 0; i < spec.requests_per_client; ++i) {
          Request r{0, 0, Semaphore::create(0)};
          const double submitted = platform::now();
          Comm::sendto(self, server, static_cast<uint64_t>(spec.request_bytes));
          r.arrived_s = platform::now();
          send += r.arrived_s - submitted;
          queue.push_back(&r);
          waiting->release();
          r.done->acquire();
          Comm::sendto(server, self, static_cast<uint64_t>(spec.response_bytes));
          received += platform::now() - r.served_s;
          result.latencies_s.push_back(platform::now() - submitted);
        }
      });
  engine->run();
  result.makespan_s = platform::now();
  const double n = result.requests;
  result.send_s = send / n;
  result.queue_s = queued / n;
  result.compute_s = computed / n;
  result.receive_s = received / n;
  return result;
}

}  // namespace dlsim::infer
