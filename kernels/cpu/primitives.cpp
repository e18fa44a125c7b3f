#include "primitives.hpp"

#include "blas.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <unordered_map>

namespace dlsim::kernels {
namespace {

using dnnl::algorithm;
using dnnl::memory;
using dnnl::prop_kind;
using dt = memory::data_type;
using tag = memory::format_tag;
using Args = std::unordered_map<int, memory>;

// A primitive with its arguments, allocated once and run many times.
class PrimitiveKernel : public Kernel {
 public:
  PrimitiveKernel(dnnl::primitive p, Args args, dnnl::stream& s) : p_(std::move(p)), args_(std::move(args)), s_(s) {}
  void run() override {
    p_.execute(s_, args_);
    s_.wait();
  }

 private:
  dnnl::primitive p_;
  Args args_;
  dnnl::stream& s_;
};

// A plain loop over parameters: what frameworks run for optimizer updates.
class LoopKernel : public Kernel {
 public:
  explicit LoopKernel(std::function<void()> body) : body_(std::move(body)) {}
  void run() override { body_(); }

 private:
  std::function<void()> body_;
};

memory filled(const memory::desc& md, const dnnl::engine& e) {
  memory m(md, e);
  auto* p = static_cast<float*>(m.get_data_handle());
  const size_t n = md.get_size() / sizeof(float);
  for (size_t i = 0; i < n; ++i) p[i] = 0.01f * static_cast<float>(static_cast<int>(i % 17) - 8);
  return m;
}

std::unique_ptr<Kernel> wrap(dnnl::primitive p, Args args, dnnl::stream& s) {
  return std::make_unique<PrimitiveKernel>(std::move(p), std::move(args), s);
}

std::unique_ptr<Kernel> reorder(const memory::desc& from, const memory::desc& to, const dnnl::engine& e,
                                 dnnl::stream& s) {
  memory a = filled(from, e), b(to, e);
  return wrap(dnnl::reorder(a, b), {{DNNL_ARG_FROM, a}, {DNNL_ARG_TO, b}}, s);
}

struct Ctx {
  const Signature& sig;
  const dnnl::engine& e;
  dnnl::stream& s;
  bool training;
  std::vector<PhaseKernel> out;
  void add(const std::string& phase, std::unique_ptr<Kernel> k) { out.push_back({phase, std::move(k)}); }
};

// A convolution signature's tensor shapes and window, in oneDNN's terms.
struct ConvGeometry {
  memory::dims src, dst, bias, wei, strides, dilates, pad_l, pad_r;
  bool grouped = false;
  bool has_bias = false;

  explicit ConvGeometry(const Signature& g) {
    const int64_t n = g.get("n"), ic = g.get("c"), ih = g.get("h"), iw = g.get("w"), oc = g.get("k");
    const int64_t kh = g.get("r"), kw = g.get("s"), groups = g.get("g");
    const auto& pad = g.list("pad", 4);
    const auto& str = g.list("str", 2);
    const auto& dil = g.list("dil", 2);
    const int64_t oh = (ih + pad[0] + pad[2] - (dil[0] * (kh - 1) + 1)) / str[0] + 1;
    const int64_t ow = (iw + pad[1] + pad[3] - (dil[1] * (kw - 1) + 1)) / str[1] + 1;
    src = {n, ic, ih, iw}, dst = {n, oc, oh, ow}, bias = {oc};
    grouped = groups != 1;
    wei = grouped ? memory::dims{groups, oc / groups, ic / groups, kh, kw} : memory::dims{oc, ic, kh, kw};
    strides = {str[0], str[1]}, dilates = {dil[0] - 1, dil[1] - 1}, pad_l = {pad[0], pad[1]}, pad_r = {pad[2], pad[3]};
    has_bias = g.has("bias");
  }
};

void conv(Ctx& c) {
  const ConvGeometry geo(c.sig);
  const auto &src = geo.src, &dst = geo.dst, &bias = geo.bias, &wei = geo.wei, &strides = geo.strides,
             &dilates = geo.dilates, &pl = geo.pad_l, &pr = geo.pad_r;
  const bool has_bias = geo.has_bias;
  const memory::desc any_src(src, dt::f32, tag::any), any_dst(dst, dt::f32, tag::any), any_wei(wei, dt::f32, tag::any);
  const memory::desc bias_md = has_bias ? memory::desc(bias, dt::f32, tag::x) : memory::desc();
  const auto prop = c.training ? prop_kind::forward_training : prop_kind::forward_inference;
  const dnnl::convolution_forward::primitive_desc fwd(
      {prop, algorithm::convolution_direct, any_src, any_wei, bias_md, any_dst, strides, dilates, pl, pr}, c.e);
  memory s = filled(fwd.src_desc(), c.e), w = filled(fwd.weights_desc(), c.e), d(fwd.dst_desc(), c.e);
  Args args{{DNNL_ARG_SRC, s}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DST, d}};
  if (has_bias) args[DNNL_ARG_BIAS] = filled(fwd.bias_desc(), c.e);
  c.add("fwd", wrap(dnnl::convolution_forward(fwd), args, c.s));
  const memory::desc plain_src(src, dt::f32, tag::nchw), plain_dst(dst, dt::f32, tag::nchw);
  if (fwd.src_desc() != plain_src) c.add("reorder_src", reorder(plain_src, fwd.src_desc(), c.e, c.s));
  if (fwd.dst_desc() != plain_dst) c.add("reorder_dst", reorder(fwd.dst_desc(), plain_dst, c.e, c.s));
  if (!c.training) return;

