#include "loops.hpp"

#include <sys/mman.h>

#include <cmath>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>

namespace dlsim::kernels {
namespace {

class Update : public Kernel {
 public:
  Update(int64_t params, const std::string& op) : op_(op), w_(params, 0.01f), g_(params, 0.001f), m_(params, 0.f), v_(params, 0.f) {}

  void run() override {
    const int64_t n = static_cast<int64_t>(w_.size());
    float* w = w_.data();
    const float* g = g_.data();
    float* m = m_.data();
    float* v = v_.data();
    if (op_ == "sgd") {
#pragma omp parallel for simd
      for (int64_t i = 0; i < n; ++i) w[i] -= 0.01f * g[i];
      return;
    }
    if (op_ == "sgd_momentum") {
#pragma omp parallel for simd
      for (int64_t i = 0; i < n; ++i) {
        m[i] = 0.9f * m[i] + g[i];
        w[i] -= 0.01f * m[i];
      }
      return;
    }
    const float c1 = 1.f / (1.f - 0.9f), c2 = 1.f / (1.f - 0.999f);
#pragma omp parallel for simd
    for (int64_t i = 0; i < n; ++i) {
      m[i] = 0.9f * m[i] + 0.1f * g[i];
      v[i] = 0.999f * v[i] + 0.001f * g[i] * g[i];
      w[i] -= 0.001f * (m[i] * c1) / (std::sqrt(v[i] * c2) + 1e-8f);
    }
  }

 private:
  std::string op_;
  std::vector<float> w_, g_, m_, v_;
};

class Dropout : public Kernel {
 public:
  Dropout(int64_t elements, bool backward) : backward_(backward), x_(elements, 0.5f), y_(elements), mask_(elements) {}

  void run() override {
    const int64_t n = static_cast<int64_t>(x_.size());
    const float* x = x_.data();
    float* y = y_.data();
    uint8_t* mask = mask_.data();
    if (backward_) {
#pragma omp parallel for simd
      for (int64_t i = 0; i < n; ++i) y[i] = mask[i] ? 2.0f * x[i] : 0.0f;
      return;
    }
    // A counter-based hash per element stands for the framework's Philox generator.
#pragma omp parallel for simd
    for (int64_t i = 0; i < n; ++i) {
      uint32_t h = static_cast<uint32_t>(i) * 2654435761u ^ seed_;
      h ^= h >> 15;
      h *= 2246822519u;
      mask[i] = (h >> 31) != 0;
      y[i] = mask[i] ? 2.0f * x[i] : 0.0f;
    }
    ++seed_;
  }

 private:
  bool backward_;
  uint32_t seed_ = 1;
  std::vector<float> x_, y_;
  std::vector<uint8_t> mask_;
};

// Writes `elements` floats into a fresh anonymous mapping (faulted, zeroed by the kernel,
// written, unmapped: what glibc does for a large allocation) or into resident memory.
class Touch : public Kernel {
 public:
  Touch(int64_t elements, bool fresh) : fresh_(fresh), warm_(fresh ? 0 : elements), elements_(elements) {}

  void run() override {
    const auto bytes = static_cast<size_t>(elements_) * sizeof(float);
    float* p = warm_.data();
    if (fresh_) {
      void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED) throw std::bad_alloc();
      p = static_cast<float*>(m);
    }
    const int64_t n = elements_;
#pragma omp parallel for simd
    for (int64_t i = 0; i < n; ++i) p[i] = 1.0f;
    if (fresh_) munmap(p, bytes);
  }

 private:
  bool fresh_;
  std::vector<float> warm_;
  int64_t elements_;
};

}  // namespace

bool is_loop_kernel(const Signature& sig) {
  return sig.op == "sgd" || sig.op == "sgd_momentum" || sig.op == "adam" || sig.op == "dropout" ||
         sig.op == "first_touch";
}

std::vector<PhaseKernel> make_loop_kernels(const Signature& sig, bool training) {
  std::vector<PhaseKernel> out;
  if (sig.op == "first_touch") {  // the page price: training steps and inference passes pay it
    const int64_t elements = sig.get("n") * sig.get("e");
    out.push_back({"fresh", std::make_unique<Touch>(elements, true)});
    out.push_back({"warm", std::make_unique<Touch>(elements, false)});
    return out;
  }
  if (sig.op == "dropout") {
    if (!training) return out;  // inference skips dropout altogether: no kernel
    const int64_t elements = sig.get("n") * sig.get("e");
    out.push_back({"fwd", std::make_unique<Dropout>(elements, false)});
    out.push_back({"bwd_data", std::make_unique<Dropout>(elements, true)});
    return out;
  }
  const int64_t params = sig.get("p");
  if (params <= 0) throw std::invalid_argument("optimizer signature '" + sig.text + "' has no parameters");
  out.push_back({"update", std::make_unique<Update>(params, sig.op)});
  return out;
}

}  // namespace dlsim::kernels
