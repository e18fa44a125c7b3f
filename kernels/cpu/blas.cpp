#include "blas.hpp"

extern "C" void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                       const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                       const float* beta, float* c, const int* ldc);

namespace dlsim::kernels {
namespace {

// Row-major C[m,n] = op(A) x op(B) through column-major BLAS: C^T = op(B)^T x op(A)^T,
// `repeats` times (once per sample for a convolution).
class Gemm : public Kernel {
 public:
  Gemm(bool trans_a, bool trans_b, int m, int n, int k, int repeats = 1)
      : trans_a_(trans_a), trans_b_(trans_b), m_(m), n_(n), k_(k), repeats_(repeats),
        a_(static_cast<size_t>(m) * k, 0.01f), b_(static_cast<size_t>(k) * n, 0.01f), c_(static_cast<size_t>(m) * n) {}

  void run() override {
    const float one = 1.0f, zero = 0.0f;
    const char ta = trans_b_ ? 'T' : 'N', tb = trans_a_ ? 'T' : 'N';
    const int lda = trans_b_ ? k_ : n_, ldb = trans_a_ ? m_ : k_;
    for (int r = 0; r < repeats_; ++r)
      sgemm_(&ta, &tb, &n_, &m_, &k_, &one, b_.data(), &lda, a_.data(), &ldb, &zero, c_.data(), &n_);
  }

 private:
  bool trans_a_, trans_b_;
  int m_, n_, k_, repeats_;
  std::vector<float> a_, b_, c_;
};

}  // namespace

std::vector<PhaseKernel> make_blas_linear_kernels(const Signature& sig, bool training) {
  const int n = static_cast<int>(sig.get("n")), in = static_cast<int>(sig.get("in")), out = static_cast<int>(sig.get("out"));
  std::vector<PhaseKernel> kernels;
  kernels.push_back({"blas_fwd", std::make_unique<Gemm>(false, true, n, out, in)});
  if (!training) return kernels;
  kernels.push_back({"blas_bwd_data", std::make_unique<Gemm>(false, false, n, in, out)});
  kernels.push_back({"blas_bwd_weights", std::make_unique<Gemm>(true, false, out, in, n)});
  return kernels;
}

std::vector<PhaseKernel> make_blas_pointwise_conv_kernels(const Signature& sig, bool training) {
  const bool pointwise = sig.get("r") == 1 && sig.get("s") == 1 && sig.get("g") == 1 &&
                         sig.list("str", 2) == std::vector<int64_t>{1, 1} &&
                         sig.list("dil", 2) == std::vector<int64_t>{1, 1} &&
                         sig.list("pad", 4) == std::vector<int64_t>{0, 0, 0, 0};
  std::vector<PhaseKernel> kernels;
  if (!pointwise) return kernels;
  const int n = static_cast<int>(sig.get("n")), c = static_cast<int>(sig.get("c")), k = static_cast<int>(sig.get("k"));
  const int hw = static_cast<int>(sig.get("h") * sig.get("w"));
  kernels.push_back({"blas_fwd", std::make_unique<Gemm>(false, false, k, hw, c, n)});
  if (!training) return kernels;
  kernels.push_back({"blas_bwd_data", std::make_unique<Gemm>(true, false, c, hw, k, n)});
  kernels.push_back({"blas_bwd_weights", std::make_unique<Gemm>(false, true, k, c, hw, n)});
  return kernels;
}

}  // namespace dlsim::kernels