  const dnnl::convolution_backward_data::primitive_desc bwd_data(
      {algorithm::convolution_direct, any_src, any_wei, any_dst, strides, dilates, pl, pr}, c.e, fwd);
  memory dd = filled(bwd_data.diff_dst_desc(), c.e), ds(bwd_data.diff_src_desc(), c.e),
         wd = filled(bwd_data.weights_desc(), c.e);
  c.add("bwd_data", wrap(dnnl::convolution_backward_data(bwd_data),
                         {{DNNL_ARG_DIFF_DST, dd}, {DNNL_ARG_WEIGHTS, wd}, {DNNL_ARG_DIFF_SRC, ds}}, c.s));

  const dnnl::convolution_backward_weights::primitive_desc bwd_w(
      {algorithm::convolution_direct, any_src, any_wei, bias_md, any_dst, strides, dilates, pl, pr}, c.e, fwd);
  memory bs = filled(bwd_w.src_desc(), c.e), bdd = filled(bwd_w.diff_dst_desc(), c.e), dw(bwd_w.diff_weights_desc(), c.e);
  Args wargs{{DNNL_ARG_SRC, bs}, {DNNL_ARG_DIFF_DST, bdd}, {DNNL_ARG_DIFF_WEIGHTS, dw}};
  if (has_bias) wargs[DNNL_ARG_DIFF_BIAS] = memory(bwd_w.diff_bias_desc(), c.e);
  c.add("bwd_weights", wrap(dnnl::convolution_backward_weights(bwd_w), wargs, c.s));
}

// The same convolution on plain NCHW activations, as PyTorch 1.13's mkldnn_convolution
// hands them to oneDNN (which then picks its NCHW implementations, often GEMM-based), with
// the weights reordered from OIHW to the layout oneDNN wants on every call.
void conv_plain(Ctx& c) {
  const ConvGeometry geo(c.sig);
  const auto &strides = geo.strides, &dilates = geo.dilates, &pl = geo.pad_l, &pr = geo.pad_r;
  const bool has_bias = geo.has_bias;
  const memory::desc src(geo.src, dt::f32, tag::nchw), dst(geo.dst, dt::f32, tag::nchw);
  const memory::desc any_wei(geo.wei, dt::f32, tag::any), plain_wei(geo.wei, dt::f32, geo.grouped ? tag::goihw : tag::oihw);
  const memory::desc bias_md = has_bias ? memory::desc(geo.bias, dt::f32, tag::x) : memory::desc();
  const auto prop = c.training ? prop_kind::forward_training : prop_kind::forward_inference;
  const dnnl::convolution_forward::primitive_desc fwd(
      {prop, algorithm::convolution_direct, src, any_wei, bias_md, dst, strides, dilates, pl, pr}, c.e);
  Args args{{DNNL_ARG_SRC, filled(src, c.e)}, {DNNL_ARG_WEIGHTS, filled(fwd.weights_desc(), c.e)},
            {DNNL_ARG_DST, memory(dst, c.e)}};
  if (has_bias) args[DNNL_ARG_BIAS] = filled(fwd.bias_desc(), c.e);
  c.add("plain_fwd", wrap(dnnl::convolution_forward(fwd), args, c.s));
  if (fwd.weights_desc() != plain_wei) c.add("plain_reorder_weights", reorder(plain_wei, fwd.weights_desc(), c.e, c.s));
  if (!c.training) return;
  const dnnl::convolution_backward_data::primitive_desc bd(
      {algorithm::convolution_direct, src, any_wei, dst, strides, dilates, pl, pr}, c.e, fwd);
  c.add("plain_bwd_data", wrap(dnnl::convolution_backward_data(bd),
                               {{DNNL_ARG_DIFF_DST, filled(dst, c.e)}, {DNNL_ARG_WEIGHTS, filled(bd.weights_desc(), c.e)},
                                {DNNL_ARG_DIFF_SRC, memory(src, c.e)}},
                               c.s));
  const dnnl::convolution_backward_weights::primitive_desc bw(
      {algorithm::convolution_direct, src, any_wei, bias_md, dst, strides, dilates, pl, pr}, c.e, fwd);
  Args wargs{{DNNL_ARG_SRC, filled(src, c.e)}, {DNNL_ARG_DIFF_DST, filled(dst, c.e)},
             {DNNL_ARG_DIFF_WEIGHTS, memory(bw.diff_weights_desc(), c.e)}};
  if (has_bias) wargs[DNNL_ARG_DIFF_BIAS] = memory(bw.diff_bias_desc(), c.e);
  c.add("plain_bwd_weights", wrap(dnnl::convolution_backward_weights(bw), wargs, c.s));
}

void linear(Ctx& c) {
  const auto& g = c.sig;
  const int64_t n = g.get("n"), in = g.get("in"), out = g.get("out");
  const bool has_bias = g.has("bias");
  const memory::desc src({n, in}, dt::f32, tag::any), wei({out, in}, dt::f32, tag::any), dst({n, out}, dt::f32, tag::any);
  const memory::desc bias_md = has_bias ? memory::desc({out}, dt::f32, tag::x) : memory::desc();
  const auto prop = c.training ? prop_kind::forward_training : prop_kind::forward_inference;
  const dnnl::inner_product_forward::primitive_desc fwd({prop, src, wei, bias_md, dst}, c.e);
  Args args{{DNNL_ARG_SRC, filled(fwd.src_desc(), c.e)},
            {DNNL_ARG_WEIGHTS, filled(fwd.weights_desc(), c.e)},
            {DNNL_ARG_DST, memory(fwd.dst_desc(), c.e)}};
  if (has_bias) args[DNNL_ARG_BIAS] = filled(fwd.bias_desc(), c.e);
  c.add("fwd", wrap(dnnl::inner_product_forward(fwd), args, c.s));
  if (!c.training) return;
  const dnnl::inner_product_backward_data::primitive_desc bd({src, wei, dst}, c.e, fwd);
  c.add("bwd_data", wrap(dnnl::inner_product_backward_data(bd),
                         {{DNNL_ARG_DIFF_DST, filled(bd.diff_dst_desc(), c.e)},
                          {DNNL_ARG_WEIGHTS, filled(bd.weights_desc(), c.e)},
                          {DNNL_ARG_DIFF_SRC, memory(bd.diff_src_desc(), c.e)}},
                         c.s));
  const dnnl::inner_product_backward_weights::primitive_desc bw({src, wei, bias_md, dst}, c.e, fwd);
  Args wargs{{DNNL_ARG_SRC, filled(bw.src_desc(), c.e)},
             {DNNL_ARG_DIFF_DST, filled(bw.diff_dst_desc(), c.e)},
             {DNNL_ARG_DIFF_WEIGHTS, memory(bw.diff_weights_desc(), c.e)}};
  if (has_bias) wargs[DNNL_ARG_DIFF_BIAS] = memory(bw.diff_bias_desc(), c.e);
  c.add("bwd_weights", wrap(dnnl::inner_product_backward_weights(bw), wargs, c.s));
}

// Pooling, including the global and adaptive forms (a window as large as the input).
void pool(Ctx& c, algorithm alg, bool global) {
  const auto& g = c.sig;
  const int64_t n = g.get("n"), ch = g.get("c"), ih = g.get("h"), iw = g.get("w");
  int64_t kh = ih, kw = iw, sh = 1, sw = 1, pt = 0, pl = 0, pb = 0, pr = 0, oh = 1, ow = 1;
  if (!global) {
    kh = g.get("r"), kw = g.get("s");
    const auto& pad = g.list("pad", 4);
    const auto& str = g.list("str", 2);
    sh = str[0], sw = str[1], pt = pad[0], pl = pad[1], pb = pad[2], pr = pad[3];
    auto out = [&](int64_t size, int64_t k, int64_t s, int64_t b, int64_t e) {
      int64_t o = g.has("ceil") ? (size + b + e - k + s - 1) / s + 1 : (size + b + e - k) / s + 1;
      if (g.has("ceil") && (o - 1) * s >= size + b) --o;
      return o;
    };
    oh = out(ih, kh, sh, pt, pb), ow = out(iw, kw, sw, pl, pr);
    // Ceil mode is extra padding at the end, as frameworks lower it.
    pb = (oh - 1) * sh + kh - ih - pt, pr = (ow - 1) * sw + kw - iw - pl;
  } else if (g.fields.count("oh")) {
    oh = g.get("oh"), ow = g.get("ow");
    sh = ih / oh, sw = iw / ow, kh = ih - (oh - 1) * sh, kw = iw - (ow - 1) * sw;
  }
  const memory::desc src({n, ch, ih, iw}, dt::f32, tag::nchw), dst({n, ch, oh, ow}, dt::f32, tag::nchw);
  const auto prop = c.training ? prop_kind::forward_training : prop_kind::forward_inference;
  const dnnl::pooling_v2_forward::primitive_desc fwd(
      {prop, alg, src, dst, {sh, sw}, {kh, kw}, {0, 0}, {pt, pl}, {std::max<int64_t>(pb, 0), std::max<int64_t>(pr, 0)}},
      c.e);
  memory ws = fwd.workspace_desc().get_size() ? memory(fwd.workspace_desc(), c.e) : memory();
  Args args{{DNNL_ARG_SRC, filled(src, c.e)}, {DNNL_ARG_DST, memory(dst, c.e)}};
  if (ws) args[DNNL_ARG_WORKSPACE] = ws;
  c.add("fwd", wrap(dnnl::pooling_v2_forward(fwd), args, c.s));
  if (!c.training) return;
  const dnnl::pooling_v2_backward::primitive_desc bwd(
      {alg, src, dst, {sh, sw}, {kh, kw}, {0, 0}, {pt, pl}, {std::max<int64_t>(pb, 0), std::max<int64_t>(pr, 0)}}, c.e,
      fwd);
  Args bargs{{DNNL_ARG_DIFF_DST, filled(dst, c.e)}, {DNNL_ARG_DIFF_SRC, memory(src, c.e)}};
  if (ws) bargs[DNNL_ARG_WORKSPACE] = ws;
  c.add("bwd_data", wrap(dnnl::pooling_v2_backward(bwd), bargs, c.s));
}

memory::desc flat(const Signature& g, const std::string& elements_field) {
  return memory::desc({g.get("n"), g.get(elements_field)}, dt::f32, tag::nc);
}

void eltwise(Ctx& c, algorithm alg, float alpha, float beta) {
  const memory::desc md = flat(c.sig, "e");
  const auto prop = c.training ? prop_kind::forward_training : prop_kind::forward_inference;
  const dnnl::eltwise_forward::primitive_desc fwd({prop, alg, md, alpha, beta}, c.e);
  c.add("fwd", wrap(dnnl::eltwise_forward(fwd), {{DNNL_ARG_SRC, filled(md, c.e)}, {DNNL_ARG_DST, memory(md, c.e)}}, c.s));
  if (!c.training) return;
  const dnnl::eltwise_backward::primitive_desc bwd({alg, md, md, alpha, beta}, c.e, fwd);
  c.add("bwd_data", wrap(dnnl::eltwise_backward(bwd),
                         {{DNNL_ARG_SRC, filled(md, c.e)}, {DNNL_ARG_DIFF_DST, filled(md, c.e)},
                          {DNNL_ARG_DIFF_SRC, memory(md, c.e)}},
                         c.s));
}

// oneDNN 2.6 has no hard sigmoid: x / 6 + 1/2 clipped to [0, 1] runs as one kernel, a linear
// eltwise with a clip post-op.  Its gradient is the clip's, which reads and writes the same
// tensors.
void hardsigmoid(Ctx& c) {
  const memory::desc md = flat(c.sig, "e");
  const auto prop = c.training ? prop_kind::forward_training : prop_kind::forward_inference;
  dnnl::post_ops clip;
  clip.append_eltwise(1.f, algorithm::eltwise_clip_v2, 0.f, 1.f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(clip);
  const dnnl::eltwise_forward::primitive_desc fwd({prop, algorithm::eltwise_linear, md, 1.f / 6, 0.5f}, attr, c.e);
  c.add("fwd",
        wrap(dnnl::eltwise_forward(fwd), {{DNNL_ARG_SRC, filled(md, c.e)}, {DNNL_ARG_DST, memory(md, c.e)}}, c.s));
  if (!c.training) return;
  const dnnl::eltwise_forward::primitive_desc hint({prop, algorithm::eltwise_clip_v2, md, 0.f, 1.f}, c.e);
  const dnnl::eltwise_backward::primitive_desc bwd({algorithm::eltwise_clip_v2, md, md, 0.f, 1.f}, c.e, hint);
  c.add("bwd_data", wrap(dnnl::eltwise_backward(bwd),
                         {{DNNL_ARG_SRC, filled(md, c.e)}, {DNNL_ARG_DIFF_DST, filled(md, c.e)},
                          {DNNL_ARG_DIFF_SRC, memory(md, c.e)}},
                         c.s));
}

void batch_norm(Ctx& c) {
  const auto& g = c.sig;
  const int64_t n = g.get("n"), ch = g.get("c"), hw = g.get("hw");
  const memory::desc md({n, ch, hw, 1}, dt::f32, tag::nchw);
  const auto flags = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
  const auto prop = c.training ? prop_kind::forward_training : prop_kind::forward_inference;
  const auto inference_flags = c.training ? flags : flags | dnnl::normalization_flags::use_global_stats;
  const dnnl::batch_normalization_forward::primitive_desc fwd({prop, md, 1e-5f, inference_flags}, c.e);
  memory mean = filled(fwd.mean_desc(), c.e), var = filled(fwd.variance_desc(), c.e);
  for (size_t i = 0; i < fwd.variance_desc().get_size() / sizeof(float); ++i)
    static_cast<float*>(var.get_data_handle())[i] = 1.0f;
  // Per-channel scale and shift (not weights_desc(), which describes the legacy packed pair).
  const memory::desc channel_md({ch}, dt::f32, tag::x);
  memory scale = filled(channel_md, c.e), shift = filled(channel_md, c.e);
  memory src = filled(md, c.e);
  c.add("fwd", wrap(dnnl::batch_normalization_forward(fwd),
                    {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, memory(md, c.e)}, {DNNL_ARG_MEAN, mean},
                     {DNNL_ARG_VARIANCE, var}, {DNNL_ARG_SCALE, scale}, {DNNL_ARG_SHIFT, shift}},
                    c.s));
  if (!c.training) return;
  const dnnl::batch_normalization_backward::primitive_desc bwd({prop_kind::backward, md, md, 1e-5f, flags}, c.e, fwd);
  c.add("bwd_data", wrap(dnnl::batch_normalization_backward(bwd),
                         {{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, filled(md, c.e)}, {DNNL_ARG_MEAN, mean},
                          {DNNL_ARG_VARIANCE, var}, {DNNL_ARG_SCALE, scale}, {DNNL_ARG_SHIFT, shift},
                          {DNNL_ARG_DIFF_SRC, memory(md, c.e)}, {DNNL_ARG_DIFF_SCALE, memory(channel_md, c.e)},
                          {DNNL_ARG_DIFF_SHIFT, memory(channel_md, c.e)}},
                         c.s));
}

// A layer norm over each position's channels, laid out channels last: hw rows of c values a
// sample, each normalised by its own mean and variance.
void layer_norm(Ctx& c) {
  const auto& g = c.sig;
  const int64_t ch = g.get("c");
  const memory::desc md({g.get("n") * g.get("hw"), ch}, dt::f32, tag::ab);
  const auto flags = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
  const auto prop = c.training ? prop_kind::forward_training : prop_kind::forward_inference;
  const dnnl::layer_normalization_forward::primitive_desc fwd({prop, md, 1e-6f, flags}, c.e);
  memory mean = memory(fwd.mean_desc(), c.e), var = memory(fwd.variance_desc(), c.e);
  const memory::desc channel_md({ch}, dt::f32, tag::x);
  memory scale = filled(channel_md, c.e), shift = filled(channel_md, c.e);
  memory src = filled(md, c.e);
  c.add("fwd", wrap(dnnl::layer_normalization_forward(fwd),
                    {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, memory(md, c.e)}, {DNNL_ARG_MEAN, mean},
                     {DNNL_ARG_VARIANCE, var}, {DNNL_ARG_SCALE, scale}, {DNNL_ARG_SHIFT, shift}},
                    c.s));
  if (!c.training) return;
  const dnnl::layer_normalization_backward::primitive_desc bwd({prop_kind::backward, md, md, 1e-6f, flags}, c.e, fwd);
  c.add("bwd_data", wrap(dnnl::layer_normalization_backward(bwd),
                         {{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, filled(md, c.e)}, {DNNL_ARG_MEAN, mean},
                          {DNNL_ARG_VARIANCE, var}, {DNNL_ARG_SCALE, scale}, {DNNL_ARG_SHIFT, shift},
                          {DNNL_ARG_DIFF_SRC, memory(md, c.e)}, {DNNL_ARG_DIFF_SCALE, memory(channel_md, c.e)},
                          {DNNL_ARG_DIFF_SHIFT, memory(channel_md, c.e)}},
                         c.s));
}

