#pragma once
// A kernel that keeps the stream busy for a while: queued before a timed call, it lets the
// host enqueue the call (cuDNN's host-side work, a loop of launches) while the GPU waits,
// so that the events around the call time the GPU's work and not the host's.

#include <cuda_runtime_api.h>

namespace dlsim::kernels::gpu {

void launch_spin(double seconds, cudaStream_t stream);

}  // namespace dlsim::kernels::gpu
