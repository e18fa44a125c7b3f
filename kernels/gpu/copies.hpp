#pragma once
// Memory copies, "memcpy u8 b<bytes>", phases h2d_pinned, d2h_pinned, h2d_pageable,
// d2h_pageable and d2d: what moving a batch in, a result out, or a tensor within the GPU
// costs.  Pageable copies go through the driver's staging buffers; the host's part of that
// is in their time.

#include <string>
#include <vector>

#include "phase.hpp"

namespace dlsim::kernels::gpu {

// The copy phases, in the order they are measured.
const std::vector<std::string>& copy_phases();

// The sweep --copies runs: every power of two from 4 KiB to 1 GiB.
std::vector<std::string> copy_sweep();

PhaseKernel copy_phase(const Signature& signature, const std::string& phase, const GpuContext& gpu);

}  // namespace dlsim::kernels::gpu
