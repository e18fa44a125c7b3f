#include "copies.hpp"

#include <memory>
#include <stdexcept>

#include "buffers.hpp"
#include "check.hpp"

namespace dlsim::kernels::gpu {
namespace {

struct Copy {
  DeviceBuffer device, other_device;
  std::unique_ptr<PinnedBuffer> pinned;
  std::vector<unsigned char> pageable;
  void* dst = nullptr;
  const void* src = nullptr;
  cudaMemcpyKind kind = cudaMemcpyDefault;
};

}  // namespace

const std::vector<std::string>& copy_phases() {
  static const std::vector<std::string> phases{"h2d_pinned", "d2h_pinned", "h2d_pageable", "d2h_pageable", "d2d"};
  return phases;
}

std::vector<std::string> copy_sweep() {
  std::vector<std::string> out;
  for (size_t bytes = size_t{4} << 10; bytes <= size_t{1} << 30; bytes *= 2) out.push_back("memcpy u8 b" + std::to_string(bytes));
  return out;
}

PhaseKernel copy_phase(const Signature& sig, const std::string& phase, const GpuContext& gpu) {
  if (sig.dtype != "u8") throw std::invalid_argument("memcpy signature '" + sig.text + "' must count bytes (u8)");
  const int64_t b = sig.get("b");
  if (b <= 0) throw std::invalid_argument("memcpy signature '" + sig.text + "' copies no bytes");
  const auto bytes = static_cast<size_t>(b);
  auto c = std::make_shared<Copy>();
  c->device = DeviceBuffer(bytes);
  check(cudaMemsetAsync(c->device.get(), 1, bytes, gpu.stream), "cudaMemsetAsync");
  void* host = nullptr;
  PhaseKernel k;
  if (phase == "d2d") {
    c->other_device = DeviceBuffer(bytes);
    c->src = c->device.get(), c->dst = c->other_device.get(), c->kind = cudaMemcpyDeviceToDevice;
  } else {
    if (phase.find("pinned") != std::string::npos) {
      c->pinned = std::make_unique<PinnedBuffer>(bytes);
      host = c->pinned->get();
    } else {
      c->pageable.assign(bytes, 1);  // written, so that no page is first touched while timed
      host = c->pageable.data();
      k.host_work = true;
    }
    const bool to_device = phase.rfind("h2d", 0) == 0;
    c->src = to_device ? host : c->device.get();
    c->dst = to_device ? c->device.get() : host;
    c->kind = to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  }
  const cudaStream_t stream = gpu.stream;
  k.launch = [c, bytes, stream] { check(cudaMemcpyAsync(c->dst, c->src, bytes, c->kind, stream), "cudaMemcpyAsync"); };
  return k;
}

}  // namespace dlsim::kernels::gpu
