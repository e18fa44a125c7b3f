#include "train/data_parallel.hpp"

#include <algorithm>

#include <simgrid/s4u.hpp>

#include "platform/engine.hpp"
#include "platform/network_model.hpp"
#include "platform/single_host.hpp"
#include "train/collectives.hpp"

namespace dlsim::train {

using simgrid::s4u::Semaphore;
using simgrid::s4u::SemaphorePtr;

namespace {

// A GPU runs its kernels one after another, so what happens between two points where it
// must tell or wait for the communicator is one execution: the kernels up to a bucket's
// last gradient, and the update after the last bucket is reduced.  Exact, and it keeps a
// 1,024-GPU step to a few thousand executions.
struct Segment {
  double seconds = 0;
  int buckets_ready = 0;      // buckets whose gradients exist at its end
  bool waits_for_reduction = false;  // starts only when the step's buckets are reduced (the update)
};

std::vector<Segment> segments(const perf::StepPlan& plan, const std::vector<perf::GradientBucket>& buckets) {
  std::vector<Segment> out(1);
  size_t next_bucket = 0;
  for (size_t i = 0; i < plan.calls.size(); ++i) {
    if (plan.calls[i].stage == perf::Stage::update && !out.back().waits_for_reduction) {
      out.push_back({});
      out.back().waits_for_reduction = true;
    }
    out.back().seconds += plan.calls[i].answer.seconds;
    int ready = 0;
    while (next_bucket < buckets.size() && buckets[next_bucket].ready_after == i) ++ready, ++next_bucket;
    if (ready > 0) {
      out.back().buckets_ready = ready;
      out.push_back({});
    }
  }
  if (std::none_of(out.begin(), out.end(), [](const Segment& s) { return s.waits_for_reduction; }))
    out.push_back({0, 0, true});
  return out;
}

}  // namespace

TrainingResult simulate_allreduce_training(const perf::StepPlan& plan, const std::vector<perf::GradientBucket>& buckets,
                                           const DataParallelSpec& spec) {
  auto engine = platform::make_engine();
  platform::apply(platform::NetworkModelConfig{});
  platform::Cluster cluster(spec.cluster);
  Hosts gpus;
  std::vector<Hosts> nodes;
  for (int g = 0; g < spec.gpus; ++g) {
    gpus.push_back(cluster.gpu(g));
    if (g % spec.cluster.gpus_per_node == 0) nodes.emplace_back();
    nodes.back().push_back(cluster.gpu(g));
  }
  const AllreducePlan allreduce(spec.allreduce, nodes);
  for (auto [a, b] : allreduce.routes()) cluster.connect(a, b);
  cluster.seal();

  // Workers signal each bucket's gradients; the communicator signals each worker when the
  // step's last bucket is reduced.
  std::vector<SemaphorePtr> bucket_ready, step_reduced;
  for (size_t b = 0; b < buckets.size(); ++b) bucket_ready.push_back(Semaphore::create(0));
  for (size_t w = 0; w < gpus.size(); ++w) step_reduced.push_back(Semaphore::create(0));

  TrainingResult result;
  result.steps = spec.steps;
  result.devices = spec.gpus;
  for (const auto& b : buckets) result.communicated_bytes += b.bytes;
  const std::vector<Segment> work = segments(plan, buckets);
  for (size_t w = 0; w < gpus.size(); ++w) {
    simgrid::s4u::Actor::create("worker" + std::to_string(w), gpus[w], [&, w] {
      for (int step = 0; step < spec.steps; ++step) {
        size_t next_bucket = 0;
        for (const auto& segment : work) {
          if (segment.waits_for_reduction) step_reduced[w]->acquire();
          if (segment.seconds > 0) simgrid::s4u::this_actor::execute(segment.seconds * platform::kOpsPerSecond);
          for (int b = 0; b < segment.buckets_ready; ++b) bucket_ready[next_bucket++]->release();
        }
      }
    });
  }
  simgrid::s4u::Actor::create("communicator", cluster.host(0), [&] {
    for (int step = 0; step < spec.steps; ++step) {
      for (size_t b = 0; b < buckets.size(); ++b) {
        for (size_t w = 0; w < gpus.size(); ++w) bucket_ready[b]->acquire();
        allreduce.run(buckets[b].bytes);
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
