#pragma once
// A strided device copy: `rows` packed rows of `width` bytes into rows `dst_pitch` bytes
// apart, the kernel of a channel concatenation (each input is a band of the output).

#include <cstddef>

#include <cuda_runtime_api.h>

namespace dlsim::kernels::gpu {

void launch_copy_rows(const void* src, size_t width, void* dst, size_t dst_pitch, size_t rows, cudaStream_t stream);

}  // namespace dlsim::kernels::gpu
