#pragma once
// Gradients leave backward in buckets, as data-parallel frameworks send them: PyTorch DDP
// fills buckets of about 25 MB in the order backward produces the gradients (the reverse
// of the layers), and all-reduces a bucket as soon as its last gradient exists, while
// backward goes on; Horovod's fusion buffer does the same with its own size.
#include <string>
#include <vector>

#include "graph/graph.hpp"
#include "perf/step_plan.hpp"

namespace dlsim::perf {

// One layer's gradients: its parameters' fp32 bytes, complete after a call of the plan.
struct Gradient {
  std::string layer;
  double bytes = 0;
  size_t ready_after = 0;
};

// Every layer's gradients, in the order backward completes them.
std::vector<Gradient> gradients(const StepPlan& plan, const graph::Graph& graph);

struct GradientBucket {
  double bytes = 0;        // fp32 gradients of the bucket's parameters
  size_t ready_after = 0;  // index in the plan's calls after which all of them exist
  double not_before_s = 0;  // and not sent before this time from the step's start
};

// Buckets of at least `bucket_bytes` (the last may be smaller), in the order they fill.
std::vector<GradientBucket> gradient_buckets(const StepPlan& plan, const graph::Graph& graph, double bucket_bytes);

// Horovod's tensor fusion: a background cycle every `cycle_s` from the step's start
// all-reduces every gradient that became ready since the last cycle, in fused buffers of at
// most `fusion_bytes` (a larger gradient alone).  Ticks are counted from the step's start.
// A buffer goes after the kernel that is running when its cycle ticks, at most one kernel
// later than Horovod would send it; a tick after backward waits for its time.
std::vector<GradientBucket> cycle_buckets(const StepPlan& plan, const graph::Graph& graph, double cycle_s,
                                          double fusion_bytes);

}  // namespace dlsim::perf
