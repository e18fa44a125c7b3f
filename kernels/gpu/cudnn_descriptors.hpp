#pragma once
// cuDNN descriptors owned by the case that made them, and tensors described in the layout
// the framework runs: NCHW, or for fp16 NHWC, where cuDNN's tensor-core kernels want
// channels innermost (PyTorch's channels_last under autocast) and otherwise transpose.

#include <cstdint>

#include <cudnn.h>

#include "destroyer.hpp"
#include "precision.hpp"

namespace dlsim::kernels::gpu {

using TensorDesc = Owned<cudnnTensorStruct, cudnnDestroyTensorDescriptor>;
using FilterDesc = Owned<cudnnFilterStruct, cudnnDestroyFilterDescriptor>;
using ConvDesc = Owned<cudnnConvolutionStruct, cudnnDestroyConvolutionDescriptor>;
using PoolDesc = Owned<cudnnPoolingStruct, cudnnDestroyPoolingDescriptor>;
using ActivationDesc = Owned<cudnnActivationStruct, cudnnDestroyActivationDescriptor>;
using LrnDesc = Owned<cudnnLRNStruct, cudnnDestroyLRNDescriptor>;
using DropoutDesc = Owned<cudnnDropoutStruct, cudnnDestroyDropoutDescriptor>;
using OpTensorDesc = Owned<cudnnOpTensorStruct, cudnnDestroyOpTensorDescriptor>;

cudnnDataType_t cudnn_type(Precision precision);
// Tensors are NCHW, PyTorch's default memory format, which autocast keeps.  FP16 tensors
// are NHWC when the run asks (--channels-last: a model converted to channels_last), set
// once at start: on an H200 the legacy API's NHWC FP16 batch norms, poolings and bias
// gradients ran 10-26x slower than FP32 NCHW ones of the same shapes (calibration/README.md),
// kernels PyTorch's autocast does not run.
void set_fp16_channels_last(bool channels_last);
bool is_nhwc(Precision precision);
cudnnTensorFormat_t cudnn_layout(Precision precision);

// A 4-d tensor of the precision's type in its layout.
TensorDesc tensor_desc(Precision precision, int64_t n, int64_t c, int64_t h, int64_t w);
// A 4-d tensor with the strides given (sn, sc, sh, sw), whatever the precision's layout.
TensorDesc strided_tensor_desc(Precision precision, int64_t n, int64_t c, int64_t h, int64_t w, int64_t sn, int64_t sc,
                               int64_t sh, int64_t sw);
// Convolution weights k x c x r x s (KCRS, or KRSC for NHWC).
FilterDesc filter_desc(Precision precision, int64_t k, int64_t c, int64_t r, int64_t s);

// Empty descriptors, for the caller to set.
TensorDesc new_tensor_desc();
ConvDesc new_conv_desc();
PoolDesc new_pool_desc();
ActivationDesc new_activation_desc();
LrnDesc new_lrn_desc();
DropoutDesc new_dropout_desc();
OpTensorDesc new_op_tensor_desc();

// cuDNN's dimensions are ints; throws std::invalid_argument for one that does not fit.
int to_int(int64_t value);

}  // namespace dlsim::kernels::gpu
