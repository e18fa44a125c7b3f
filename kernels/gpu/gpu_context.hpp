#pragma once
// What every benchmark case shares: one stream, the cuDNN and cuBLASLt handles bound to it
// (created once: a cuDNN handle takes a good fraction of a second) and the run's options.

#include <cstddef>

#include <cublasLt.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

namespace dlsim::kernels::gpu {

struct Options {
  size_t workspace_limit = size_t{1} << 30;  // bytes an algorithm may use, as frameworks cap it
  bool training = true;
  bool channels_last = false;  // fp16 tensors in NHWC (cudnn_descriptors.hpp)
  int warmup = 3;      // untimed calls before the timed ones (lazy loading, caches, clocks)
  int iterations = 5;  // timed calls per repetition (one benchmark row)
};

class GpuContext {
 public:
  explicit GpuContext(const Options& options);
  GpuContext(const GpuContext&) = delete;
  GpuContext& operator=(const GpuContext&) = delete;
  ~GpuContext();

  const Options options;
  cudaStream_t stream = nullptr;
  cudnnHandle_t cudnn = nullptr;
  cublasLtHandle_t lt = nullptr;
};

}  // namespace dlsim::kernels::gpu
