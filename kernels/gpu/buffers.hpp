#pragma once
// Memory owned by one benchmark case and given back when the case ends, so that the next
// case (a larger batch, another network) finds the GPU's memory free.

#include <cstddef>

#include <cuda_runtime_api.h>

#include "precision.hpp"

namespace dlsim::kernels::gpu {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  // Throws (cudaErrorMemoryAllocation) when the GPU has not `bytes` free.
  explicit DeviceBuffer(size_t bytes);
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer();

  void* get() const { return data_; }
  float* floats() const { return static_cast<float*>(data_); }
  size_t bytes() const { return bytes_; }

 private:
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

// Page-locked host memory, which the GPU's copy engines reach directly.
class PinnedBuffer {
 public:
  explicit PinnedBuffer(size_t bytes);
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer();

  void* get() const { return data_; }

 private:
  void* data_ = nullptr;
};

// `count` elements of the precision's storage type, filled with small values.
DeviceBuffer filled(size_t count, Precision precision, cudaStream_t stream);
// `count` floats set to `value`.
DeviceBuffer constant(size_t count, float value, cudaStream_t stream);

// The largest buffer of at most `limit` bytes the GPU can give now, halving on failure (an
// algorithm search wants as much workspace as it may use, but not at the price of failing).
DeviceBuffer largest_buffer(size_t limit);

}  // namespace dlsim::kernels::gpu
