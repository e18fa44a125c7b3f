#pragma once
// Kernel signatures as dlsim writes them (sim/graph/kernel_signature.cpp), parsed back:
//   "conv2d fp32 n32 c64 h56 w56 k64 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1 bias"
// The first word is the operator, the second the data type; every other word is a field
// name (letters) followed by one or more comma-separated integers, or a bare flag.
// kernels/ builds on its own, so this parser does not use dlsim's libraries; a dlsim test
// parses every signature of the zoo with it.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dlsim::kernels {

struct Signature {
  std::string text;
  std::string op;     // "conv2d", "linear", "maxpool", "relu", ...
  std::string dtype;  // "fp32", "tf32", "fp16", "bf16"
  std::map<std::string, std::vector<int64_t>> fields;
  std::set<std::string> flags;  // "bias", "ceil"
  std::vector<std::vector<int64_t>> shapes;  // concat inputs, written "4x8x8"

  // The field's single value; throws std::invalid_argument when missing.
  int64_t get(const std::string& name) const;
  const std::vector<int64_t>& list(const std::string& name, size_t count) const;
  bool has(const std::string& flag) const { return flags.count(flag) > 0; }
};

// Throws std::invalid_argument naming the bad word.
Signature parse_signature(const std::string& text);

// The operator a signature names (its first word), without parsing the rest.
inline std::string operator_of(const std::string& text) { return text.substr(0, text.find(' ')); }

// A signature file of the kernel benchmarks: one signature per line, blank lines and lines
// starting with # skipped, each signature once.  Throws std::runtime_error when unreadable.
std::vector<std::string> read_signatures(const std::string& path);

}  // namespace dlsim::kernels
