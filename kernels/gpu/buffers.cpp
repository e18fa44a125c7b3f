#include "buffers.hpp"

#include <utility>

#include "check.hpp"
#include "fill.hpp"

namespace dlsim::kernels::gpu {

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
  if (bytes > 0) check(cudaMalloc(&data_, bytes), "cudaMalloc");
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    if (data_) cudaFree(data_);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  if (data_) cudaFree(data_);
}

PinnedBuffer::PinnedBuffer(size_t bytes) { check(cudaMallocHost(&data_, bytes), "cudaMallocHost"); }

PinnedBuffer::~PinnedBuffer() { cudaFreeHost(data_); }

DeviceBuffer filled(size_t count, Precision precision, cudaStream_t stream) {
  DeviceBuffer buffer(count * element_bytes(precision));
  launch_fill_pattern(buffer.get(), count, precision == Precision::fp16, stream);
  return buffer;
}

DeviceBuffer constant(size_t count, float value, cudaStream_t stream) {
  DeviceBuffer buffer(count * sizeof(float));
  launch_fill_constant(buffer.floats(), count, value, stream);
  return buffer;
}

DeviceBuffer largest_buffer(size_t limit) {
  constexpr size_t kSmallest = size_t{1} << 20;
  for (size_t bytes = limit; bytes >= kSmallest; bytes /= 2) {
    try {
      return DeviceBuffer(bytes);
    } catch (const std::exception&) {
      // not this much free: try half
    }
  }
  return DeviceBuffer(0);
}

}  // namespace dlsim::kernels::gpu
