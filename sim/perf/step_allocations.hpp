#pragma once
// The host allocations of one PyTorch training step (or inference pass) on a CPU, in the
// order autograd makes them, and the pages they fault under glibc's malloc (glibc_heap.hpp).  The step's
// kernels are timed from warm heap memory (kernels/pytorch/torch_op_bench.py), so what
// those timings leave out is every page the step faults: the heap it shrinks and regrows
// and the tensors over the mmap threshold mapped afresh, which depend on the whole sequence:
//   forward   each layer's output; a convolution's oneDNN buffers around it (blocked
//             source, weights and destination, freed once the plain output is written);
//             max pooling's int64 indices and dropout's float mask; a tensor is freed
//             after its last consumer unless backward keeps it (convolution, linear and
//             batch norm keep their input, ReLU its output, max pooling its input);
//             ReLU-like activations and residual additions write in place, flattening
//             is a view
//   backward  in reverse: each layer's input gradient (and the oneDNN buffers of a
//             convolution's), its weight gradients (kept until zero_grad), then the
//             gradient it consumed and the tensors it kept are freed; a tensor with
//             several consumers sums their gradients into a new one
//   update    the optimizer's state on the first step (a momentum buffer, Adam's two
//             moments); Adam's two temporaries per parameter tensor on every step; then
//             zero_grad(set_to_none=True) frees every weight gradient
// The model's weights and the input batch are allocated before the first step.  The
// heap is replayed for a few steps and the last one is reported: the steady state.
// Left out, found by tracing the posix_memalign and free calls of PyTorch's GoogLeNet pass
// at batch 8 on the Zen 5 VM (2026-11-28; the model's 612 events of 64 KiB or more then
// matched the trace's one for one): a module's input lives on in its caller's variable
// until the module returns (`x = self.block(x)`), not only until its last consumer; a
// list of branch outputs is let go last item first; and oneDNN's blocked buffers round
// channels up to its block (16 with AVX-512: a 24-channel output is written as 32).
// With the first two, ResNet-34's pass at batch 8 faulted no pages where its processes
// faulted 17,216-25,692 (12,517 without), and its blind serving campaign on that VM went
// from 14.6% to 32.9% MAPE: while the heap's state before the passes is unknown
// (glibc_heap.hpp), a truer sequence alone does not give truer faults.
#include <cstdint>
#include <string>
#include <vector>

#include "graph/cost.hpp"
#include "graph/graph.hpp"

namespace dlsim::perf {

// The page price is timed as "first_touch fp32 n<pages> e1024" (4 KiB pages of fp32),
// phases "fresh" and "warm" (kernels/pytorch/torch_op_bench.py, kernels/cpu/loops.hpp);
// calibrations time this many pages, 128 MiB, above any mmap threshold.  Phase "in_pass"
// is those pages' price inside real passes, heap trimmed against heap kept
// (kernels/pytorch/page_price.py): more than fresh less warm, by the caches the kernel's
// zeroing takes from the pass.
inline constexpr const char* kFirstTouchOp = "first_touch";
inline constexpr const char* kInPassPagePhase = "in_pass";
inline constexpr int64_t kFirstTouchPages = 32768;
std::string first_touch_signature(int64_t pages);

struct StepPageFaults {
  int64_t forward = 0;
  int64_t backward = 0;
  int64_t update = 0;
  int64_t total() const { return forward + backward + update; }
};

// The model's parameter tensors in model order (fp32): each node's weight, and its other
// parameters (a bias, batch norm's scale and shift) as one tensor.
std::vector<int64_t> parameter_tensor_bytes(const graph::Graph& graph);

// The pages one inference forward pass (eval mode, no_grad) faults in its steady state:
// each output is freed after its last consumer, nothing is kept for a backward pass,
// dropout hands its input on, max pooling's indices are let go at once, auxiliary heads
// do not run.  The process is taken to run inference alone, as a server does, so the heap
// starts empty: a process that trained first carries a grown heap and higher thresholds.
int64_t inference_page_faults(const graph::Graph& graph, int64_t batch, graph::DataType type = graph::DataType::fp32);

// What a pass really faults is the model's count times a factor the heap's state decides.
// Served PyTorch passes on one thread, counted on their request thread in every CPU serving
// campaign of the Zen 3, Zen 4 and Zen 5 VMs (validation/data/serving_latencies_devbox_*
// .jsonl): of the 298 deployments whose pass the model gives at least 1,000 pages (ten
// networks at batches 1-32), the served count over the model's was P10 0, P25 0.50,
// median 0.76, P75 1.41, P90 1.50, at most 2.58; the 143 the model gives fewer faulted
// none.  Of 16 more measured after this was set (Inception-v3 and VGG-16 on the Zen 5 VM,
// 2026-11-28 13:41), 10 fell inside it (VGG-16 at batch 1: 1.7-2.0 times); with them the
// tenths are the same.  By 2026-11-29 21:52 (604 and 187 deployments) the tenths were still
// 0 and 1.50, and the small passes that faulted were ShuffleNetV2's alone, on the Zen 3 VM:
// x1.0 at batch 1 850-1,458 pages where the model counts none, x0.5 at batch 1 757-850
// against 538 and at batch 8 7,024 against none (the calling thread's 3,202 on two
// threads): not yet traced.  Not the thread count: on a process's first thread
// (validation/data/pass_faults_devbox_milan_0054.csv) x1.0 at batch 8 faulted 9,801 on one
// thread and about 6,500 on two against the model's 4,664, at batch 1 1,396 and about 400
// against none.  Nor, alone, the copies the sequence leaves out: at batch 8 ATen copies
// each unit's split half before its first convolution (torch.profiler: 13 contiguous()
// copies a pass beside the 16 shuffles'), and with them the model still counts 4,664
// (tried, 2026-11-30: they fit its holes).  (MobileNetV3-Small at batch 1, first served on
// 2026-11-30, faulted none to 1,186 pages by stack against the model's 501: a small pass
// the model does count.  RegNetY-3.2GF's at batch 1, first served on 2026-12-01, faulted
// 1,979-4,613 pages on the Granite Rapids VM where the model counts none.)  A deployment
// tends to repeat its count from campaign to campaign and another deployment of the same
// pass does not (ResNet-18 at batch 8: 3 pages in process in most campaigns, 6,273-12,546
// over gRPC), since each stack leaves its request thread's arena otherwise.  The prediction
// keeps the model's count; its band spans the tenths, and a scenario may price either
// (system.heap_state).
struct PageFaultSpread {
  double p10 = 0;  // times the model's pages
  double p90 = 0;
};
inline constexpr PageFaultSpread kServedPassFaultSpread{0.0, 1.5};

// One event of the heap as the passes above replay it: an allocation of `bytes` (its id
// the order it was made in), the free of allocation `id`, or the end of a stretch (the
// weights and input batch, then each pass).
struct HeapEvent {
  enum class Kind { allocate, free, pass_end };
  Kind kind = Kind::allocate;
  int64_t id = 0;
  int64_t bytes = 0;
};
// inference_page_faults' heap events: the weights and the input batch, then its passes.
std::vector<HeapEvent> inference_heap_events(const graph::Graph& graph, int64_t batch,
                                             graph::DataType type = graph::DataType::fp32);

// optimizer: "sgd", "sgd_momentum" or "adam".
StepPageFaults training_page_faults(const graph::Graph& graph, int64_t batch, const std::string& optimizer,
                                    graph::DataType type = graph::DataType::fp32);

}  // namespace dlsim::perf
