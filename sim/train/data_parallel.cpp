#include "train/data_parallel.hpp"

#include <simgrid/s4u.hpp>

#include "platform/engine.hpp"
#include "platform/network_model.hpp"
#include "platform/single_host.hpp"
#include "train/collectives.hpp"

namespace dlsim::train {

using simgrid::s4u::Semaphore;
using simgrid::s4u::SemaphorePtr;

TrainingResult simulate_allreduce_training(const perf::StepPlan& plan, const std::vector<perf::GradientBucket>& buckets,
                                           const DataParallelSpec& spec) {
  auto engine = platform::make_engine();
  platform::apply(platform::NetworkModelConfig{});
  platform::Cluster cluster(spec.cluster);
  std::vector<simgrid::s4u::Host*> ring;
  for (int g = 0; g < spec.gpus; ++g) ring.push_back(cluster.gpu(g));
  for (size_t i = 0; i < ring.size(); ++i) cluster.connect(ring[i], ring[(i + 1) % ring.size()]);
  cluster.seal();

  // Workers signal each bucket's gradients; the communicator signals each worker when the
  // step's last bucket is reduced.
  std::vector<SemaphorePtr> bucket_ready, step_reduced;
  for (size_t b = 0; b < buckets.size(); ++b) bucket_ready.push_back(Semaphore::create(0));
  for (size_t w = 0; w < ring.size(); ++w) step_reduced.push_back(Semaphore::create(0));

  TrainingResult result;
  result.steps = spec.steps;
  result.devices = spec.gpus;
  for (const auto& b : buckets) result.communicated_bytes += b.bytes;
  for (size_t w = 0; w < ring.size(); ++w) {
    simgrid::s4u::Actor::create("worker" + std::to_string(w), ring[w], [&, w] {
      for (int step = 0; step < spec.steps; ++step) {
        size_t next_bucket = 0;
        bool waited = false;
        for (size_t i = 0; i < plan.calls.size(); ++i) {
          const auto& call = plan.calls[i];
          if (call.stage == perf::Stage::update && !waited) {
            step_reduced[w]->acquire();
            waited = true;
          }
          simgrid::s4u::this_actor::execute(call.answer.seconds * platform::kOpsPerSecond);
          while (next_bucket < buckets.size() && buckets[next_bucket].ready_after == i)
            bucket_ready[next_bucket++]->release();
        }
        if (!waited) step_reduced[w]->acquire();
      }
    });
  }
  simgrid::s4u::Actor::create("communicator", cluster.host(0), [&] {
    for (int step = 0; step < spec.steps; ++step) {
      for (size_t b = 0; b < buckets.size(); ++b) {
        for (size_t w = 0; w < ring.size(); ++w) bucket_ready[b]->acquire();
        ring_allreduce(ring, buckets[b].bytes);
      }
      for (auto& s : step_reduced) s->release();
    }
  });
  engine->run();
  result.step_time_s = simgrid::s4u::Engine::get_clock() / spec.steps;
  for (const auto& call : plan.calls)
    (call.stage == perf::Stage::forward    ? result.forward_s
     : call.stage == perf::Stage::backward ? result.backward_s
                                            : result.update_s) += call.answer.seconds;
  result.exposed_communication_s =
      std::max(0.0, result.step_time_s - result.forward_s - result.backward_s - result.update_s);
  return result;
}

}  // namespace dlsim::train
