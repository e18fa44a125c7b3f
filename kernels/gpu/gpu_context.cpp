#include "gpu_context.hpp"

#include "check.hpp"
#include "cudnn_descriptors.hpp"

namespace dlsim::kernels::gpu {

GpuContext::GpuContext(const Options& o) : options(o) {
  set_fp16_channels_last(o.channels_last);
  check(cudaSetDevice(0), "cudaSetDevice");
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  check(cudnnCreate(&cudnn), "cudnnCreate");
  check(cudnnSetStream(cudnn, stream), "cudnnSetStream");
  check(cublasLtCreate(&lt), "cublasLtCreate");
}

GpuContext::~GpuContext() {
  cublasLtDestroy(lt);
  cudnnDestroy(cudnn);
  cudaStreamDestroy(stream);
}

}  // namespace dlsim::kernels::gpu
