#include "graph/onnx_integers.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace dlsim::graph {
namespace {

// Checked: a hostile file's integers must not overflow.
int64_t apply(const std::string& op, int64_t x, int64_t y) {
  int64_t r = 0;
  const bool overflow = op == "Add"   ? __builtin_add_overflow(x, y, &r)
                        : op == "Sub" ? __builtin_sub_overflow(x, y, &r)
                        : op == "Mul" ? __builtin_mul_overflow(x, y, &r)
                                      : (y == -1 && x == INT64_MIN);
  if (overflow) throw std::invalid_argument(fmt::format("integers whose {} fits in 64 bits", op));
  if (op == "Div") {
    if (y == 0) throw std::invalid_argument("a divisor that is not zero");
    r = x / y;
  }
  return r;
}

Integers elementwise(const std::string& op, const Integers& a, const Integers& b) {
  if (a.size() != b.size() && a.size() != 1 && b.size() != 1)
    throw std::invalid_argument(fmt::format("integer lists of one size or a single value, not [{}] and [{}]",
                                            fmt::join(a, ", "), fmt::join(b, ", ")));
  Integers out;
  const size_t size = a.size() == 1 ? b.size() : a.size();  // a single value broadcast, over none too
  for (size_t i = 0; i < size; ++i) {
    out.push_back(apply(op, a[a.size() == 1 ? 0 : i], b[b.size() == 1 ? 0 : i]));
  }
  return out;
}

}  // namespace

std::optional<Integers> integer_op(const std::string& op, const std::vector<Integers>& inputs, int64_t axis) {
  if (inputs.empty()) return std::nullopt;
  if (op == "Unsqueeze" || op == "Squeeze" || op == "Cast" || op == "Identity") return inputs[0];
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div") {
    if (inputs.size() != 2) throw std::invalid_argument("two inputs");
    return elementwise(op, inputs[0], inputs[1]);
  }
  if (op == "Concat") {
    if (axis != 0 && axis != -1) throw std::invalid_argument("integer lists joined along axis 0");
    Integers out;
    for (const auto& in : inputs) out.insert(out.end(), in.begin(), in.end());
    return out;
  }
  if (op == "Gather") {
    if (inputs.size() != 2 || axis != 0) throw std::invalid_argument("a gather of indices along axis 0");
    const auto size = static_cast<int64_t>(inputs[0].size());
    Integers out;
    for (int64_t i : inputs[1]) {
      if (i < -size || i >= size)
        throw std::invalid_argument(fmt::format("indices within [{}, {}), not {}", -size, size, i));
      out.push_back(inputs[0][static_cast<size_t>(i < 0 ? i + size : i)]);
    }
    return out;
  }
  return std::nullopt;
}

Integers reshape_target(const Integers& input, const Integers& target) {
  int64_t elements = 1, known = 1;
  for (int64_t d : input) elements = apply("Mul", elements, d);
  int inferred = -1;
  Integers out;
  for (size_t i = 0; i < target.size(); ++i) {
    int64_t d = target[i];
    if (d == 0) {
      if (i >= input.size()) throw std::invalid_argument("a 0 (keep) only on an axis the input has");
      d = input[i];
    }
    if (d == -1) {
      if (inferred >= 0) throw std::invalid_argument("at most one -1 in the target shape");
      inferred = static_cast<int>(i);
    } else if (d <= 0) {
      throw std::invalid_argument(fmt::format("target sizes above 0 (or 0, -1), not {}", d));
    } else {
      known = apply("Mul", known, d);
    }
    out.push_back(d);
  }
  if (inferred >= 0) {
    if (elements % known != 0) throw std::invalid_argument("a -1 that the other sizes divide");
    out[static_cast<size_t>(inferred)] = elements / known;
  } else if (known != elements) {
    throw std::invalid_argument(fmt::format("a target shape [{}] with the input's {} elements",
                                            fmt::join(target, ", "), elements));
  }
  return out;
}

}  // namespace dlsim::graph
