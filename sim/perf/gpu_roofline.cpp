#include "perf/gpu_roofline.hpp"

#include <cmath>

#include "perf/features.hpp"

namespace dlsim::perf {
namespace {

constexpr double kThreadsPerBlock = 256;
// Every NVIDIA GPU since Kepler holds 2048 resident threads per SM.
constexpr double kThreadsPerSm = 2048;

}  // namespace

double peak_flops(const GpuRates& gpu, const std::string& dtype) {
  if (dtype == "tf32" && gpu.tf32_tensor_flops > 0) return gpu.tf32_tensor_flops;
  if (dtype == "fp16" || dtype == "bf16") {
    if (gpu.fp16_tensor_flops > 0) return gpu.fp16_tensor_flops;
    if (gpu.fp16_flops > gpu.fp32_flops) return gpu.fp16_flops;
  }
  return gpu.fp32_flops;
}

double thread_blocks(const kernels::Signature& s, const std::string& phase) {
  if (s.op == "conv2d" || s.op == "linear") return 0;
  const double outputs = elements_written(s);
  if (!is_pool(s.op)) return std::ceil(outputs / kThreadsPerBlock);
  const double planes = double(s.get("n")) * double(s.get("c"));
  if (phase == "bwd_data")  // the input's gradient, a thread per pixel
    return std::ceil(planes * double(s.get("h")) * double(s.get("w")) / kThreadsPerBlock);
  const bool reduces_each_plane = outputs == planes && !s.fields.count("r");  // a block per plane
  return reduces_each_plane ? planes : std::ceil(outputs / kThreadsPerBlock);
}

Roofline gpu_roofline(const kernels::Signature& s, const std::string& phase, const GpuRates& gpu) {
  const Features f = kernel_features(s, phase);
  Roofline r;
  r.compute_s = f.flops / peak_flops(gpu, s.dtype);
  const double blocks = thread_blocks(s, phase);
  const bool streams = blocks > 0 && gpu.stream_bandwidth_Bps > 0;
  r.memory_s = f.bytes / (streams ? gpu.stream_bandwidth_Bps : gpu.bandwidth_Bps);
  if (blocks > 0) {
    const double waves = blocks / (gpu.sm_count * kThreadsPerSm / kThreadsPerBlock);
    const double quantized = std::ceil(waves) / waves;
    r.compute_s *= quantized;
    r.memory_s *= quantized;
  }
  return r;
}

double carry_factor(const kernels::Signature& s, const std::string& phase, const GpuRates& from, const GpuRates& to) {
  return gpu_roofline(s, phase, to).seconds() / gpu_roofline(s, phase, from).seconds();
}

}  // namespace dlsim::perf
