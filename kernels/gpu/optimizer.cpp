#include "optimizer.hpp"

#include <memory>
#include <stdexcept>
#include <vector>

#include "buffers.hpp"
#include "update.hpp"

namespace dlsim::kernels::gpu {
namespace {

// The signature gives the total, the count and the largest; the others share the rest
// evenly (their real sizes are not in the signature).
std::vector<size_t> tensor_sizes(const Signature& sig) {
  const int64_t total = sig.get("p"), tensors = sig.get("t"), largest = sig.get("max");
  if (total <= 0 || tensors <= 0 || largest <= 0 || largest > total || tensors - 1 > total - largest)
    throw std::invalid_argument("optimizer signature '" + sig.text + "' has inconsistent p, t and max");
  std::vector<size_t> sizes{static_cast<size_t>(largest)};
  const int64_t others = tensors - 1, rest = total - largest;
  for (int64_t i = 0; i < others; ++i) sizes.push_back(static_cast<size_t>(rest / others + (i < rest % others ? 1 : 0)));
  return sizes;
}

struct Parameters {
  std::vector<size_t> sizes;
  DeviceBuffer w, g, m, v;
};

}  // namespace

PhaseKernel update_phase(const Signature& sig, const GpuContext& gpu) {
  auto s = std::make_shared<Parameters>();
  s->sizes = tensor_sizes(sig);
  const size_t total = static_cast<size_t>(sig.get("p"));
  s->w = filled(total, Precision::fp32, gpu.stream);
  s->g = filled(total, Precision::fp32, gpu.stream);
  if (sig.op != "sgd") s->v = constant(total, 0.f, gpu.stream);
  if (sig.op == "adam") s->m = constant(total, 0.f, gpu.stream);
  const std::string op = sig.op;
  const cudaStream_t stream = gpu.stream;
  PhaseKernel k;
  k.launch = [s, op, stream] {
    size_t offset = 0;
    for (size_t count : s->sizes) {
      float* w = s->w.floats() + offset;
      const float* g = s->g.floats() + offset;
      if (op == "sgd") launch_sgd(w, g, count, stream);
      else if (op == "sgd_momentum") launch_sgd_momentum(w, g, s->v.floats() + offset, count, stream);
      else launch_adam(w, g, s->m.floats() + offset, s->v.floats() + offset, count, stream);
      offset += count;
    }
  };
  k.counters = {{"launches", static_cast<double>(s->sizes.size())}};
  return k;
}

}  // namespace dlsim::kernels::gpu
