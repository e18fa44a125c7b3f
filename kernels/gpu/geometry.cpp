#include "geometry.hpp"

#include <algorithm>
#include <stdexcept>

namespace dlsim::kernels::gpu {
namespace {

// PyTorch's ceil-mode pooling output size: rounded up, but no window may start in the
// padding at the end.
int64_t ceil_out(int64_t in, int64_t window, int64_t stride, int64_t pad_begin, int64_t pad_end) {
  int64_t out = (in + pad_begin + pad_end - window + stride - 1) / stride + 1;
  if ((out - 1) * stride >= in + pad_begin) --out;
  return out;
}

}  // namespace

Axis symmetric_axis(int64_t in, int64_t window, int64_t stride, int64_t pad_begin, int64_t pad_end) {
  pad_end = std::max<int64_t>(pad_end, 0);
  Axis a;
  a.pad = std::min(pad_begin, pad_end);
  a.in = in + pad_begin + pad_end - 2 * a.pad;
  a.out = (a.in + 2 * a.pad - window) / stride + 1;
  if (a.in < 1 || a.out < 1 || stride < 1)
    throw std::invalid_argument("window " + std::to_string(window) + " stride " + std::to_string(stride) +
                                " does not fit an input of " + std::to_string(in));
  return a;
}

ConvShape conv_shape(const Signature& g) {
  ConvShape s{};
  s.n = g.get("n"), s.c = g.get("c"), s.k = g.get("k"), s.r = g.get("r"), s.s = g.get("s"), s.groups = g.get("g");
  const auto& pad = g.list("pad", 4);
  const auto& str = g.list("str", 2);
  const auto& dil = g.list("dil", 2);
  s.stride_h = str[0], s.stride_w = str[1], s.dilation_h = dil[0], s.dilation_w = dil[1];
  s.h = symmetric_axis(g.get("h"), dil[0] * (s.r - 1) + 1, str[0], pad[0], pad[2]);
  s.w = symmetric_axis(g.get("w"), dil[1] * (s.s - 1) + 1, str[1], pad[1], pad[3]);
  s.bias = g.has("bias");
  if (s.groups < 1 || s.c % s.groups != 0 || s.k % s.groups != 0)
    throw std::invalid_argument("signature '" + g.text + "': channels do not split into its groups");
  return s;
}

PoolShape pool_shape(const Signature& g) {
  PoolShape s{};
  s.n = g.get("n"), s.c = g.get("c");
  const int64_t ih = g.get("h"), iw = g.get("w");
  if (g.fields.count("oh")) {
    // Global and adaptive pooling: the stride that spreads `out` windows over the input.
    const int64_t oh = g.get("oh"), ow = g.get("ow");
    s.stride_h = ih / oh, s.stride_w = iw / ow;
    s.window_h = ih - (oh - 1) * s.stride_h, s.window_w = iw - (ow - 1) * s.stride_w;
    s.h = symmetric_axis(ih, s.window_h, s.stride_h, 0, 0);
    s.w = symmetric_axis(iw, s.window_w, s.stride_w, 0, 0);
    return s;
  }
  s.window_h = g.get("r"), s.window_w = g.get("s");
  const auto& pad = g.list("pad", 4);
  const auto& str = g.list("str", 2);
  s.stride_h = str[0], s.stride_w = str[1];
  int64_t end_h = pad[2], end_w = pad[3];
  if (g.has("ceil")) {
    // Ceil mode is end padding: as much as the rounded-up output needs.
    end_h = (ceil_out(ih, s.window_h, s.stride_h, pad[0], pad[2]) - 1) * s.stride_h + s.window_h - ih - pad[0];
    end_w = (ceil_out(iw, s.window_w, s.stride_w, pad[1], pad[3]) - 1) * s.stride_w + s.window_w - iw - pad[1];
  }
  s.h = symmetric_axis(ih, s.window_h, s.stride_h, pad[0], end_h);
  s.w = symmetric_axis(iw, s.window_w, s.stride_w, pad[1], end_w);
  return s;
}

}  // namespace dlsim::kernels::gpu
