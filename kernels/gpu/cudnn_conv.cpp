#include "cudnn_conv.hpp"

#include <memory>
#include <stdexcept>
#include <vector>

#include "buffers.hpp"
#include "check.hpp"
#include "cudnn_descriptors.hpp"
#include "geometry.hpp"

namespace dlsim::kernels::gpu {
namespace {

// One row of a cudnnFind result, whichever direction it searched.
struct Candidate {
  int algo = -1;
  cudnnStatus_t status = CUDNN_STATUS_NOT_SUPPORTED;
  float time_ms = 0;
  size_t memory = 0;
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
};

struct Conv {
  Precision precision;
  ConvShape shape;
  TensorDesc x, y, bias;
  FilterDesc w;
  ConvDesc conv;
  DeviceBuffer x_data, w_data, y_data, bias_data, workspace;
  int algo = 0;
};

// fp32 must not use TF32: CUDNN_DEFAULT_MATH would allow it on Ampere and later, so fp32
// asks for FMA kernels only, as PyTorch does with allow_tf32 off.
cudnnMathType_t requested_math(Precision p) { return p == Precision::fp32 ? CUDNN_FMA_MATH : CUDNN_TENSOR_OP_MATH; }

const char* math_name(cudnnMathType_t m) {
  switch (m) {
    case CUDNN_DEFAULT_MATH: return "default";
    case CUDNN_TENSOR_OP_MATH: return "tensor_op";
    case CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION: return "tensor_op_allow_conversion";
    case CUDNN_FMA_MATH: return "fma";
  }
  return "unknown";
}

const char* algo_name(const std::string& phase, int algo) {
  static const char* const fwd[] = {"IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT",
                                    "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED"};
  static const char* const bwd_data[] = {"ALGO_0", "ALGO_1", "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED"};
  static const char* const bwd_filter[] = {"ALGO_0", "ALGO_1", "FFT", "ALGO_3", "WINOGRAD", "WINOGRAD_NONFUSED",
                                           "FFT_TILING"};
  if (phase == "fwd" && algo >= 0 && algo < CUDNN_CONVOLUTION_FWD_ALGO_COUNT) return fwd[algo];
  if (phase == "bwd_data" && algo >= 0 && algo < CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT) return bwd_data[algo];
  if (phase == "bwd_weights" && algo >= 0 && algo < CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT) return bwd_filter[algo];
  return "unknown";
}

template <class Perf>
std::vector<Candidate> candidates(const Perf* perf, int count) {
  std::vector<Candidate> out;
  for (int i = 0; i < count; ++i)
    out.push_back({static_cast<int>(perf[i].algo), perf[i].status, perf[i].time, perf[i].memory, perf[i].mathType});
  return out;
}

// cudnnFind lists the algorithms fastest first; the first that ran, fits the limit and
// keeps to the precision's arithmetic is the framework's choice.
Candidate choose(const std::vector<Candidate>& found, Precision p, size_t limit, const std::string& what) {
  for (const auto& c : found) {
    const bool math_ok = p != Precision::fp32 || c.math == CUDNN_FMA_MATH || c.math == CUDNN_DEFAULT_MATH;
    if (c.status == CUDNN_STATUS_SUCCESS && c.memory <= limit && math_ok) return c;
  }
  throw std::runtime_error("cuDNN found no " + what + " algorithm that runs within a workspace of " +
                           std::to_string(limit) + " bytes");
}

void describe(Conv& c, const Signature& sig) {
  const ConvShape& s = c.shape;
  const Precision p = c.precision;
  c.x = tensor_desc(p, s.n, s.c, s.h.in, s.w.in);
  c.y = tensor_desc(p, s.n, s.k, s.h.out, s.w.out);
  c.w = filter_desc(p, s.k, s.c / s.groups, s.r, s.s);
  if (s.bias) c.bias = tensor_desc(p, 1, s.k, 1, 1);
  c.conv = new_conv_desc();
  check(cudnnSetConvolution2dDescriptor(c.conv.get(), to_int(s.h.pad), to_int(s.w.pad), to_int(s.stride_h),
                                        to_int(s.stride_w), to_int(s.dilation_h), to_int(s.dilation_w),
                                        CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
        "cudnnSetConvolution2dDescriptor");
  check(cudnnSetConvolutionGroupCount(c.conv.get(), to_int(s.groups)), "cudnnSetConvolutionGroupCount");
  check(cudnnSetConvolutionMathType(c.conv.get(), requested_math(p)), "cudnnSetConvolutionMathType");
  int n = 0, k = 0, h = 0, w = 0;
  check(cudnnGetConvolution2dForwardOutputDim(c.conv.get(), c.x.get(), c.w.get(), &n, &k, &h, &w),
        "cudnnGetConvolution2dForwardOutputDim");
  if (h != s.h.out || w != s.w.out)
    throw std::logic_error("signature '" + sig.text + "': cuDNN's output " + std::to_string(h) + "x" +
                           std::to_string(w) + " differs from the signature's");
}

void allocate(Conv& c, cudaStream_t stream) {
  const ConvShape& s = c.shape;
  const auto count = [](int64_t a, int64_t b, int64_t d, int64_t e) { return static_cast<size_t>(a * b * d * e); };
  c.x_data = filled(count(s.n, s.c, s.h.in, s.w.in), c.precision, stream);
  c.y_data = filled(count(s.n, s.k, s.h.out, s.w.out), c.precision, stream);
  c.w_data = filled(count(s.k, s.c / s.groups, s.r, s.s), c.precision, stream);
  if (s.bias) c.bias_data = filled(static_cast<size_t>(s.k), c.precision, stream);
}

std::vector<Candidate> find(Conv& c, const std::string& phase, const GpuContext& gpu) {
  DeviceBuffer search = largest_buffer(gpu.options.workspace_limit);
  int count = 0;
  if (phase == "fwd") {
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    check(cudnnFindConvolutionForwardAlgorithmEx(gpu.cudnn, c.x.get(), c.x_data.get(), c.w.get(), c.w_data.get(),
                                                 c.conv.get(), c.y.get(), c.y_data.get(),
                                                 CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &count, perf, search.get(),
                                                 search.bytes()),
          "cudnnFindConvolutionForwardAlgorithmEx");
    return candidates(perf, count);
  }
  if (phase == "bwd_data") {
    cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    check(cudnnFindConvolutionBackwardDataAlgorithmEx(gpu.cudnn, c.w.get(), c.w_data.get(), c.y.get(), c.y_data.get(),
                                                      c.conv.get(), c.x.get(), c.x_data.get(),
                                                      CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &count, perf,
                                                      search.get(), search.bytes()),
          "cudnnFindConvolutionBackwardDataAlgorithmEx");
    return candidates(perf, count);
  }
  cudnnConvolutionBwdFilterAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
  check(cudnnFindConvolutionBackwardFilterAlgorithmEx(gpu.cudnn, c.x.get(), c.x_data.get(), c.y.get(), c.y_data.get(),
                                                      c.conv.get(), c.w.get(), c.w_data.get(),
                                                      CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &count, perf,
                                                      search.get(), search.bytes()),
        "cudnnFindConvolutionBackwardFilterAlgorithmEx");
  return candidates(perf, count);
}

void forward(const Conv& c, cudnnHandle_t h) {
  const float one = 1.f, zero = 0.f;
  check(cudnnConvolutionForward(h, &one, c.x.get(), c.x_data.get(), c.w.get(), c.w_data.get(), c.conv.get(),
                                static_cast<cudnnConvolutionFwdAlgo_t>(c.algo), c.workspace.get(), c.workspace.bytes(),
                                &zero, c.y.get(), c.y_data.get()),
        "cudnnConvolutionForward");
  // Frameworks add the bias as a separate broadcast add after the convolution.
  if (c.shape.bias)
    check(cudnnAddTensor(h, &one, c.bias.get(), c.bias_data.get(), &one, c.y.get(), c.y_data.get()), "cudnnAddTensor");
}

void backward_data(const Conv& c, cudnnHandle_t h) {
  const float one = 1.f, zero = 0.f;
  check(cudnnConvolutionBackwardData(h, &one, c.w.get(), c.w_data.get(), c.y.get(), c.y_data.get(), c.conv.get(),
                                     static_cast<cudnnConvolutionBwdDataAlgo_t>(c.algo), c.workspace.get(),
                                     c.workspace.bytes(), &zero, c.x.get(), c.x_data.get()),
        "cudnnConvolutionBackwardData");
}

void backward_weights(const Conv& c, cudnnHandle_t h) {
  const float one = 1.f, zero = 0.f;
  check(cudnnConvolutionBackwardFilter(h, &one, c.x.get(), c.x_data.get(), c.y.get(), c.y_data.get(), c.conv.get(),
                                       static_cast<cudnnConvolutionBwdFilterAlgo_t>(c.algo), c.workspace.get(),
                                       c.workspace.bytes(), &zero, c.w.get(), c.w_data.get()),
        "cudnnConvolutionBackwardFilter");
  if (c.shape.bias)
    check(cudnnConvolutionBackwardBias(h, &one, c.y.get(), c.y_data.get(), &zero, c.bias.get(), c.bias_data.get()),
          "cudnnConvolutionBackwardBias");
}

}  // namespace

PhaseKernel conv_phase(const Signature& sig, const std::string& phase, const GpuContext& gpu) {
  auto c = std::make_shared<Conv>();
  c->precision = precision_of(sig.dtype);
  c->shape = conv_shape(sig);
  describe(*c, sig);
  allocate(*c, gpu.stream);
  const Candidate chosen = choose(find(*c, phase, gpu), c->precision, gpu.options.workspace_limit, phase);
  c->algo = chosen.algo;
  // fp32 keeps FMA math whatever the search reports (see requested_math).
  if (c->precision != Precision::fp32)
    check(cudnnSetConvolutionMathType(c->conv.get(), chosen.math), "cudnnSetConvolutionMathType");
  c->workspace = DeviceBuffer(chosen.memory);

  PhaseKernel k;
  k.counters = {{"algo", chosen.algo}, {"workspace_bytes", static_cast<double>(chosen.memory)},
                {"find_time_us", 1e3 * chosen.time_ms}};
  k.label = std::string(algo_name(phase, chosen.algo)) + " math=" + math_name(chosen.math);
  const cudnnHandle_t h = gpu.cudnn;
  if (phase == "fwd") k.launch = [c, h] { forward(*c, h); };
  else if (phase == "bwd_data") k.launch = [c, h] { backward_data(*c, h); };
  else k.launch = [c, h] { backward_weights(*c, h); };
  return k;
}

}  // namespace dlsim::kernels::gpu
