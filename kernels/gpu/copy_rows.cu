#include "copy_rows.hpp"

#include <cstdint>

#include "check.hpp"

namespace dlsim::kernels::gpu {
namespace {

constexpr int kThreads = 256;
constexpr size_t kMaxBlocks = 65535;

template <class Unit>
__global__ void copy_rows(const Unit* src, size_t row_units, Unit* dst, size_t pitch_units, size_t total) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < total; i += size_t{gridDim.x} * blockDim.x) {
    const size_t row = i / row_units;
    dst[row * pitch_units + (i - row * row_units)] = src[i];
  }
}

template <class Unit>
void launch(const void* src, size_t width, void* dst, size_t pitch, size_t rows, cudaStream_t stream) {
  const size_t row_units = width / sizeof(Unit), total = row_units * rows;
  const size_t blocks = (total + kThreads - 1) / kThreads;
  copy_rows<Unit><<<static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks), kThreads, 0, stream>>>(
      static_cast<const Unit*>(src), row_units, static_cast<Unit*>(dst), pitch / sizeof(Unit), total);
}

}  // namespace

void launch_copy_rows(const void* src, size_t width, void* dst, size_t dst_pitch, size_t rows, cudaStream_t stream) {
  if (width == 0 || rows == 0) return;
  // The widest unit every address and length is a multiple of: 16-byte moves where the
  // layout allows, as a framework's copy kernel vectorises.
  const auto bits = reinterpret_cast<uintptr_t>(src) | reinterpret_cast<uintptr_t>(dst) | width | dst_pitch;
  if (bits % 16 == 0) launch<uint4>(src, width, dst, dst_pitch, rows, stream);
  else if (bits % 4 == 0) launch<uint32_t>(src, width, dst, dst_pitch, rows, stream);
  else if (bits % 2 == 0) launch<uint16_t>(src, width, dst, dst_pitch, rows, stream);
  else launch<uint8_t>(src, width, dst, dst_pitch, rows, stream);
  check(cudaGetLastError(), "copy_rows kernel launch");
}

}  // namespace dlsim::kernels::gpu