void add(Ctx& c) {
  const memory::desc md = flat(c.sig, "e");
  const dnnl::binary::primitive_desc pd({algorithm::binary_add, md, md, md}, c.e);
  c.add("fwd", wrap(dnnl::binary(pd),
                    {{DNNL_ARG_SRC_0, filled(md, c.e)}, {DNNL_ARG_SRC_1, filled(md, c.e)}, {DNNL_ARG_DST, memory(md, c.e)}},
                    c.s));
}

// A squeeze-and-excitation's product: x (c channels of e / c pixels) times one factor per
// channel.  Backward is what autograd runs, with no one primitive for it: x's gradient
// g * y, then y's, g * x summed over each channel's pixels.
void mul(Ctx& c) {
  const int64_t n = c.sig.get("n"), e = c.sig.get("e"), ch = c.sig.get("c");
  if (ch <= 0 || e % ch != 0)
    throw std::invalid_argument("mul signature '" + c.sig.text + "': c must divide e");
  const memory::desc x({n, ch, e / ch, 1}, dt::f32, tag::nchw), y({n, ch, 1, 1}, dt::f32, tag::nchw);
  const dnnl::binary::primitive_desc by_factor({algorithm::binary_mul, x, y, x}, c.e);
  const memory xs = filled(x, c.e), ys = filled(y, c.e);
  const Args forward{{DNNL_ARG_SRC_0, xs}, {DNNL_ARG_SRC_1, ys}, {DNNL_ARG_DST, memory(x, c.e)}};
  c.add("fwd", wrap(dnnl::binary(by_factor), forward, c.s));
  if (!c.training) return;
  const dnnl::binary::primitive_desc by_tensor({algorithm::binary_mul, x, x, x}, c.e);
  // The sum over each channel's pixels as a product with a vector of ones: oneDNN 2.6's
  // reduction primitive runs its reference code on this shape, and a pooling over the whole
  // plane a slow one (28 and 2.8 ms against 1.1 ms for PyTorch's whole backward of
  // 8x96x56x56 on one thread).
  const memory::desc rows({n * ch, e / ch}, dt::f32, tag::ab), ones({e / ch, 1}, dt::f32, tag::ab),
      sums({n * ch, 1}, dt::f32, tag::ab);
  const dnnl::matmul::primitive_desc per_channel({rows, ones, sums}, c.e);
  const memory g = filled(x, c.e), product(x, c.e);
  const Args gradient_x{{DNNL_ARG_SRC_0, g}, {DNNL_ARG_SRC_1, ys}, {DNNL_ARG_DST, memory(x, c.e)}};
  auto dx = wrap(dnnl::binary(by_factor), gradient_x, c.s);
  auto gx = wrap(dnnl::binary(by_tensor), {{DNNL_ARG_SRC_0, g}, {DNNL_ARG_SRC_1, xs}, {DNNL_ARG_DST, product}}, c.s);
  const Args gradient_y{{DNNL_ARG_SRC, memory(rows, c.e, product.get_data_handle())},
                        {DNNL_ARG_WEIGHTS, filled(ones, c.e)}, {DNNL_ARG_DST, memory(sums, c.e)}};
  auto dy = wrap(dnnl::matmul(per_channel), gradient_y, c.s);
  c.add("bwd_data", std::make_unique<LoopKernel>(
                        [dx = std::shared_ptr<Kernel>(std::move(dx)), gx = std::shared_ptr<Kernel>(std::move(gx)),
                         dy = std::shared_ptr<Kernel>(std::move(dy))] {
                          dx->run();
                          gx->run();
                          dy->run();
                        }));
}

