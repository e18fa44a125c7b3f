#include "pointwise.hpp"

#include <memory>
#include <stdexcept>

#include "buffers.hpp"
#include "check.hpp"
#include "cudnn_descriptors.hpp"
#include "pointwise_kernels.hpp"

namespace dlsim::kernels::gpu {
namespace {

const float kOne = 1.f, kZero = 0.f;

size_t elements(int64_t n, int64_t per_sample) { return static_cast<size_t>(n * per_sample); }

// n x c x h x w packed NCHW, whatever the precision's layout (the element-wise operators
// here read their tensors as PyTorch's NCHW).
TensorDesc nchw_desc(Precision p, int64_t n, int64_t c, int64_t h, int64_t w) {
  return strided_tensor_desc(p, n, c, h, w, c * h * w, h * w, w, 1);
}

}  // namespace

PhaseKernel mul_phase(const Signature& sig, const std::string& phase, const GpuContext& gpu) {
  struct Mul {
    OpTensorDesc op;
    TensorDesc full, factor;
    DeviceBuffer x, y, out, g, product, dy;
    bool per_channel = false;
    size_t planes = 0, plane_size = 0;
  };
  const Precision p = precision_of(sig.dtype);
  const int64_t n = sig.get("n"), e = sig.get("e"), c = sig.get("c");
  if (c <= 0 || e % c != 0)
    throw std::invalid_argument("signature '" + sig.text + "': " + std::to_string(c) + " factors do not divide " +
                                std::to_string(e) + " elements");
  auto m = std::make_shared<Mul>();
  m->op = new_op_tensor_desc();
  check(cudnnSetOpTensorDescriptor(m->op.get(), CUDNN_OP_TENSOR_MUL, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN),
        "cudnnSetOpTensorDescriptor");
  m->full = nchw_desc(p, n, c, e / c, 1);
  m->factor = nchw_desc(p, n, c, 1, 1);
  m->per_channel = c < e;
  m->planes = elements(n, c);
  m->plane_size = static_cast<size_t>(e / c);
  m->x = filled(elements(n, e), p, gpu.stream);
  m->y = filled(elements(n, c), p, gpu.stream);
  const size_t bytes = elements(n, e) * element_bytes(p);
  PhaseKernel k;
  const cudnnHandle_t h = gpu.cudnn;
  if (!is_backward(phase)) {
    m->out = DeviceBuffer(bytes);
    k.launch = [m, h] {
      check(cudnnOpTensor(h, m->op.get(), &kOne, m->full.get(), m->x.get(), &kOne, m->factor.get(), m->y.get(), &kZero,
                          m->full.get(), m->out.get()),
            "cudnnOpTensor");
    };
    return k;
  }
  m->g = filled(elements(n, e), p, gpu.stream);
  m->out = DeviceBuffer(bytes);      // x's gradient
  m->product = DeviceBuffer(bytes);  // g * x, summed per plane into y's gradient
  m->dy = DeviceBuffer(elements(n, c) * element_bytes(p));
  const bool half = p == Precision::fp16;
  const cudaStream_t stream = gpu.stream;
  k.launch = [m, h, half, stream] {
    const cudnnTensorDescriptor_t full = m->full.get();
    check(cudnnOpTensor(h, m->op.get(), &kOne, full, m->g.get(), &kOne, m->factor.get(), m->y.get(), &kZero, full,
                        m->out.get()),
          "cudnnOpTensor");
    void* gx = m->per_channel ? m->product.get() : m->dy.get();
    check(cudnnOpTensor(h, m->op.get(), &kOne, full, m->g.get(), &kOne, full, m->x.get(), &kZero, full, gx),
          "cudnnOpTensor");
    if (m->per_channel) launch_plane_sums(m->product.get(), m->dy.get(), m->planes, m->plane_size, half, stream);
  };
  return k;
}

PhaseKernel shuffle_phase(const Signature& sig, const std::string& phase, const GpuContext& gpu) {
  struct Shuffle {
    TensorDesc from, to;
    DeviceBuffer x, y;
  };
  const Precision p = precision_of(sig.dtype);
  const int64_t n = sig.get("n"), c = sig.get("c"), hw = sig.get("hw"), groups = sig.get("g");
  if (groups <= 0 || c % groups != 0)
    throw std::invalid_argument("signature '" + sig.text + "': " + std::to_string(groups) +
                                " groups do not divide the channels");
  const int64_t per = c / groups;
  auto s = std::make_shared<Shuffle>();
  // Output channel j * groups + i is input channel i * per + j: the input read as
  // n x per x groups x hw with the transposed strides, written packed.
  TensorDesc transposed = strided_tensor_desc(p, n, per, groups, hw, c * hw, hw, per * hw, 1);
  TensorDesc packed = nchw_desc(p, n, per, groups, hw);
  // Backward copies the gradient the other way: from packed into the transposed strides.
  s->from = is_backward(phase) ? std::move(packed) : std::move(transposed);
  s->to = is_backward(phase) ? std::move(transposed) : std::move(packed);
  s->x = filled(elements(n, c * hw), p, gpu.stream);
  s->y = DeviceBuffer(elements(n, c * hw) * element_bytes(p));
  PhaseKernel k;
  const cudnnHandle_t h = gpu.cudnn;
  k.launch = [s, h] {
    check(cudnnTransformTensor(h, &kOne, s->from.get(), s->x.get(), &kZero, s->to.get(), s->y.get()),
          "cudnnTransformTensor");
  };
  return k;
}

PhaseKernel hard_activation_phase(const Signature& sig, const std::string& phase, const GpuContext& gpu) {
  struct Buffers {
    DeviceBuffer x, dy, out;
  };
  const Precision p = precision_of(sig.dtype);
  const size_t count = elements(sig.get("n"), sig.get("e"));
  const bool backward = is_backward(phase);
  auto b = std::make_shared<Buffers>();
  b->x = filled(count, p, gpu.stream);
  if (backward) b->dy = filled(count, p, gpu.stream);
  b->out = DeviceBuffer(count * element_bytes(p));
  const HardActivation kind = sig.op == "hardswish" ? HardActivation::swish : HardActivation::sigmoid;
  const bool half = p == Precision::fp16;
  const cudaStream_t stream = gpu.stream;
  PhaseKernel k;
  k.launch = [b, kind, backward, count, half, stream] {
    launch_hard_activation(kind, backward, b->x.get(), b->dy.get(), b->out.get(), count, half, stream);
  };
  return k;
}

PhaseKernel cast_phase(const Signature& sig, const GpuContext& gpu) {
  struct Buffers {
    DeviceBuffer x, y;
  };
  if (precision_of(sig.dtype) != Precision::fp16)
    throw std::invalid_argument("signature '" + sig.text + "': autocast casts fp32 to fp16 only");
  const size_t count = elements(sig.get("n"), sig.get("e"));
  auto b = std::make_shared<Buffers>();
  b->x = filled(count, Precision::fp32, gpu.stream);
  b->y = DeviceBuffer(count * element_bytes(Precision::fp16));
  const cudaStream_t stream = gpu.stream;
  PhaseKernel k;
  k.launch = [b, count, stream] { launch_cast_to_half(b->x.floats(), b->y.get(), count, stream); };
  return k;
}

}  // namespace dlsim::kernels::gpu
