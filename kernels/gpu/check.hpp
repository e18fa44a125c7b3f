#pragma once
// Every CUDA, cuDNN and cuBLAS status goes through check(): a failure throws
// std::runtime_error in the library's own words, so that the benchmark row it happens in
// reports it (SkipWithError) and the other rows still run.  (NCCL's is in allreduce.cpp,
// its only user.)

#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

namespace dlsim::kernels::gpu {

void check(cudaError_t status, const char* what);
void check(cudnnStatus_t status, const char* what);
void check(cublasStatus_t status, const char* what);

}  // namespace dlsim::kernels::gpu
