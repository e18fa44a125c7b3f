#pragma once
// A GPU's first-order time for one kernel, and the factor that carries a kernel timed on
// one GPU to another, after Habitat (Yu et al., "Habitat: A Runtime-Based Computational
// Performance Predictor for Deep Neural Network Training", USENIX ATC 2021): a kernel
// bound by memory traffic scales with bandwidth, one bound by arithmetic with the peak of
// its data type, each over whole waves of thread blocks, so that a kernel too small to
// fill a GPU scales with what one wave can do, not with the SM count.
// Waves are counted where the kernel's launch is fixed by its size (element-wise,
// pooling, normalisation, optimizer kernels: one thread per element).  Convolutions and
// GEMMs are not: cuDNN and cuBLAS pick the algorithm and tile per GPU, which is why
// Habitat prices them with learned models rather than wave scaling, and the DeepBench
// check (validation/cases/deepbench_cross_gpu.toml) shows fixed-tile waves make their
// cross-GPU error worse; they scale by the plain roofline.
// Memory traffic: a kernel whose launch its size fixes streams its tensors once through
// DRAM, at the rate a STREAM benchmark sustains (73-94% of the datasheet's peak on the
// catalog's measured GPUs).  A convolution or GEMM reuses its tiles from shared memory and
// L2, and its memory roof stays the peak: carried by the sustained rate instead, DeepBench's
// convolutions moved from a V100 to a T4 (whose rate is an estimate) came out 8 points worse.
#include <string>

#include "signature.hpp"

namespace dlsim::perf {

// The catalog's numbers for one GPU (sim/hardware fills them; perf does not read the catalog).
struct GpuRates {
  std::string name;
  int sm_count = 0;
  double fp32_flops = 0;
  double fp16_flops = 0;         // non-tensor
  double tf32_tensor_flops = 0;  // 0 without TF32 tensor cores
  double fp16_tensor_flops = 0;  // 0 without tensor cores
  double bandwidth_Bps = 0;         // the datasheet's peak
  double stream_bandwidth_Bps = 0;  // what streaming kernels sustain (STREAM); 0: the peak
};

// Peak rate for the data type: tf32 and fp16 use tensor cores where the GPU has them
// (cuDNN and cuBLAS do, with tensor-op math); elsewhere tf32 is fp32 and fp16 the
// non-tensor rate when it is faster than fp32.
double peak_flops(const GpuRates& gpu, const std::string& dtype);

struct Roofline {
  double compute_s = 0;  // FLOPs at peak, rounded up to whole waves of thread blocks
  double memory_s = 0;   // the bytes the kernel must move, at the rate its kind of kernel sustains
  double seconds() const { return compute_s > memory_s ? compute_s : memory_s; }
  bool memory_bound() const { return memory_s >= compute_s; }
};

// Thread blocks of a kernel whose launch its size fixes (256 threads, one element each),
// in a phase; 0 for convolutions and GEMMs, whose library picks its own launch.  A pool
// launches a thread per output, its backward one per input element; a global pool (one
// output per channel) reduces each plane with a block of its own, as PyTorch's adaptive
// average pooling and cuDNN's pooling do, not with one thread: the squeeze of EfficientNet's
// 8x32x112x112 features is 256 blocks, not one.
double thread_blocks(const kernels::Signature& signature, const std::string& phase);

Roofline gpu_roofline(const kernels::Signature& signature, const std::string& phase, const GpuRates& gpu);

// Time on `to` of a kernel that takes one unit of time on `from`.
double carry_factor(const kernels::Signature& signature, const std::string& phase, const GpuRates& from,
                    const GpuRates& to);

}  // namespace dlsim::perf
