#pragma once
// The data type word of a signature, as the GPU runs it:
//   fp32  fp32 tensors, fp32 arithmetic (no TF32: what PyTorch does with allow_tf32 off)
//   tf32  fp32 tensors, tensor-core TF32 arithmetic allowed
//   fp16  half tensors, fp32 accumulation, tensor cores (PyTorch's autocast)

#include <cstddef>
#include <string>

namespace dlsim::kernels::gpu {

enum class Precision { fp32, tf32, fp16 };

// Throws std::invalid_argument for a type the suite does not measure (bf16, u8, ...).
Precision precision_of(const std::string& dtype);

// Bytes of one tensor element.
inline size_t element_bytes(Precision p) { return p == Precision::fp16 ? 2 : 4; }

}  // namespace dlsim::kernels::gpu