void softmax(Ctx& c, const std::string& field) {
  const memory::desc md = flat(c.sig, field);
  const auto prop = c.training ? prop_kind::forward_training : prop_kind::forward_inference;
  const dnnl::softmax_v2_forward::primitive_desc fwd({prop, algorithm::softmax_accurate, md, md, 1}, c.e);
  memory dst = filled(md, c.e);
  c.add("fwd", wrap(dnnl::softmax_v2_forward(fwd), {{DNNL_ARG_SRC, filled(md, c.e)}, {DNNL_ARG_DST, dst}}, c.s));
  if (!c.training) return;
  const dnnl::softmax_v2_backward::primitive_desc bwd({algorithm::softmax_accurate, md, md, md, 1}, c.e, fwd);
  c.add("bwd_data", wrap(dnnl::softmax_v2_backward(bwd),
                         {{DNNL_ARG_DST, dst}, {DNNL_ARG_DIFF_DST, filled(md, c.e)}, {DNNL_ARG_DIFF_SRC, memory(md, c.e)}},
                         c.s));
}

void lrn(Ctx& c) {
  const auto& g = c.sig;
  const int64_t n = g.get("n"), ch = g.get("c"), hw = g.get("hw");
  const memory::desc md({n, ch, hw, 1}, dt::f32, tag::nchw);
  const auto prop = c.training ? prop_kind::forward_training : prop_kind::forward_inference;
  const dnnl::lrn_forward::primitive_desc fwd(
      {prop, algorithm::lrn_across_channels, md, g.get("size"), 1e-4f, 0.75f, 1.0f}, c.e);
  memory src = filled(md, c.e);
  memory ws = fwd.workspace_desc().get_size() ? memory(fwd.workspace_desc(), c.e) : memory();
  Args args{{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, memory(md, c.e)}};
  if (ws) args[DNNL_ARG_WORKSPACE] = ws;
  c.add("fwd", wrap(dnnl::lrn_forward(fwd), args, c.s));
  if (!c.training) return;
  const dnnl::lrn_backward::primitive_desc bwd(
      {algorithm::lrn_across_channels, md, md, g.get("size"), 1e-4f, 0.75f, 1.0f}, c.e, fwd);
  Args bargs{{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, filled(md, c.e)}, {DNNL_ARG_DIFF_SRC, memory(md, c.e)}};
  if (ws) bargs[DNNL_ARG_WORKSPACE] = ws;
  c.add("bwd_data", wrap(dnnl::lrn_backward(bwd), bargs, c.s));
}

