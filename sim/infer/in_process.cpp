#include "infer/in_process.hpp"

#include <tuple>

#include <simgrid/s4u.hpp>

#include "infer/cpu_teams.hpp"
#include "infer/draws.hpp"
#include "platform/engine.hpp"
#include "platform/single_host.hpp"

namespace dlsim::infer {
namespace {

struct Request {
  double submitted_s = 0;
  simgrid::s4u::Mailbox* reply = nullptr;
};

}  // namespace

InferenceResult simulate_in_process(const perf::StepPlan& forward, const InProcessSpec& spec) {
  auto engine = platform::make_engine();
  simgrid::s4u::Host* host = nullptr;
  simgrid::s4u::Host* device = nullptr;  // where the forward passes run
  if (spec.on_gpu) {
    std::tie(host, device) = platform::build_host_and_gpu("host", spec.cores);
  } else {
    host = device = platform::build_single_host("host", spec.cores);
  }
  const MachineDisk disk(host, spec.files);
  CpuTeams cores;  // a forward pass on the CPU stalls while decoding takes its cores (cpu_teams.hpp)
  if (!spec.on_gpu) cores.interrupt(device, spec.threads, spec.stalls);
  auto* queue = simgrid::s4u::Mailbox::by_name("model");
  InferenceResult result;
  result.requests = spec.concurrency * spec.requests_per_client;
  double launch_wait_s = 0;  // a pass's at the host's median pace
  for (const auto& call : forward.calls) {
    result.forward_s += call.answer.seconds;
    launch_wait_s += call.launch_wait_s;
  }
  // Where the host's pace spreads from pass to pass, each pass's waits scaled to a draw.
  std::mt19937_64 pace(spec.seed);
  const auto pace_of_a_pass = [&] {
    if (forward.launch_wait_spread_s.empty() || launch_wait_s <= 0) return 1.0;
    return percentile_draw(pace, forward.launch_wait_spread_s) / launch_wait_s;
  };

  simgrid::s4u::Actor::create("worker", host, [&] {
    for (int served = 0; served < result.requests; ++served) {
      auto* request = queue->get<Request>();
      const double pace_scale = pace_of_a_pass();
      for (const auto& call : forward.calls) {
        if (call.launch_wait_s > 0) simgrid::s4u::this_actor::sleep_for(call.launch_wait_s * pace_scale);
        cores.run_team(device, call.answer.seconds, spec.threads);
      }
      request->reply->put(request, 0);
    }
  });
  std::vector<Request> requests(static_cast<size_t>(result.requests));
  for (int c = 0; c < spec.concurrency; ++c) {
    simgrid::s4u::Actor::create("client" + std::to_string(c), host, [&, c] {
      auto* reply = simgrid::s4u::Mailbox::by_name("reply" + std::to_string(c));
      for (int i = 0; i < spec.requests_per_client; ++i) {
        Request& r = requests[static_cast<size_t>(c * spec.requests_per_client + i)];
        disk.read_request();
        if (spec.load_s > 0) cores.run_beside(host, spec.load_s);
        r.submitted_s = simgrid::s4u::Engine::get_clock();
        if (spec.copy_s > 0) cores.run_beside(host, spec.copy_s);
        r.reply = reply;
        queue->put(&r, 0);
        reply->get<Request>();
        result.latencies_s.push_back(simgrid::s4u::Engine::get_clock() - r.submitted_s);
      }
    });
  }
  engine->run();
  result.makespan_s = simgrid::s4u::Engine::get_clock();
  result.server_cores = spec.cores;
  const double forward_cpu_s = forward.totals().cpu_seconds;  // core-seconds of a pass on a CPU
  result.server_cpu_s = result.requests * (spec.load_s + spec.copy_s + (spec.on_gpu ? 0.0 : forward_cpu_s));
  return result;
}

}  // namespace dlsim::infer
