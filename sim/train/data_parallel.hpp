#pragma once
// Data-parallel training on several GPUs with all-reduce (PyTorch DDP, Horovod): every GPU
// runs the step's kernels; as backward completes each gradient bucket, the bucket is
// all-reduced (collectives.hpp: a ring of all GPUs node by node, hierarchical, or a tree)
// while backward goes on; the optimizer update waits for the last bucket.  Buckets are
// reduced one after another, as NCCL's one communication stream does.
#include <vector>

#include "perf/buckets.hpp"
#include "perf/step_plan.hpp"
#include "platform/cluster.hpp"
#include "train/collectives.hpp"
#include "train/input_pipeline.hpp"
#include "train/single_device.hpp"

namespace dlsim::train {

struct DataParallelSpec {
  platform::ClusterSpec cluster;
  int gpus = 1;   // the first `gpus` GPUs of the cluster, node by node
  int steps = 3;
  Allreduce allreduce = Allreduce::ring;
  bool trace = false;  // keep the last step's events (trace.hpp)
  InputPipeline input;
  bool rank_order_rings = false;  // NCCL 1.x: one ring in rank order, not rings along NVLink (rings.hpp)
};

// Simulates in this process's SimGrid engine (created here).  The step time is the steady
// state, from the end of the first step to the end of the last.
TrainingResult simulate_allreduce_training(const perf::StepPlan& plan, const std::vector<perf::GradientBucket>& buckets,
                                           const DataParallelSpec& spec);

}  // namespace dlsim::train
