#pragma once
// Convolution and pooling windows of a signature in the form cuDNN's legacy descriptors
// take.  Those pad both sides of an axis alike, while a signature may pad asymmetrically
// (TensorFlow's "same") or round up (ceil mode); such an axis runs on an input grown by the
// difference and padded by the smaller side, which has the same output size and work, as a
// framework that pads explicitly does.

#include <cstdint>

#include "signature.hpp"

namespace dlsim::kernels::gpu {

struct Axis {
  int64_t in = 0;   // input extent as run (grown by any asymmetric padding)
  int64_t pad = 0;  // padding on both sides
  int64_t out = 0;  // output extent
};

// `window` is the extent the window covers (dilated for a convolution).
Axis symmetric_axis(int64_t in, int64_t window, int64_t stride, int64_t pad_begin, int64_t pad_end);

struct ConvShape {
  int64_t n, c, k, r, s, groups;
  int64_t stride_h, stride_w, dilation_h, dilation_w;
  Axis h, w;
  bool bias;
};

// "conv2d <dtype> n c h w k r s pad<t,l,b,r> str<h,w> dil<h,w> g [bias]"
ConvShape conv_shape(const Signature& signature);

struct PoolShape {
  int64_t n, c;
  int64_t window_h, window_w, stride_h, stride_w;
  Axis h, w;
};

// "maxpool|avgpool <dtype> n c h w r s pad str [ceil]", or the global and adaptive forms
// "global_avgpool|adaptive_avg_pool <dtype> n c h w oh ow" (a window as large as it takes).
PoolShape pool_shape(const Signature& signature);

}  // namespace dlsim::kernels::gpu
