#include "cudnn_descriptors.hpp"

#include <limits>
#include <stdexcept>
#include <string>

#include "check.hpp"

namespace dlsim::kernels::gpu {

cudnnDataType_t cudnn_type(Precision p) { return p == Precision::fp16 ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT; }

namespace {
bool fp16_channels_last = false;
}  // namespace

void set_fp16_channels_last(bool channels_last) { fp16_channels_last = channels_last; }

bool is_nhwc(Precision p) { return p == Precision::fp16 && fp16_channels_last; }

cudnnTensorFormat_t cudnn_layout(Precision p) { return is_nhwc(p) ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW; }

int to_int(int64_t value) {
  if (value < 0 || value > std::numeric_limits<int>::max())
    throw std::invalid_argument("dimension " + std::to_string(value) + " does not fit cuDNN's int");
  return static_cast<int>(value);
}

TensorDesc new_tensor_desc() {
  cudnnTensorDescriptor_t d;
  check(cudnnCreateTensorDescriptor(&d), "cudnnCreateTensorDescriptor");
  return TensorDesc(d);
}

TensorDesc tensor_desc(Precision p, int64_t n, int64_t c, int64_t h, int64_t w) {
  TensorDesc d = new_tensor_desc();
  check(cudnnSetTensor4dDescriptor(d.get(), cudnn_layout(p), cudnn_type(p), to_int(n), to_int(c), to_int(h), to_int(w)),
        "cudnnSetTensor4dDescriptor");
  return d;
}

TensorDesc strided_tensor_desc(Precision p, int64_t n, int64_t c, int64_t h, int64_t w, int64_t sn, int64_t sc,
                               int64_t sh, int64_t sw) {
  TensorDesc d = new_tensor_desc();
  check(cudnnSetTensor4dDescriptorEx(d.get(), cudnn_type(p), to_int(n), to_int(c), to_int(h), to_int(w), to_int(sn),
                                     to_int(sc), to_int(sh), to_int(sw)),
        "cudnnSetTensor4dDescriptorEx");
  return d;
}

FilterDesc filter_desc(Precision p, int64_t k, int64_t c, int64_t r, int64_t s) {
  cudnnFilterDescriptor_t d;
  check(cudnnCreateFilterDescriptor(&d), "cudnnCreateFilterDescriptor");
  FilterDesc owned(d);
  check(cudnnSetFilter4dDescriptor(d, cudnn_type(p), cudnn_layout(p), to_int(k), to_int(c), to_int(r), to_int(s)),
        "cudnnSetFilter4dDescriptor");
  return owned;
}

ConvDesc new_conv_desc() {
  cudnnConvolutionDescriptor_t d;
  check(cudnnCreateConvolutionDescriptor(&d), "cudnnCreateConvolutionDescriptor");
  return ConvDesc(d);
}

PoolDesc new_pool_desc() {
  cudnnPoolingDescriptor_t d;
  check(cudnnCreatePoolingDescriptor(&d), "cudnnCreatePoolingDescriptor");
  return PoolDesc(d);
}

ActivationDesc new_activation_desc() {
  cudnnActivationDescriptor_t d;
  check(cudnnCreateActivationDescriptor(&d), "cudnnCreateActivationDescriptor");
  return ActivationDesc(d);
}

LrnDesc new_lrn_desc() {
  cudnnLRNDescriptor_t d;
  check(cudnnCreateLRNDescriptor(&d), "cudnnCreateLRNDescriptor");
  return LrnDesc(d);
}

DropoutDesc new_dropout_desc() {
  cudnnDropoutDescriptor_t d;
  check(cudnnCreateDropoutDescriptor(&d), "cudnnCreateDropoutDescriptor");
  return DropoutDesc(d);
}

OpTensorDesc new_op_tensor_desc() {
  cudnnOpTensorDescriptor_t d;
  check(cudnnCreateOpTensorDescriptor(&d), "cudnnCreateOpTensorDescriptor");
  return OpTensorDesc(d);
}

}  // namespace dlsim::kernels::gpu
