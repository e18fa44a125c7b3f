#include "spin.hpp"

#include "check.hpp"

namespace dlsim::kernels::gpu {
namespace {

// The global timer counts nanoseconds whatever the SM clock does.
__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin(unsigned long long ns) {
  const unsigned long long start = now_ns();
  while (now_ns() - start < ns) {
  }
}

}  // namespace

void launch_spin(double seconds, cudaStream_t stream) {
  spin<<<1, 1, 0, stream>>>(static_cast<unsigned long long>(seconds * 1e9));
  check(cudaGetLastError(), "spin kernel launch");
}

}  // namespace dlsim::kernels::gpu
