#include "concat.hpp"

#include <memory>
#include <stdexcept>
#include <vector>

#include "buffers.hpp"
#include "copy_rows.hpp"
#include "cudnn_descriptors.hpp"

namespace dlsim::kernels::gpu {
namespace {

struct Band {
  DeviceBuffer data;
  size_t width = 0;   // bytes of one row of this input
  size_t offset = 0;  // bytes from the start of an output row
};

struct Concat {
  std::vector<Band> inputs;
  DeviceBuffer out;
  size_t rows = 0, pitch = 0;
};

}  // namespace

PhaseKernel concat_phase(const Signature& sig, const GpuContext& gpu) {
  const Precision p = precision_of(sig.dtype);
  const size_t n = static_cast<size_t>(sig.get("n"));
  if (sig.shapes.empty()) throw std::invalid_argument("concat signature '" + sig.text + "' lists no input shapes");
  size_t spatial = 0, channels = 0;
  for (const auto& shape : sig.shapes) {
    size_t rest = 1;
    for (size_t d = 1; d < shape.size(); ++d) rest *= static_cast<size_t>(shape[d]);
    if (spatial != 0 && rest != spatial)
      throw std::invalid_argument("concat signature '" + sig.text + "' joins inputs of different spatial sizes");
    spatial = rest;
    channels += static_cast<size_t>(shape[0]);
  }
  // NCHW: a row is one sample's channels; NHWC: a row is one pixel's channels.
  const bool nhwc = is_nhwc(p);
  const size_t unit = element_bytes(p) * (nhwc ? 1 : spatial);
  auto c = std::make_shared<Concat>();
  c->rows = nhwc ? n * spatial : n;
  c->pitch = channels * unit;
  size_t offset = 0;
  for (const auto& shape : sig.shapes) {
    const size_t width = static_cast<size_t>(shape[0]) * unit;
    c->inputs.push_back({filled(c->rows * width / element_bytes(p), p, gpu.stream), width, offset});
    offset += width;
  }
  c->out = DeviceBuffer(c->rows * c->pitch);
  const cudaStream_t stream = gpu.stream;
  PhaseKernel k;
  k.launch = [c, stream] {
    auto* out = static_cast<char*>(c->out.get());
    for (const auto& in : c->inputs) launch_copy_rows(in.data.get(), in.width, out + in.offset, c->pitch, c->rows, stream);
  };
  return k;
}

}  // namespace dlsim::kernels::gpu