void concat(Ctx& c) {
  const int64_t n = c.sig.get("n");
  std::vector<memory::desc> srcs;
  Args args;
  int i = 0;
  for (const auto& shape : c.sig.shapes) {
    memory::dims dims{n};
    dims.insert(dims.end(), shape.begin(), shape.end());
    while (dims.size() < 4) dims.push_back(1);
    srcs.emplace_back(dims, dt::f32, tag::nchw);
    args[DNNL_ARG_MULTIPLE_SRC + i++] = filled(srcs.back(), c.e);
  }
  if (srcs.empty()) throw std::invalid_argument("concat signature '" + c.sig.text + "' lists no input shapes");
  const dnnl::concat::primitive_desc pd(1, srcs, c.e);
  args[DNNL_ARG_DST] = memory(pd.dst_desc(), c.e);
  c.add("fwd", wrap(dnnl::concat(pd), args, c.s));
}

// ShuffleNet's channel shuffle; its backward is the inverse shuffle of the gradient.
void shuffle(Ctx& c) {
  const auto& g = c.sig;
  const memory::desc md({g.get("n"), g.get("c"), g.get("hw"), 1}, dt::f32, tag::nchw);
  const auto groups = static_cast<int>(g.get("g"));
  const auto prop = c.training ? prop_kind::forward_training : prop_kind::forward_inference;
  const dnnl::shuffle_forward::primitive_desc fwd({prop, md, 1, groups}, c.e);
  c.add("fwd", wrap(dnnl::shuffle_forward(fwd), {{DNNL_ARG_SRC, filled(md, c.e)}, {DNNL_ARG_DST, memory(md, c.e)}},
                    c.s));
  if (!c.training) return;
  const dnnl::shuffle_backward::primitive_desc bwd({md, 1, groups}, c.e, fwd);
  c.add("bwd_data", wrap(dnnl::shuffle_backward(bwd),
                         {{DNNL_ARG_DIFF_DST, filled(md, c.e)}, {DNNL_ARG_DIFF_SRC, memory(md, c.e)}}, c.s));
}

}  // namespace

