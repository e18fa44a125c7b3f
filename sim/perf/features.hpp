#pragma once
// What a kernel does, read from its signature alone, so that a fitted model can price a
// signature nobody measured: the arithmetic (a multiply-add counts 2 FLOPs) and the bytes
// it must move at least once, per phase.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "signature.hpp"

namespace dlsim::perf {

struct Features {
  double flops = 0;
  double bytes = 0;
  // Optimizers: parameter tensors stepped one by one.  PyTorch's concatenations on more
  // than one thread (pytorch_parallel_copies): inputs copied each in a parallel region of
  // its own, every one waking the team where other teams keep the cores.
  double tensors = 0;
  // PyTorch's element-wise operators, global average pooling and convolutions on more than
  // one thread: 1 where the operator runs in a parallel region (pytorch_runs_in_parallel), 0
  // where its caller runs it alone; 0 for every kernel its caller did not say PyTorch
  // dispatched.
  double parallel = 0;
  // Convolutions: the part of `flops` in a 3x3, stride-1, undilated, ungrouped kernel,
  // which GPU libraries run by Winograd's algorithm at a fraction of its nominal FLOPs
  // (cuDNN's WINOGRAD algorithms, forward and both backward phases); 0 for the rest.
  double winograd_flops = 0;
  // Convolutions: how many multiply-adds each output of the phase's GEMM sums (forward
  // C/g x R x S, backward data K/g x R x S, backward weights N x OH x OW).  A GPU computes
  // the output in tiles, a wave of tiles at a time over its multiprocessors, and a tile
  // takes time in proportion to this length, so a kernel too small to fill the GPU still
  // costs one wave: on a P100, DeepBench's 3x3 convolution of 512 channels at 7x7 takes
  // 0.45 ms forward at batch 8 and 0.53 at 16, 0.37 ms of it at any batch.
  double reduction = 0;
  // Messages (transfers): the bytes of one so large that glibc's malloc maps its buffer
  // afresh every time (at least its largest mmap threshold, 32 MiB), faulting every page:
  // a protocol stack's cost per byte doubles or triples there (64 MiB payloads against
  // 1-16 MiB ones, every stack calibrated in calibration/profiles/protocols/).
  double mapped_bytes = 0;
  // Convolutions PyTorch's CPU build runs itself rather than in oneDNN
  // (pytorch_runs_natively): all their FLOPs; 0 for the rest, and for every kernel its
  // caller did not say PyTorch dispatched.
  double native_flops = 0;
  // Linear layers: all their FLOPs where the weights exceed kCachedWeightBytes, 0 below.
  // A reference BLAS's GEMM (Debian's PyTorch calls one) reads the whole weight matrix once
  // for every sample; weights that no cache keeps come from memory again each time.  On
  // both Intel VMs it ran 16 MB of weights at its compute rate (3.0-3.9 GFLOP/s) and 67 or
  // 411 MB at 1.2-1.7 GFLOP/s at any batch; the AMD VMs ran every size at one rate.
  double streamed_flops = 0;
  // Those layers' weights, which their streamed FLOPs price as read for every sample: not
  // also a cost the batch shares ("unstreamed_bytes", bytes less these).
  double streamed_bytes = 0;
  // Linear layers: all their FLOPs where the weights exceed kL2WeightBytes, 0 within.  The
  // reference BLAS reads the weights again for every row from a core's L2 while they fit:
  // on the Granite Rapids VM (2026-12-01 19:20) layers of 1,024 rows ran 5.1-6.1 GFLOP/s
  // with up to 1 MB of weights and 3.8-4.4 from 2.4 MB, and ConvNeXt-T's first stages
  // (0.15-0.6 MB) 1.35-1.4 times the rate of its last (2.4-9.4 MB).  A cost of their own
  // (non-negative, as every fitted cost is) on top of every FLOP's.
  double beyond_l2_flops = 0;
};

// The weights a linear layer's GEMM reads again for each sample from cache up to this size
// (both Intel VMs: 16.4 MB at the compute rate, 67.1 MB not; the geometric middle).
inline constexpr double kCachedWeightBytes = double(int64_t{32} << 20);
// The weights a linear layer's GEMM reads again for each row from a core's L2, up to this
// size: 2 MB of L2 a core on the Intel VMs, 1 MB on Zen 4 and Zen 5 (512 KB on Zen 3, where
// weights of 0.5-1 MB count as held but are not).
inline constexpr double kL2WeightBytes = double(int64_t{1} << 20);
// A fit tells FLOPs with weights in the L2 from those beyond only where it has timed a layer
// of weights in the L2 doing this many (calibration/grids.sh's position_linears); a
// calibration of classifiers alone, whose small layers do a few million, prices every FLOP
// alike.
inline constexpr double kL2FlopsToLearnFrom = 1e8;

// Whether PyTorch's CPU build (1.13, ATen's ConvParams::use_mkldnn) runs an fp32
// convolution itself, as im2col and the system BLAS's GEMM, rather than in oneDNN: a 1x1,
// unstrided, undilated kernel at a batch under 16 on one thread, and an ungrouped kernel
// no wider than 3 in one direction at batch 1 whose input holds at most 20,480 values.
// Debian's build calls the reference BLAS, serial, at 5-6 GFLOP/s on a Genoa core; oneDNN
// ran the same 1x1 convolutions at 90-160 GFLOP/s on two (MobileNetV2's, batch 1).
bool pytorch_runs_natively(const kernels::Signature& conv, int threads);
// The rule's thresholds, which a oneDNN profile's framework rules start from too
// (FrameworkRules in profile.hpp).
inline constexpr int kPointwiseNativeBelowBatch = 16;
inline constexpr int kPointwiseNativeMaxThreads = 1;
inline constexpr int64_t kNativeMaxInputValues = 20480;

// PyTorch 1.13's at::internal::GRAIN_SIZE: a loop over fewer elements runs on its caller
// alone, without the team.
inline constexpr int64_t kPytorchGrainSize = 32768;

// How many inputs of a concatenation PyTorch (1.13, cat_out_cpu) copies in a parallel region
// each on `threads` threads: on one thread, or into an output under the grain, it copies
// them all serially in one loop; otherwise each input goes through a copy of its own,
// parallel where that input reaches the grain.  On the Granite Rapids VM (2026-11-30, two
// threads on a request thread beside the main thread's team) each such copy cost about
// 100 us more than on the main thread: 2 inputs of 256x14x14 231 us, 8 of 32x28x28 (each
// under the grain) 93 us.
int64_t pytorch_parallel_copies(const kernels::Signature& concat, int threads);

// Whether PyTorch (1.13) runs an element-wise operator (an activation, an addition, a
// product, a channel shuffle's copy) or a global average pooling (a mean over the pixels)
// in a parallel region on `threads` threads: TensorIterator splits a loop over more values
// than the grain (the output's, the pooling's input) among the team, and runs a smaller
// one on its caller alone.  Beside another team a parallel region wakes its own: on the
// Granite Rapids VM (2026-11-30, two threads, inside passes on a request thread) a ReLU of
// 19,796 values took 5 us and one of 32,928 102 us, an addition of 20,776 7.5 us and one
// of 39,592 84.  A convolution oneDNN runs, at any size, opens parallel regions (its
// weights', input's and output's reorders and the convolution); one PyTorch runs itself
// (pytorch_runs_natively) none: on the same VM (2026-12-02 10:42, ShuffleNet V2 x1.0 at
// batch 1 inside passes on a request thread) depthwise 3x3 convolutions took 295-380 us
// where the main thread's team, spinning, took 58-160, a native 1x1 one 358 us on both.
bool pytorch_runs_in_parallel(const kernels::Signature& signature, int threads);

bool is_optimizer(const std::string& op);
bool is_pool(const std::string& op);  // windowed, global and adaptive pooling

// The features a fitted model may use: "one", "flops", "bytes", "tensors", "parallel", for
// convolutions "direct_flops" (flops - winograd_flops - native_flops), "winograd_flops",
// "native_flops" and "reduction", for messages "mapped_bytes", for linear layers
// "streamed_flops", "unstreamed_bytes" and "beyond_l2_flops".
bool is_feature(const std::string& name);
std::string feature_names();  // for messages

// The phase a profile times an operator in as a server's request thread calls it, not the
// process's main thread: libgomp then starts a team of threads for every parallel region
// (kernels/pytorch/torch_op_bench.py).
inline constexpr const char* kInferOnRequestThread = "infer_thread";
// The same two, timed inside whole passes of a network rather than each in a loop of its
// own (kernels/pytorch/in_pass.py): weights read cold, inputs as the previous operator
// leaves them.  Where a profile has them, a pass is priced from them.
inline constexpr const char* kInferInPass = "infer_pass";
inline constexpr const char* kInferInPassOnRequestThread = "infer_pass_thread";
// Inside whole passes on two request threads taking turns, a pass each, as a server's
// connections do under its model's lock.  Where a team's idle threads sleep, one request
// thread running pass after pass keeps its team on another core, whose wakes cost most on a
// VM that halts idle vCPUs; threads taking turns often keep it on their own core, where a
// wake is a context switch: on the Granite Rapids VM (2026-12-01, two threads)
// MobileNetV3-Small's batch-1 pass took 30-35 ms on one request thread, 20.8-21.8 taking
// turns and 21.8-24.0 under a real server's lock (larger passes, at batch 8, ran apart:
// validation/data/pass_placement_devbox_granite_0311.jsonl).
inline constexpr const char* kInferInPassTakingTurns = "infer_pass_turns";
// Inside whole passes on a request thread whose team is pinned to the thread's own core,
// one of the two places a pass taking turns settles between (PassThreads::shared_core).
inline constexpr const char* kInferInPassSharedCore = "infer_pass_shared";

// An eval, no-grad forward: "infer", kInferOnRequestThread or any in-pass phase ("fwd"
// is training's).
bool is_inference_phase(const std::string& phase);

// pytorch_threads: the threads PyTorch's CPU build ran the kernel on, where it dispatched
// it (0: a GPU, or oneDNN called directly), which decides native_flops, a concatenation's
// tensors and whether an operator runs in parallel.  Throws std::invalid_argument for an
// operator or phase it does not know.
Features kernel_features(const kernels::Signature& signature, const std::string& phase, int pytorch_threads = 0);

// The features a fitted model of this operator uses: convolutions {"one", "direct_flops",
// "winograd_flops", "bytes", "reduction"} (a per-FLOP cost of their own for the shapes
// Winograd can run, which cost less per nominal FLOP than a 1x1 or 7x1 kernel, and a
// wave's floor in proportion to the reduction), linear layers
// {"one", "flops", "bytes"}, poolings {"one", "flops", "bytes"} (a window's comparisons or
// additions: PyTorch's CPU max pooling takes 1.4-2.5 ns a comparison on the Genoa VM, so a
// stride-1 3x3 window, GoogLeNet's and Inception's, costs four times ResNet's stride-2
// one on the same bytes), messages {"one", "bytes", "mapped_bytes"}, memory-bound
// operators {"one", "bytes"}.  Convolutions PyTorch dispatched (pytorch) add
// "native_flops", a per-FLOP cost of the path it runs itself, and its linear layers
// {"one", "flops", "beyond_l2_flops", "streamed_flops", "unstreamed_bytes"}, the reference BLAS's
// weights read from the L2 or from memory for every sample and not once for the batch; its
// concatenations
// {"one", "bytes", "tensors"}, the inputs it copies in parallel regions of their own; its
// element-wise operators {"one", "bytes", "parallel"} and global average pooling
// {"one", "flops", "bytes", "parallel"}, a parallel region's cost where one runs.
// Profiles fitted before a split keep what they were written with and are read so.
std::vector<std::string> model_features(const std::string& op, bool pytorch = false);

// Elements an element-wise, pooling, normalisation or optimizer kernel writes (its
// launch size); throws std::invalid_argument for convolutions and linear layers.
double elements_written(const kernels::Signature& signature);

// A convolution signature's output height and width.
std::pair<int64_t, int64_t> conv_output_hw(const kernels::Signature& signature);

// Value of one named feature.
double feature_value(const Features& f, const std::string& name);

}  // namespace dlsim::perf
