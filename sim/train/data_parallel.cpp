#include "train/data_parallel.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <simgrid/s4u.hpp>

#include "core/units.hpp"

#include "platform/engine.hpp"
#include "platform/network_model.hpp"
#include "platform/single_host.hpp"
#include "train/collectives.hpp"
#include "train/input_feed.hpp"
#include "train/rings.hpp"

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
  size_t first = 0, end = 0;  // the plan's calls it runs
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
      out.back().first = i;
    }
    out.back().seconds += plan.calls[i].device_seconds();
    out.back().end = i + 1;
    int ready = 0;
    while (next_bucket < buckets.size() && buckets[next_bucket].ready_after == i) ++ready, ++next_bucket;
    if (ready > 0) {
      out.back().buckets_ready = ready;
      out.push_back({});
      out.back().first = out.back().end = i + 1;
    }
  }
  if (std::none_of(out.begin(), out.end(), [](const Segment& s) { return s.waits_for_reduction; }))
    out.push_back({0, plan.calls.size(), plan.calls.size(), 0, true});
  return out;
}

// The rings inside a node: along its NVLink mesh where it has one and every node takes
// part whole or alone, else none (rank order).
std::vector<Ring> node_rings(const DataParallelSpec& spec) {
  const int per_node = std::min(spec.gpus, spec.cluster.gpus_per_node);
  if (spec.rank_order_rings || spec.cluster.nvlink_pairs.empty() || spec.gpus % per_node != 0) return {};
  return nvlink_rings(per_node, spec.cluster.nvlink_pairs);
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
  const std::vector<Ring> rings = node_rings(spec);
  const AllreducePlan allreduce(spec.allreduce, nodes, rings);
  for (auto [a, b] : allreduce.routes()) cluster.connect(a, b);
  InputFeed input(spec.input, cluster, gpus, spec.steps);
  cluster.seal();

  // Workers signal each bucket's gradients; the communicator signals each worker when the
  // step's last bucket is reduced.
  std::vector<SemaphorePtr> bucket_ready, step_reduced;
  for (size_t b = 0; b < buckets.size(); ++b) bucket_ready.push_back(Semaphore::create(0));
  for (size_t w = 0; w < gpus.size(); ++w) step_reduced.push_back(Semaphore::create(0));
  std::vector<double> stalled(gpus.size(), 0.0);  // over the steps after the first
  std::vector<double> step_end;                   // GPU 0's; the others end with it

  TrainingResult result;
  result.trace.on = spec.trace;
  result.steps = spec.steps;
  result.devices = spec.gpus;
  result.rings = std::max<int>(1, static_cast<int>(rings.size()));
  for (const auto& b : buckets) result.communicated_bytes += b.bytes;
  const std::vector<Segment> work = segments(plan, buckets);
  for (size_t w = 0; w < gpus.size(); ++w) {
    simgrid::s4u::Actor::create("worker" + std::to_string(w), gpus[w], [&, w] {
      for (int step = 0; step < spec.steps; ++step) {
        size_t next_bucket = 0;
        const bool traced = step + 1 == spec.steps && w < kMaxTracedDevices;
        if (!input.synthetic()) {  // take a prepared batch and copy it in
          const double waiting = platform::now();
          input.take(w);
          if (step > 0) stalled[w] += platform::now() - waiting;
          if (traced) result.trace.add("gpu" + std::to_string(w) + " input", "wait for batch, copy in", waiting,
                                       platform::now() - waiting);
        }
        const double step_start = platform::now();
        for (const auto& segment : work) {
          if (segment.waits_for_reduction) step_reduced[w]->acquire();
          if (traced) result.trace.kernels("gpu" + std::to_string(w), plan, segment.first, segment.end, platform::now());
          if (segment.seconds > 0) simgrid::s4u::this_actor::execute(segment.seconds * platform::kOpsPerSecond);
          for (int b = 0; b < segment.buckets_ready; ++b) {
            // Only a bucket whose cycle ticks after backward waits; nothing runs meanwhile.
            simgrid::s4u::this_actor::sleep_until(step_start + buckets[next_bucket].not_before_s);
            bucket_ready[next_bucket++]->release();
          }
        }
        if (w == 0) step_end.push_back(platform::now());
      }
    });
  }
  input.start();
  simgrid::s4u::Actor::create("communicator", cluster.host(0), [&] {
    for (int step = 0; step < spec.steps; ++step) {
      for (size_t b = 0; b < buckets.size(); ++b) {
        for (size_t w = 0; w < gpus.size(); ++w) bucket_ready[b]->acquire();
        const double start = platform::now();
        allreduce.run(buckets[b].bytes);
        if (step + 1 == spec.steps)
          result.trace.add("all-reduce", fmt::format("bucket {} ({})", b, format_bytes(buckets[b].bytes)), start,
                           platform::now() - start);
      }
      for (auto& s : step_reduced) s->release();
    }
  });
  engine->run();
  result.links = cluster.busiest_links();
  // The steady state: from the end of the first step (which waited for the first batch)
  // to the end of the last.
  result.step_time_s = spec.steps > 1 ? (step_end.back() - step_end.front()) / (spec.steps - 1) : step_end.back();
  for (const auto& call : plan.calls) {
    (call.stage == perf::Stage::forward    ? result.forward_s
     : call.stage == perf::Stage::backward ? result.backward_s
                                            : result.update_s) += call.answer.seconds;
    result.launch_wait_s += call.launch_wait_s;
  }
  if (spec.steps > 1)
    for (double s : stalled) result.input_stall_s += s / (spec.steps - 1) / static_cast<double>(gpus.size());
  result.exposed_communication_s =
      std::max(0.0, result.step_time_s - result.forward_s - result.backward_s - result.update_s -
                        result.launch_wait_s - result.input_stall_s);
  return result;
}

}  // namespace dlsim::train
