#include "check.hpp"

#include <cublasLt.h>

#include <stdexcept>
#include <string>

namespace dlsim::kernels::gpu {

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  // Clears the runtime's last error, so that an out-of-memory in one case does not fail the next.
  cudaGetLastError();
  throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

void check(cudnnStatus_t status, const char* what) {
  if (status == CUDNN_STATUS_SUCCESS) return;
  char detail[512] = "";
  cudnnGetLastErrorString(detail, sizeof detail);
  std::string message = std::string(what) + ": " + cudnnGetErrorString(status);
  if (detail[0] != '\0') message += " (" + std::string(detail) + ")";
  throw std::runtime_error(message);
}

void check(cublasStatus_t status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw std::runtime_error(std::string(what) + ": " + cublasLtGetStatusString(status));
}

}  // namespace dlsim::kernels::gpu
