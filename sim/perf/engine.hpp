#pragma once
// An optimised inference engine (TensorRT, which Triton serves) runs fewer kernels than the
// framework that trained the network: with the weights frozen it folds batch normalisation
// into the preceding convolution's weights and bias, and runs the element-wise work that
// follows a convolution or a fully connected layer (activation, residual addition) in that
// kernel's epilogue, as it writes its output.  What it cannot fuse (pooling, softmax, a
// concatenation) it runs as the framework does.
#include "graph/graph.hpp"
#include "perf/step_plan.hpp"

namespace dlsim::perf {

// Whether an engine folds `node` into the convolution or GEMM that produces its (first)
// input, directly or through other fused nodes.
bool fused_by_engine(const graph::Graph& graph, const graph::Node& node);

// Drops from an inference plan the calls of every layer the engine fuses.
void fuse_for_engine(StepPlan& plan, const graph::Graph& graph);

}  // namespace dlsim::perf
