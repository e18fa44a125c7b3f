#include "device_identity.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include <fstream>

namespace dlsim::kernels {
namespace {

std::string version_string(int v, int major_div, int minor_div) {
  return std::to_string(v / major_div) + "." + std::to_string((v % major_div) / minor_div) + "." +
         std::to_string(v % minor_div);
}

std::string host_cpu() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> device_identity(int device, std::string& why_not) {
  int count = 0;
  if (cudaError_t err = cudaGetDeviceCount(&count); err != cudaSuccess || count == 0) {
    why_not = err != cudaSuccess ? cudaGetErrorString(err) : "no CUDA device";
    return {};
  }
  cudaDeviceProp p{};
  if (cudaError_t err = cudaGetDeviceProperties(&p, device); err != cudaSuccess) {
    why_not = cudaGetErrorString(err);
    return {};
  }
  int driver = 0, runtime = 0, clock_kHz = 0, mem_clock_kHz = 0, bus_width = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  cudaDeviceGetAttribute(&clock_kHz, cudaDevAttrClockRate, device);
  cudaDeviceGetAttribute(&mem_clock_kHz, cudaDevAttrMemoryClockRate, device);
  cudaDeviceGetAttribute(&bus_width, cudaDevAttrGlobalMemoryBusWidth, device);
  int cublas = 0;
  cublasHandle_t handle;
  if (cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS) {
    cublasGetVersion(handle, &cublas);
    cublasDestroy(handle);
  }
  return {
      {"gpu_name", p.name},
      {"gpu_sm_count", std::to_string(p.multiProcessorCount)},
      {"gpu_compute_capability", std::to_string(p.major) + "." + std::to_string(p.minor)},
      {"gpu_clock_kHz", std::to_string(clock_kHz)},
      {"gpu_memory_clock_kHz", std::to_string(mem_clock_kHz)},
      {"gpu_memory_bus_bits", std::to_string(bus_width)},
      {"gpu_memory_bytes", std::to_string(p.totalGlobalMem)},
      {"cuda_driver", version_string(driver, 1000, 10)},
      {"cuda_runtime", version_string(runtime, 1000, 10)},
      {"cudnn", version_string(static_cast<int>(cudnnGetVersion()), 10000, 100)},
      {"cublas", std::to_string(cublas)},
      {"host_cpu", host_cpu()},
  };
}

}  // namespace dlsim::kernels
