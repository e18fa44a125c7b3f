#pragma once
// All-reduce with NCCL across the visible GPUs from one process (ncclCommInitAll), as data
// parallelism sums gradients: "allreduce <dtype> e<elements> g<gpus>", phase nccl.  One GPU
// still runs it (NCCL then copies), so the row exists on every machine.

#include <string>
#include <vector>

#include "phase.hpp"

namespace dlsim::kernels::gpu {

// The sweep --allreduce runs: fp32 buffers of 4 KiB to 1 GiB, by factors of 4, on `gpus`.
std::vector<std::string> allreduce_sweep(int gpus);

PhaseKernel allreduce_phase(const Signature& signature, const GpuContext& gpu);

// "2.28.3"
std::string nccl_version();

}  // namespace dlsim::kernels::gpu
