#include "gemm.hpp"

#include <cstdint>
#include <memory>
#include <stdexcept>

#include "buffers.hpp"
#include "check.hpp"
#include "destroyer.hpp"

namespace dlsim::kernels::gpu {
namespace {

using MatmulDesc = Owned<cublasLtMatmulDescOpaque_t, cublasLtMatmulDescDestroy>;
using Layout = Owned<cublasLtMatrixLayoutOpaque_t, cublasLtMatrixLayoutDestroy>;
using Preference = Owned<cublasLtMatmulPreferenceOpaque_t, cublasLtMatmulPreferenceDestroy>;

// D (m x n) = op(A) (m x k) . op(B) (k x n), column-major as cuBLAS sees it.
struct GemmShape {
  bool trans_a, trans_b;
  uint64_t m, n, k;
};

cudaDataType_t data_type(Precision p) { return p == Precision::fp16 ? CUDA_R_16F : CUDA_R_32F; }

// fp32 stays off TF32 (PyTorch's default for matmul); fp16 accumulates in fp32.
cublasComputeType_t compute_type(Precision p) {
  return p == Precision::tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
}

Layout layout(Precision p, uint64_t rows, uint64_t cols) {
  cublasLtMatrixLayout_t l;
  check(cublasLtMatrixLayoutCreate(&l, data_type(p), rows, cols, static_cast<int64_t>(rows)),
        "cublasLtMatrixLayoutCreate");
  return Layout(l);
}

template <class T>
void set(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attribute, const T& value) {
  check(cublasLtMatmulDescSetAttribute(desc, attribute, &value, sizeof value), "cublasLtMatmulDescSetAttribute");
}

// One matrix product with its algorithm chosen and its workspace allocated.
class LtGemm {
 public:
  LtGemm(const GpuContext& gpu, Precision p, const GemmShape& s, const void* bias)
      : lt_(gpu.lt), stream_(gpu.stream) {
    cublasLtMatmulDesc_t desc;
    check(cublasLtMatmulDescCreate(&desc, compute_type(p), CUDA_R_32F), "cublasLtMatmulDescCreate");
    desc_.reset(desc);
    set(desc, CUBLASLT_MATMUL_DESC_TRANSA, s.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N);
    set(desc, CUBLASLT_MATMUL_DESC_TRANSB, s.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N);
    if (bias) {
      set(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, CUBLASLT_EPILOGUE_BIAS);
      set(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, bias);
    }
    a_ = s.trans_a ? layout(p, s.k, s.m) : layout(p, s.m, s.k);
    b_ = s.trans_b ? layout(p, s.n, s.k) : layout(p, s.k, s.n);
    d_ = layout(p, s.m, s.n);
    choose(gpu.options.workspace_limit);
  }

  void run(const void* a, const void* b, void* d) const {
    const float one = 1.f, zero = 0.f;
    check(cublasLtMatmul(lt_, desc_.get(), &one, a, a_.get(), b, b_.get(), &zero, d, d_.get(), d, d_.get(), &algo_,
                         workspace_.get(), workspace_.bytes(), stream_),
          "cublasLtMatmul");
  }

  int algo_id() const { return id_; }
  size_t workspace_bytes() const { return workspace_.bytes(); }

 private:
  void choose(size_t workspace_limit) {
    cublasLtMatmulPreference_t pref;
    check(cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate");
    Preference owned(pref);
    const uint64_t limit = workspace_limit;
    check(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &limit, sizeof limit),
          "cublasLtMatmulPreferenceSetAttribute");
    cublasLtMatmulHeuristicResult_t result{};
    int returned = 0;
    check(cublasLtMatmulAlgoGetHeuristic(lt_, desc_.get(), a_.get(), b_.get(), d_.get(), d_.get(), pref, 1, &result,
                                         &returned),
          "cublasLtMatmulAlgoGetHeuristic");
    if (returned == 0) throw std::runtime_error("cuBLASLt has no algorithm for this product");
    algo_ = result.algo;
    size_t written = 0;
    check(cublasLtMatmulAlgoConfigGetAttribute(&algo_, CUBLASLT_ALGO_CONFIG_ID, &id_, sizeof id_, &written),
          "cublasLtMatmulAlgoConfigGetAttribute");
    workspace_ = DeviceBuffer(result.workspaceSize);
  }

  cublasLtHandle_t lt_;
  cudaStream_t stream_;
  MatmulDesc desc_;
  Layout a_, b_, d_;
  cublasLtMatmulAlgo_t algo_{};
  int id_ = -1;
  DeviceBuffer workspace_;
};

struct Linear {
  DeviceBuffer x, w, y, bias, batch_vector;
  std::unique_ptr<LtGemm> product, bias_gradient;
};

}  // namespace

// Row-major Y[n,out] = X[n,in] W[out,in]^T is, column-major, Y (out x n) = W^T X.
PhaseKernel linear_phase(const Signature& sig, const std::string& phase, const GpuContext& gpu) {
  const Precision p = precision_of(sig.dtype);
  const int64_t n = sig.get("n"), in = sig.get("in"), out = sig.get("out");
  const auto un = static_cast<uint64_t>(n), uin = static_cast<uint64_t>(in), uout = static_cast<uint64_t>(out);
  const bool has_bias = sig.has("bias");
  auto l = std::make_shared<Linear>();
  l->x = filled(un * uin, p, gpu.stream);
  l->w = filled(uout * uin, p, gpu.stream);
  l->y = filled(un * uout, p, gpu.stream);
  if (has_bias) l->bias = filled(uout, p, gpu.stream);
  PhaseKernel k;
  if (phase == "fwd") {
    l->product = std::make_unique<LtGemm>(gpu, p, GemmShape{true, false, uout, un, uin}, has_bias ? l->bias.get() : nullptr);
    k.launch = [l] { l->product->run(l->w.get(), l->x.get(), l->y.get()); };
  } else if (phase == "bwd_data") {
    // dX (in x n) = W dY
    l->product = std::make_unique<LtGemm>(gpu, p, GemmShape{false, false, uin, un, uout}, nullptr);
    k.launch = [l] { l->product->run(l->w.get(), l->y.get(), l->x.get()); };
  } else {
    // dW (in x out) = X dY^T; db (out) = dY v, v the batch-long vector of ones a framework
    // sums with (its values do not change the time)
    l->product = std::make_unique<LtGemm>(gpu, p, GemmShape{false, true, uin, uout, un}, nullptr);
    if (has_bias) {
      l->batch_vector = filled(un, p, gpu.stream);
      l->bias_gradient = std::make_unique<LtGemm>(gpu, p, GemmShape{false, false, uout, 1, un}, nullptr);
    }
    k.launch = [l] {
      l->product->run(l->x.get(), l->y.get(), l->w.get());
      if (l->bias_gradient) l->bias_gradient->run(l->y.get(), l->batch_vector.get(), l->bias.get());
    };
  }
  k.counters = {{"algo", l->product->algo_id()}, {"workspace_bytes", static_cast<double>(l->product->workspace_bytes())}};
  k.label = "cublasLt algo " + std::to_string(l->product->algo_id());
  return k;
}

}  // namespace dlsim::kernels::gpu
