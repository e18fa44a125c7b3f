#include "train/single_device.hpp"

#include <simgrid/s4u.hpp>

#include "platform/engine.hpp"
#include "platform/single_host.hpp"

namespace dlsim::train {

TrainingResult simulate_training(const perf::StepPlan& plan, const HostSpec& spec, int steps) {
  auto engine = platform::make_engine();
  auto* host = platform::build_single_host("host", spec.cores);
  TrainingResult result;
  result.trace.on = spec.trace;
  result.steps = steps;
  simgrid::s4u::Actor::create("trainer", host, [&] {
    for (int step = 0; step < steps; ++step) {
      for (const auto& call : plan.calls) {
        if (call.launch_wait_s > 0) simgrid::s4u::this_actor::sleep_for(call.launch_wait_s);
        const double start = simgrid::s4u::Engine::get_clock();
        simgrid::s4u::this_actor::thread_execute(host, call.answer.seconds * platform::kOpsPerSecond, spec.threads);
        const double took = simgrid::s4u::Engine::get_clock() - start;
        if (step + 1 == steps) result.trace.add("device", call.layer + " " + call.phase, start, took);
        (call.stage == perf::Stage::forward    ? result.forward_s
         : call.stage == perf::Stage::backward ? result.backward_s
                                                : result.update_s) += took;
        result.launch_wait_s += call.launch_wait_s;
      }
    }
  });
  engine->run();
  result.step_time_s = simgrid::s4u::Engine::get_clock() / steps;
  result.forward_s /= steps;
  result.backward_s /= steps;
  result.update_s /= steps;
  result.launch_wait_s /= steps;
  return result;
}

}  // namespace dlsim::train
