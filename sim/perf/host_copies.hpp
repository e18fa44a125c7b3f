#pragma once
// An application that hands a GPU model a batch from its own memory (study A's in-process
// deployment, an in-process server, a Python server's handler): the input is copied to the
// device before the forward pass and the answer back after it, both from ordinary pageable
// host memory, as PyTorch's tensor.to(device) and .cpu() (and TensorFlow's feed and fetch)
// copy.  Each copy holds the
// pass's stream like a kernel.  Priced from the GPU profile's timed copies
// ("memcpy u8 b<bytes>", phases h2d_pageable and d2h_pageable, dlsim-gpu-bench --copies)
// where it has them: on the H200's host a pageable copy of 0.5-16 MiB moved 8-14 GB/s,
// a fifth of its PCIe 5 link.  A profile without them prices the bytes over the catalog's
// host link, as a fallback.
#include "perf/kernel_times.hpp"
#include "perf/step_plan.hpp"

namespace dlsim::perf {

// "memcpy u8 b<bytes>", the copy's signature as dlsim-gpu-bench names it.
std::string copy_signature(double bytes);

// Adds the input's copy before the plan's first call and the answer's after its last.
void add_host_copies(StepPlan& plan, double input_bytes, double output_bytes, const KernelTimes& times,
                     double link_bytes_per_s);

}  // namespace dlsim::perf
