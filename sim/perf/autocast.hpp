#pragma once
// Mixed precision as PyTorch's autocast runs it (scenario precision "amp"): the weights
// stay fp32 and each step casts them to fp16 as a convolution or fully connected layer
// first uses them (autocast caches a cast for the rest of its region, one forward pass),
// and the fp32 input batch is cast once before the first layer.  Each cast is a kernel of
// its own: it reads fp32 and writes fp16, and on a small batch its launch costs the host
// as much as any layer's (NVIDIA's ResNet-50 at batch 1 on a V100: 12.8 ms a pass with
// AMP against 10.4 in fp32).  Pure fp16 ("fp16", a model converted with .half()) has none.
#include "graph/graph.hpp"
#include "perf/kernel_times.hpp"
#include "perf/step_plan.hpp"

namespace dlsim::perf {

// "cast fp16 n<count> e<elements>": <count> tensors of <elements> fp32 values cast to fp16.
std::string cast_signature(int64_t count, int64_t elements);

// Inserts into a GPU plan's forward stage the casts autocast launches: the input batch's
// before the first layer, and each convolution's and fully connected layer's weight (and
// bias) before the layer's forward call.
void add_autocast_casts(StepPlan& plan, const graph::Graph& graph, int64_t batch, const KernelTimes& times);

}  // namespace dlsim::perf
