#include "precision.hpp"

#include <stdexcept>

namespace dlsim::kernels::gpu {

Precision precision_of(const std::string& dtype) {
  if (dtype == "fp32") return Precision::fp32;
  if (dtype == "tf32") return Precision::tf32;
  if (dtype == "fp16") return Precision::fp16;
  throw std::invalid_argument("the GPU suite measures fp32, tf32 and fp16, not '" + dtype + "'");
}

}  // namespace dlsim::kernels::gpu
