// Which phases each operator has, and which file builds them.
#include <stdexcept>

#include "allreduce.hpp"
#include "concat.hpp"
#include "copies.hpp"
#include "cudnn_conv.hpp"
#include "cudnn_ops.hpp"
#include "gemm.hpp"
#include "optimizer.hpp"
#include "phase.hpp"
#include "pointwise.hpp"

namespace dlsim::kernels::gpu {
namespace {

enum class Family { weighted, layer, forward_only, dropout, optimizer, copy, allreduce };

Family family_of(const Signature& sig) {
  const std::string& op = sig.op;
  if (op == "conv2d" || op == "linear") return Family::weighted;
  if (op == "maxpool" || op == "avgpool" || op == "global_avgpool" || op == "global_maxpool" ||
      op == "adaptive_avg_pool" || op == "relu" || op == "relu6" || op == "sigmoid" || op == "tanh" || op == "silu" ||
      op == "gelu" || op == "leaky_relu" || op == "batch_norm" || op == "softmax" || op == "softmax_cross_entropy" ||
      op == "lrn" || op == "mul" || op == "channel_shuffle" || op == "hardswish" || op == "hardsigmoid")
    return Family::layer;
  if (op == "add" || op == "concat" || op == "cast") return Family::forward_only;
  if (op == "dropout") return Family::dropout;
  if (op == "sgd" || op == "sgd_momentum" || op == "adam") return Family::optimizer;
  if (op == "memcpy") return Family::copy;
  if (op == "allreduce") return Family::allreduce;
  throw std::invalid_argument("the GPU suite has no kernel for '" + op + "' (signature '" + sig.text + "')");
}

PhaseKernel layer_phase(const Signature& sig, const std::string& phase, const GpuContext& gpu) {
  const std::string& op = sig.op;
  if (op.find("pool") != std::string::npos) return pool_phase(sig, phase, gpu);
  if (op == "batch_norm") return batch_norm_phase(sig, phase, gpu);
  if (op == "softmax" || op == "softmax_cross_entropy") return softmax_phase(sig, phase, gpu);
  if (op == "lrn") return lrn_phase(sig, phase, gpu);
  if (op == "mul") return mul_phase(sig, phase, gpu);
  if (op == "channel_shuffle") return shuffle_phase(sig, phase, gpu);
  if (op == "hardswish" || op == "hardsigmoid") return hard_activation_phase(sig, phase, gpu);
  return activation_phase(sig, phase, gpu);
}

}  // namespace

std::vector<std::string> phases_of(const Signature& sig, bool training) {
  switch (family_of(sig)) {
    case Family::weighted:
      if (training) return {"fwd", "bwd_data", "bwd_weights"};
      return {"fwd"};
    case Family::layer:
      if (training) return {"fwd", "bwd_data"};
      return {"fwd"};
    case Family::forward_only: return {"fwd"};
    case Family::dropout:  // inference skips dropout: no kernel
      if (training) return {"fwd", "bwd_data"};
      return {};
    case Family::optimizer:
      if (training) return {"update"};
      return {};
    case Family::copy: return copy_phases();
    case Family::allreduce: return {"nccl"};
  }
  return {};
}

PhaseKernel make_phase(const Signature& sig, const std::string& phase, const GpuContext& gpu) {
  switch (family_of(sig)) {
    case Family::weighted:
      return sig.op == "conv2d" ? conv_phase(sig, phase, gpu) : linear_phase(sig, phase, gpu);
    case Family::layer: return layer_phase(sig, phase, gpu);
    case Family::forward_only:
      if (sig.op == "cast") return cast_phase(sig, gpu);
      return sig.op == "add" ? add_phase(sig, gpu) : concat_phase(sig, gpu);
    case Family::dropout: return dropout_phase(sig, phase, gpu);
    case Family::optimizer: return update_phase(sig, gpu);
    case Family::copy: return copy_phase(sig, phase, gpu);
    case Family::allreduce: return allreduce_phase(sig, gpu);
  }
  throw std::logic_error("unhandled operator family");
}

}  // namespace dlsim::kernels::gpu