std::vector<PhaseKernel> make_kernels(const Signature& sig, const dnnl::engine& engine, dnnl::stream& stream,
                                      bool training) {
  if (sig.dtype != "fp32")
    throw std::invalid_argument("kernels/cpu measures fp32 only; signature '" + sig.text + "' is " + sig.dtype);
  Ctx c{sig, engine, stream, training, {}};
  const std::string& op = sig.op;
  if (op == "conv2d") {
    conv(c);
    conv_plain(c);
    for (auto& k : make_blas_pointwise_conv_kernels(sig, training)) c.out.push_back(std::move(k));
  }
  else if (op == "linear") {
    linear(c);
    for (auto& k : make_blas_linear_kernels(sig, training)) c.out.push_back(std::move(k));
  }
  else if (op == "maxpool") pool(c, algorithm::pooling_max, false);
  else if (op == "avgpool") pool(c, algorithm::pooling_avg_include_padding, false);
  else if (op == "global_avgpool" || op == "adaptive_avg_pool") pool(c, algorithm::pooling_avg_exclude_padding, true);
  else if (op == "global_maxpool") pool(c, algorithm::pooling_max, true);
  else if (op == "relu") eltwise(c, algorithm::eltwise_relu, 0.f, 0.f);
  else if (op == "relu6") eltwise(c, algorithm::eltwise_clip_v2, 0.f, 6.f);
  else if (op == "sigmoid") eltwise(c, algorithm::eltwise_logistic, 0.f, 0.f);
  else if (op == "tanh") eltwise(c, algorithm::eltwise_tanh, 0.f, 0.f);
  else if (op == "leaky_relu") eltwise(c, algorithm::eltwise_relu, 0.01f, 0.f);
  else if (op == "gelu") eltwise(c, algorithm::eltwise_gelu_erf, 0.f, 0.f);
  else if (op == "silu") eltwise(c, algorithm::eltwise_swish, 1.f, 0.f);
  else if (op == "hardswish") eltwise(c, algorithm::eltwise_hardswish, 0.f, 0.f);
  else if (op == "hardsigmoid") hardsigmoid(c);
  else if (op == "batch_norm") batch_norm(c);
  else if (op == "layer_norm") layer_norm(c);
  else if (op == "add") add(c);
  else if (op == "mul") mul(c);
  else if (op == "softmax") softmax(c, "e");
  else if (op == "softmax_cross_entropy") softmax(c, "classes");
  else if (op == "lrn") lrn(c);
  else if (op == "concat") concat(c);
  else if (op == "channel_shuffle") shuffle(c);
  else throw std::invalid_argument("oneDNN has no primitive for '" + op + "' (signature '" + sig.text + "')");
  return std::move(c.out);
}

}  // namespace dlsim::kernels
