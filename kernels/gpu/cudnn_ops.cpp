#include "cudnn_ops.hpp"

#include <memory>
#include <stdexcept>
#include <vector>

#include "buffers.hpp"
#include "check.hpp"
#include "cudnn_descriptors.hpp"
#include "geometry.hpp"

namespace dlsim::kernels::gpu {
namespace {

const float kOne = 1.f, kZero = 0.f;
// PyTorch's batch norm epsilon and running-average momentum.
constexpr double kBnEpsilon = 1e-5, kBnMomentum = 0.1;

size_t count(int64_t n, int64_t c, int64_t h, int64_t w) { return static_cast<size_t>(n * c * h * w); }

// Input, output and (for backward) their gradients, all of one shape.
struct Tensors {
  TensorDesc desc;
  DeviceBuffer x, y, dy, dx;
};

void allocate(Tensors& t, Precision p, size_t elements, bool backward, cudaStream_t stream) {
  t.x = filled(elements, p, stream);
  t.y = filled(elements, p, stream);
  if (!backward) return;
  t.dy = filled(elements, p, stream);
  t.dx = DeviceBuffer(elements * element_bytes(p));
}

// "<op> <dtype> n<batch> e<elements per sample>" as an n x e x 1 x 1 tensor.
Tensors flat(const Signature& sig, const std::string& field, bool backward, cudaStream_t stream) {
  const Precision p = precision_of(sig.dtype);
  const int64_t n = sig.get("n"), e = sig.get(field);
  Tensors t;
  t.desc = tensor_desc(p, n, e, 1, 1);
  allocate(t, p, count(n, e, 1, 1), backward, stream);
  return t;
}

// "<op> <dtype> n c hw ..." as an n x c x hw x 1 tensor.
Tensors per_channel(const Signature& sig, bool backward, cudaStream_t stream) {
  const Precision p = precision_of(sig.dtype);
  const int64_t n = sig.get("n"), c = sig.get("c"), hw = sig.get("hw");
  Tensors t;
  t.desc = tensor_desc(p, n, c, hw, 1);
  allocate(t, p, count(n, c, hw, 1), backward, stream);
  return t;
}


cudnnPoolingMode_t pool_mode(const std::string& op) {
  if (op == "maxpool" || op == "global_maxpool") return CUDNN_POOLING_MAX;
  if (op == "avgpool") return CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING;
  return CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING;  // global and adaptive: no padding
}

struct Pool {
  PoolDesc pool;
  TensorDesc x, y;
  DeviceBuffer x_data, y_data, dy, dx;
};

void pool_forward(const Pool& s, cudnnHandle_t h) {
  check(cudnnPoolingForward(h, s.pool.get(), &kOne, s.x.get(), s.x_data.get(), &kZero, s.y.get(), s.y_data.get()),
        "cudnnPoolingForward");
}

void pool_backward(const Pool& s, cudnnHandle_t h) {
  check(cudnnPoolingBackward(h, s.pool.get(), &kOne, s.y.get(), s.y_data.get(), s.y.get(), s.dy.get(), s.x.get(),
                             s.x_data.get(), &kZero, s.x.get(), s.dx.get()),
        "cudnnPoolingBackward");
}

ActivationDesc activation_desc(const std::string& op) {
  cudnnActivationMode_t mode;
  double coef = 0;
  if (op == "relu") mode = CUDNN_ACTIVATION_RELU;
  else if (op == "relu6") mode = CUDNN_ACTIVATION_CLIPPED_RELU, coef = 6;
  else if (op == "sigmoid") mode = CUDNN_ACTIVATION_SIGMOID;
  else if (op == "tanh") mode = CUDNN_ACTIVATION_TANH;
  else if (op == "silu") mode = CUDNN_ACTIVATION_SWISH;
  else throw std::invalid_argument("cuDNN's legacy API has no '" + op + "' activation");
  ActivationDesc d = new_activation_desc();
  check(cudnnSetActivationDescriptor(d.get(), mode, CUDNN_NOT_PROPAGATE_NAN, coef), "cudnnSetActivationDescriptor");
  if (op == "silu") check(cudnnSetActivationDescriptorSwishBeta(d.get(), 1.0), "cudnnSetActivationDescriptorSwishBeta");
  return d;
}

struct BatchNorm {
  cudnnBatchNormMode_t mode;
  Tensors t;
  TensorDesc stats;
  DeviceBuffer scale, shift, running_mean, running_var, saved_mean, saved_inv_var, dscale, dshift;
};

void bn_forward_training(const BatchNorm& b, cudnnHandle_t h) {
  const Tensors& t = b.t;
  check(cudnnBatchNormalizationForwardTraining(h, b.mode, &kOne, &kZero, t.desc.get(), t.x.get(), t.desc.get(),
                                               t.y.get(), b.stats.get(), b.scale.get(), b.shift.get(), kBnMomentum,
                                               b.running_mean.get(), b.running_var.get(), kBnEpsilon,
                                               b.saved_mean.get(), b.saved_inv_var.get()),
        "cudnnBatchNormalizationForwardTraining");
}

void bn_forward_inference(const BatchNorm& b, cudnnHandle_t h) {
  const Tensors& t = b.t;
  check(cudnnBatchNormalizationForwardInference(h, b.mode, &kOne, &kZero, t.desc.get(), t.x.get(), t.desc.get(),
                                                t.y.get(), b.stats.get(), b.scale.get(), b.shift.get(),
                                                b.running_mean.get(), b.running_var.get(), kBnEpsilon),
        "cudnnBatchNormalizationForwardInference");
}

void bn_backward(const BatchNorm& b, cudnnHandle_t h) {
  const Tensors& t = b.t;
  check(cudnnBatchNormalizationBackward(h, b.mode, &kOne, &kZero, &kOne, &kZero, t.desc.get(), t.x.get(), t.desc.get(),
                                        t.dy.get(), t.desc.get(), t.dx.get(), b.stats.get(), b.scale.get(),
                                        b.dscale.get(), b.dshift.get(), kBnEpsilon, b.saved_mean.get(),
                                        b.saved_inv_var.get()),
        "cudnnBatchNormalizationBackward");
}

struct Lrn {
  LrnDesc lrn;
  Tensors t;
};

struct Dropout {
  DropoutDesc dropout;
  Tensors t;
  DeviceBuffer states, reserve;
};

void dropout_forward(const Dropout& d, cudnnHandle_t h) {
  check(cudnnDropoutForward(h, d.dropout.get(), d.t.desc.get(), d.t.x.get(), d.t.desc.get(), d.t.y.get(),
                            d.reserve.get(), d.reserve.bytes()),
        "cudnnDropoutForward");
}

}  // namespace

PhaseKernel pool_phase(const Signature& sig, const std::string& phase, const GpuContext& gpu) {
  const Precision p = precision_of(sig.dtype);
  const PoolShape g = pool_shape(sig);
  auto s = std::make_shared<Pool>();
  s->pool = new_pool_desc();
  check(cudnnSetPooling2dDescriptor(s->pool.get(), pool_mode(sig.op), CUDNN_NOT_PROPAGATE_NAN, to_int(g.window_h),
                                    to_int(g.window_w), to_int(g.h.pad), to_int(g.w.pad), to_int(g.stride_h),
                                    to_int(g.stride_w)),
        "cudnnSetPooling2dDescriptor");
  s->x = tensor_desc(p, g.n, g.c, g.h.in, g.w.in);
  s->y = tensor_desc(p, g.n, g.c, g.h.out, g.w.out);
  int n = 0, c = 0, h = 0, w = 0;
  check(cudnnGetPooling2dForwardOutputDim(s->pool.get(), s->x.get(), &n, &c, &h, &w),
        "cudnnGetPooling2dForwardOutputDim");
  if (h != g.h.out || w != g.w.out)
    throw std::logic_error("signature '" + sig.text + "': cuDNN's output " + std::to_string(h) + "x" +
                           std::to_string(w) + " differs from the signature's");
  s->x_data = filled(count(g.n, g.c, g.h.in, g.w.in), p, gpu.stream);
  s->y_data = filled(count(g.n, g.c, g.h.out, g.w.out), p, gpu.stream);
  PhaseKernel k;
  const cudnnHandle_t handle = gpu.cudnn;
  if (!is_backward(phase)) {
    k.launch = [s, handle] { pool_forward(*s, handle); };
    return k;
  }
  s->dy = filled(count(g.n, g.c, g.h.out, g.w.out), p, gpu.stream);
  s->dx = DeviceBuffer(count(g.n, g.c, g.h.in, g.w.in) * element_bytes(p));
  pool_forward(*s, handle);  // max pooling's backward finds the maxima from x and y
  k.launch = [s, handle] { pool_backward(*s, handle); };
  return k;
}

PhaseKernel activation_phase(const Signature& sig, const std::string& phase, const GpuContext& gpu) {
  struct Activation {
    ActivationDesc act;
    Tensors t;
  };
  auto s = std::make_shared<Activation>();
  s->act = activation_desc(sig.op);
  s->t = flat(sig, "e", is_backward(phase), gpu.stream);
  PhaseKernel k;
  const cudnnHandle_t h = gpu.cudnn;
  if (!is_backward(phase)) {
    k.launch = [s, h] {
      const Tensors& t = s->t;
      check(cudnnActivationForward(h, s->act.get(), &kOne, t.desc.get(), t.x.get(), &kZero, t.desc.get(), t.y.get()),
            "cudnnActivationForward");
    };
    return k;
  }
  k.launch = [s, h] {
    const Tensors& t = s->t;
    check(cudnnActivationBackward(h, s->act.get(), &kOne, t.desc.get(), t.y.get(), t.desc.get(), t.dy.get(),
                                  t.desc.get(), t.x.get(), &kZero, t.desc.get(), t.dx.get()),
          "cudnnActivationBackward");
  };
  return k;
}

PhaseKernel batch_norm_phase(const Signature& sig, const std::string& phase, const GpuContext& gpu) {
  const Precision p = precision_of(sig.dtype);
  const bool training = gpu.options.training;
  auto b = std::make_shared<BatchNorm>();
  // cuDNN's persistent kernels are what PyTorch picks for channels-last training; they need
  // NHWC half tensors.
  b->mode = training && is_nhwc(p) ? CUDNN_BATCHNORM_SPATIAL_PERSISTENT : CUDNN_BATCHNORM_SPATIAL;
  b->t = per_channel(sig, is_backward(phase), gpu.stream);
  b->stats = new_tensor_desc();
  check(cudnnDeriveBNTensorDescriptor(b->stats.get(), b->t.desc.get(), b->mode), "cudnnDeriveBNTensorDescriptor");
  const size_t c = static_cast<size_t>(sig.get("c"));
  b->scale = constant(c, 1.f, gpu.stream);
  b->shift = constant(c, 0.f, gpu.stream);
  b->running_mean = constant(c, 0.f, gpu.stream);
  b->running_var = constant(c, 1.f, gpu.stream);
  b->saved_mean = constant(c, 0.f, gpu.stream);
  b->saved_inv_var = constant(c, 1.f, gpu.stream);
  PhaseKernel k;
  const cudnnHandle_t h = gpu.cudnn;
  if (!is_backward(phase)) {
    if (training) k.launch = [b, h] { bn_forward_training(*b, h); };
    else k.launch = [b, h] { bn_forward_inference(*b, h); };
    return k;
  }
  b->dscale = DeviceBuffer(c * sizeof(float));
  b->dshift = DeviceBuffer(c * sizeof(float));
  bn_forward_training(*b, h);  // the saved mean and inverse variance the backward reads
  k.launch = [b, h] { bn_backward(*b, h); };
  return k;
}

PhaseKernel softmax_phase(const Signature& sig, const std::string& phase, const GpuContext& gpu) {
  // The loss is log-softmax (PyTorch's cross entropy is log_softmax then nll_loss).
  const bool log = sig.op == "softmax_cross_entropy";
  const cudnnSoftmaxAlgorithm_t algo = log ? CUDNN_SOFTMAX_LOG : CUDNN_SOFTMAX_ACCURATE;
  auto t = std::make_shared<Tensors>(flat(sig, log ? "classes" : "e", is_backward(phase), gpu.stream));
  PhaseKernel k;
  const cudnnHandle_t h = gpu.cudnn;
  if (!is_backward(phase)) {
    k.launch = [t, h, algo] {
      check(cudnnSoftmaxForward(h, algo, CUDNN_SOFTMAX_MODE_INSTANCE, &kOne, t->desc.get(), t->x.get(), &kZero,
                                t->desc.get(), t->y.get()),
            "cudnnSoftmaxForward");
    };
    return k;
  }
  k.launch = [t, h, algo] {
    check(cudnnSoftmaxBackward(h, algo, CUDNN_SOFTMAX_MODE_INSTANCE, &kOne, t->desc.get(), t->y.get(), t->desc.get(),
                               t->dy.get(), &kZero, t->desc.get(), t->dx.get()),
          "cudnnSoftmaxBackward");
  };
  return k;
}

PhaseKernel add_phase(const Signature& sig, const GpuContext& gpu) {
  struct Add {
    OpTensorDesc op;
    TensorDesc desc;
    std::vector<DeviceBuffer> inputs;
    DeviceBuffer out;
  };
  const Precision p = precision_of(sig.dtype);
  const int64_t n = sig.get("n"), e = sig.get("e"), inputs = sig.get("x");
  if (inputs < 2) throw std::invalid_argument("signature '" + sig.text + "': an add needs two inputs or more");
  auto a = std::make_shared<Add>();
  a->op = new_op_tensor_desc();
  check(cudnnSetOpTensorDescriptor(a->op.get(), CUDNN_OP_TENSOR_ADD, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN),
        "cudnnSetOpTensorDescriptor");
  a->desc = tensor_desc(p, n, e, 1, 1);
  for (int64_t i = 0; i < inputs; ++i) a->inputs.push_back(filled(count(n, e, 1, 1), p, gpu.stream));
  a->out = DeviceBuffer(count(n, e, 1, 1) * element_bytes(p));
  PhaseKernel k;
  const cudnnHandle_t h = gpu.cudnn;
  k.launch = [a, h] {
    const cudnnTensorDescriptor_t d = a->desc.get();
    check(cudnnOpTensor(h, a->op.get(), &kOne, d, a->inputs[0].get(), &kOne, d, a->inputs[1].get(), &kZero, d,
                        a->out.get()),
          "cudnnOpTensor");
    for (size_t i = 2; i < a->inputs.size(); ++i)
      check(cudnnAddTensor(h, &kOne, d, a->inputs[i].get(), &kOne, d, a->out.get()), "cudnnAddTensor");
  };
  return k;
}

PhaseKernel lrn_phase(const Signature& sig, const std::string& phase, const GpuContext& gpu) {
  auto l = std::make_shared<Lrn>();
  l->lrn = new_lrn_desc();
  // PyTorch's LocalResponseNorm defaults.
  check(cudnnSetLRNDescriptor(l->lrn.get(), static_cast<unsigned>(sig.get("size")), 1e-4, 0.75, 1.0),
        "cudnnSetLRNDescriptor");
  l->t = per_channel(sig, is_backward(phase), gpu.stream);
  PhaseKernel k;
  const cudnnHandle_t h = gpu.cudnn;
  if (!is_backward(phase)) {
    k.launch = [l, h] {
      const Tensors& t = l->t;
      check(cudnnLRNCrossChannelForward(h, l->lrn.get(), CUDNN_LRN_CROSS_CHANNEL_DIM1, &kOne, t.desc.get(), t.x.get(),
                                        &kZero, t.desc.get(), t.y.get()),
            "cudnnLRNCrossChannelForward");
    };
    return k;
  }
  k.launch = [l, h] {
    const Tensors& t = l->t;
    check(cudnnLRNCrossChannelBackward(h, l->lrn.get(), CUDNN_LRN_CROSS_CHANNEL_DIM1, &kOne, t.desc.get(), t.y.get(),
                                       t.desc.get(), t.dy.get(), t.desc.get(), t.x.get(), &kZero, t.desc.get(),
                                       t.dx.get()),
          "cudnnLRNCrossChannelBackward");
  };
  return k;
}

PhaseKernel dropout_phase(const Signature& sig, const std::string& phase, const GpuContext& gpu) {
  const cudnnHandle_t h = gpu.cudnn;
  auto d = std::make_shared<Dropout>();
  d->t = flat(sig, "e", is_backward(phase), gpu.stream);
  d->dropout = new_dropout_desc();
  size_t states = 0, reserve = 0;
  check(cudnnDropoutGetStatesSize(h, &states), "cudnnDropoutGetStatesSize");
  check(cudnnDropoutGetReserveSpaceSize(d->t.desc.get(), &reserve), "cudnnDropoutGetReserveSpaceSize");
  d->states = DeviceBuffer(states);
  d->reserve = DeviceBuffer(reserve);
  check(cudnnSetDropoutDescriptor(d->dropout.get(), h, 0.5f, d->states.get(), states, 1234ULL),
        "cudnnSetDropoutDescriptor");
  PhaseKernel k;
  if (!is_backward(phase)) {
    k.launch = [d, h] { dropout_forward(*d, h); };
    return k;
  }
  dropout_forward(*d, h);  // the mask the backward applies
  k.launch = [d, h] {
    const Tensors& t = d->t;
    check(cudnnDropoutBackward(h, d->dropout.get(), t.desc.get(), t.dy.get(), t.desc.get(), t.dx.get(),
                               d->reserve.get(), d->reserve.bytes()),
          "cudnnDropoutBackward");
  };
  return k;
}

}  // namespace dlsim::kernels::gpu
