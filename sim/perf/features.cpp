#include "perf/features.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <numeric>
#include <stdexcept>

#include "perf/glibc_heap.hpp"

namespace dlsim::perf {
namespace {

// Bytes per element of the signature's data type (tf32 is stored as fp32).
double word(const kernels::Signature& s) { return s.dtype == "fp16" || s.dtype == "bf16" ? 2.0 : 4.0; }

int64_t window_out(int64_t size, int64_t before, int64_t after, int64_t window, int64_t stride, int64_t dilation) {
  return (size + before + after - (dilation * (window - 1) + 1)) / stride + 1;
}

Features conv(const kernels::Signature& s, const std::string& phase, int pytorch_threads) {
  const auto n = s.get("n"), c = s.get("c"), h = s.get("h"), w = s.get("w"), k = s.get("k");
  const auto r = s.get("r"), q = s.get("s"), g = s.get("g");
  const auto [out_h, out_w] = conv_output_hw(s);
  const double oh = double(out_h), ow = double(out_w);
  const double src = double(n) * c * h * w, dst = double(n) * k * oh * ow, wei = double(k) * (c / g) * r * q;
  const double bytes = word(s);
  if (phase == "reorder_src") return {0, 2 * bytes * src};
  if (phase == "reorder_dst") return {0, 2 * bytes * dst};
  if (phase == "plain_reorder_weights") return {0, 2 * bytes * wei};
  Features f{2.0 * dst * (c / g) * r * q, bytes * (src + dst + wei)};
  const auto& str = s.list("str", 2);
  const auto& dil = s.list("dil", 2);
  if (pytorch_threads > 0 && pytorch_runs_natively(s, pytorch_threads))
    f.native_flops = f.flops;
  else if (r == 3 && q == 3 && g == 1 && str[0] == 1 && str[1] == 1 && dil[0] == 1 && dil[1] == 1)
    f.winograd_flops = f.flops;
  f.reduction = phase == "bwd_weights" ? double(n) * oh * ow : double(phase == "bwd_data" ? k : c) / double(g) * r * q;
  return f;
}

Features linear(const kernels::Signature& s) {
  const double n = double(s.get("n")), in = double(s.get("in")), out = double(s.get("out"));
  Features f{2.0 * n * in * out, word(s) * (n * in + n * out + in * out)};
  if (word(s) * in * out > kCachedWeightBytes) {
    f.streamed_flops = f.flops;
    f.streamed_bytes = word(s) * in * out;
  }
  if (word(s) * in * out > kL2WeightBytes) f.beyond_l2_flops = f.flops;
  return f;
}

// Output positions per channel: a window sliding with stride and padding, a fixed output
// size (adaptive pooling), or one (global pooling).
double pool_outputs(const kernels::Signature& s) {
  if (s.fields.count("r")) {
    const auto& pad = s.list("pad", 4);
    const auto& str = s.list("str", 2);
    return double(window_out(s.get("h"), pad[0], pad[2], s.get("r"), str[0], 1)) *
           double(window_out(s.get("w"), pad[1], pad[3], s.get("s"), str[1], 1));
  }
  return s.fields.count("oh") ? double(s.get("oh") * s.get("ow")) : 1.0;
}

Features pool(const kernels::Signature& s) {
  const double n = double(s.get("n")), c = double(s.get("c")), h = double(s.get("h")), w = double(s.get("w"));
  const double out = pool_outputs(s);
  const double window = s.fields.count("r") ? double(s.get("r") * s.get("s")) : h * w / out;
  return {n * c * out * window, word(s) * n * c * (h * w + out)};
}

double elements(const kernels::Signature& s) {
  const double n = double(s.get("n"));
  if (s.fields.count("e")) return n * double(s.get("e"));
  if (s.fields.count("hw")) return n * double(s.get("c")) * double(s.get("hw"));
  if (s.fields.count("classes")) return n * double(s.get("classes"));
  double sum = 0;
  for (const auto& shape : s.shapes) {
    double e = 1;
    for (auto d : shape) e *= double(d);
    sum += e;
  }
  if (sum == 0) throw std::invalid_argument("signature '" + s.text + "' gives no element count");
  return n * sum;
}

// Tensors of the operator's size read or written per element.  An element-wise operator
// reads its input and writes its output (an add reads two); its backward also reads the
// incoming gradient (1.5x).  Batch normalisation in training computes the batch's
// statistics in a pass of its own, as cuDNN's and oneDNN's kernels do: forward reads the
// input twice and writes once (3); backward reads input and gradient for the reductions,
// again for the result, and writes it (5).  At inference it applies stored statistics (2).
double streams(const std::string& op, const std::string& phase) {
  const bool inference = is_inference_phase(phase);
  if (op == "batch_norm") return inference ? 2 : phase == "fwd" ? 3 : 5;
  const double tensors = op == "add" ? 3 : 2;
  // A channel shuffle's backward is the inverse shuffle: the gradient read once, written once.
  return inference || phase == "fwd" || op == "channel_shuffle" ? tensors : 1.5 * tensors;
}

}  // namespace

double elements_written(const kernels::Signature& s) {
  if (is_optimizer(s.op)) return double(s.get("p"));
  if (s.op == "memcpy") return double(s.get("b"));
  if (s.op == "allreduce") return double(s.get("e"));
  if (is_pool(s.op)) return double(s.get("n")) * double(s.get("c")) * pool_outputs(s);
  if (s.op == "conv2d" || s.op == "linear")
    throw std::invalid_argument("'" + s.text + "' is a GEMM: its library picks its own launch");
  return elements(s);
}

std::pair<int64_t, int64_t> conv_output_hw(const kernels::Signature& s) {
  const auto& pad = s.list("pad", 4);
  const auto& str = s.list("str", 2);
  const auto& dil = s.list("dil", 2);
  return {window_out(s.get("h"), pad[0], pad[2], s.get("r"), str[0], dil[0]),
          window_out(s.get("w"), pad[1], pad[3], s.get("s"), str[1], dil[1])};
}

int64_t pytorch_parallel_copies(const kernels::Signature& s, int threads) {
  const int64_t n = s.get("n");
  std::vector<int64_t> inputs;
  for (const auto& shape : s.shapes) {
    int64_t e = n;
    for (auto d : shape) e *= d;
    inputs.push_back(e);
  }
  const int64_t output = std::accumulate(inputs.begin(), inputs.end(), int64_t{0});
  if (threads < 2 || output < kPytorchGrainSize) return 0;
  return std::count_if(inputs.begin(), inputs.end(), [](int64_t e) { return e >= kPytorchGrainSize; });
}

namespace {
// PyTorch's operators that run through TensorIterator, one loop over the output's values (a
// channel shuffle is a copy into a contiguous tensor).
bool pytorch_pointwise(const std::string& op) {
  static const char* const ops[] = {"relu", "relu6", "leaky_relu", "sigmoid", "tanh", "hardswish",
                                    "silu", "hardsigmoid", "gelu", "add", "mul", "channel_shuffle"};
  return std::find(std::begin(ops), std::end(ops), op) != std::end(ops);
}
}  // namespace

bool pytorch_runs_in_parallel(const kernels::Signature& s, int threads) {
  if (threads < 2) return false;
  if (s.op == "conv2d") return !pytorch_runs_natively(s, threads);
  if (pytorch_pointwise(s.op)) return elements(s) > double(kPytorchGrainSize);
  if (s.op == "global_avgpool")
    return double(s.get("n")) * double(s.get("c")) * double(s.get("h")) * double(s.get("w")) >
           double(kPytorchGrainSize);
  return false;
}

bool pytorch_runs_natively(const kernels::Signature& s, int threads) {
  if (s.op != "conv2d" || s.dtype != "fp32") return false;
  const auto n = s.get("n"), r = s.get("r"), q = s.get("s");
  const auto& str = s.list("str", 2);
  const auto& dil = s.list("dil", 2);
  const bool pointwise = r == 1 && q == 1 && str[0] == 1 && str[1] == 1 && dil[0] == 1 && dil[1] == 1;
  if (pointwise && n < kPointwiseNativeBelowBatch && threads <= kPointwiseNativeMaxThreads) return true;
  const bool small_input = n * s.get("c") * s.get("h") * s.get("w") <= kNativeMaxInputValues;
  return n == 1 && s.get("g") == 1 && (r <= 3 || q <= 3) && small_input;
}

namespace {

// An operator's FLOPs, bytes and the rest, but whether PyTorch runs it in a parallel region.
Features work(const kernels::Signature& s, const std::string& phase, int pytorch_threads) {
  if (s.op == "conv2d") return conv(s, phase, pytorch_threads);
  if (s.op == "linear") return linear(s);
  if (is_pool(s.op)) return pool(s);
  if (s.op == "memcpy") return {0, double(s.get("b"))};                     // a copy: its bytes
  if (s.op == "allreduce") return {0, word(s) * double(s.get("e"))};  // a collective: one rank's buffer
  if (s.op == "transfer") {  // a message: its payload's bytes
    Features f{0, double(s.get("b"))};
    if (s.get("b") >= GlibcHeap::kMaxMmapThreshold) f.mapped_bytes = f.bytes;
    return f;
  }
  if (s.op == "decode") return {0, 3.0 * double(s.get("w")) * double(s.get("h"))};  // an image: its pixels' bytes
  if (s.op == "cast") return {0, (4.0 + word(s)) * elements(s)};  // fp32 values read, written in the signature's type
  if (is_optimizer(s.op)) {
    // Per element: FLOPs and words read or written by the update (weights, gradient, state).
    const std::map<std::string, std::pair<double, double>> per = {
        {"sgd", {2, 3}}, {"sgd_momentum", {3, 5}}, {"adam", {12, 7}}};
    const double p = double(s.get("p"));
    const double tensors = s.fields.count("t") ? double(s.get("t")) : 1.0;
    return {per.at(s.op).first * p, word(s) * per.at(s.op).second * p, tensors};
  }
  if (s.op == "mul") {
    // x times y, y of x's size or one value per channel: forward reads both and writes the
    // product; backward reads the gradient for each operand's, x and y once, and writes both.
    const double n = double(s.get("n")), e = double(s.get("e")), c = double(s.get("c"));
    const double words = is_inference_phase(phase) || phase == "fwd" ? 2 * e + c : 4 * e + 2 * c;
    return {n * e, word(s) * n * words};
  }
  const double e = elements(s);
  const double per = s.op == "lrn" ? double(s.get("size")) : 1;
  Features f{e * per, word(s) * streams(s.op, phase) * e};
  if (s.op == "concat" && pytorch_threads > 0) f.tensors = double(pytorch_parallel_copies(s, pytorch_threads));
  return f;
}

}  // namespace

Features kernel_features(const kernels::Signature& s, const std::string& phase, int pytorch_threads) {
  Features f = work(s, phase, pytorch_threads);
  f.parallel = pytorch_runs_in_parallel(s, pytorch_threads) ? 1 : 0;
  return f;
}

bool is_inference_phase(const std::string& phase) {
  return phase == "infer" || phase == kInferOnRequestThread || phase == kInferInPass ||
         phase == kInferInPassOnRequestThread || phase == kInferInPassTakingTurns || phase == kInferInPassSharedCore;
}

bool is_optimizer(const std::string& op) { return op == "sgd" || op == "sgd_momentum" || op == "adam"; }

bool is_pool(const std::string& op) {
  return op == "maxpool" || op == "avgpool" || op == "global_avgpool" || op == "adaptive_avg_pool" ||
         op == "global_maxpool";
}

std::vector<std::string> model_features(const std::string& op, bool pytorch) {
  if (op == "conv2d" && pytorch)
    return {"one", "direct_flops", "winograd_flops", "native_flops", "bytes", "reduction", "parallel"};
  if (op == "conv2d") return {"one", "direct_flops", "winograd_flops", "bytes", "reduction"};
  if (op == "linear" && pytorch) return {"one", "flops", "beyond_l2_flops", "streamed_flops", "unstreamed_bytes"};
  if (op == "linear") return {"one", "flops", "bytes"};
  if (op == "transfer") return {"one", "bytes", "mapped_bytes"};
  if (is_optimizer(op) || (op == "concat" && pytorch)) return {"one", "bytes", "tensors"};
  if (op == "global_avgpool" && pytorch) return {"one", "flops", "bytes", "parallel"};
  if (is_pool(op)) return {"one", "flops", "bytes"};
  if (pytorch_pointwise(op) && pytorch) return {"one", "bytes", "parallel"};
  return {"one", "bytes"};
}

namespace {
const char* const kFeatureNames[] = {"one",   "flops",        "direct_flops", "winograd_flops", "native_flops",
                                     "bytes", "tensors",      "mapped_bytes", "reduction",      "streamed_flops",
                                     "unstreamed_bytes", "parallel",     "beyond_l2_flops"};
}  // namespace

bool is_feature(const std::string& name) {
  return std::find(std::begin(kFeatureNames), std::end(kFeatureNames), name) != std::end(kFeatureNames);
}

std::string feature_names() {
  std::string out;
  for (const char* n : kFeatureNames) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

double feature_value(const Features& f, const std::string& name) {
  if (name == "one") return 1.0;
  if (name == "flops") return f.flops;
  if (name == "direct_flops") return f.flops - f.winograd_flops - f.native_flops;
  if (name == "winograd_flops") return f.winograd_flops;
  if (name == "native_flops") return f.native_flops;
  if (name == "bytes") return f.bytes;
  if (name == "tensors") return f.tensors;
  if (name == "parallel") return f.parallel;
  if (name == "mapped_bytes") return f.mapped_bytes;
  if (name == "reduction") return f.reduction;
  if (name == "streamed_flops") return f.streamed_flops;
  if (name == "beyond_l2_flops") return f.beyond_l2_flops;
  if (name == "unstreamed_bytes") return f.bytes - f.streamed_bytes;
  throw std::invalid_argument("unknown model feature '" + name + "'");
}

}  // namespace dlsim::perf
