#pragma once
// What a kernel does, read from its signature alone, so that a fitted model can price a
// signature nobody measured: the arithmetic (a multiply-add counts 2 FLOPs) and the bytes
// it must move at least once, per phase.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "signature.hpp"

namespace dlsim::perf {

struct Features {
  double flops = 0;
  double bytes = 0;
  double tensors = 0;  // optimizers: parameter tensors stepped one by one
};

bool is_optimizer(const std::string& op);

// The features a fitted model may use: "one", "flops", "bytes", "tensors".
bool is_feature(const std::string& name);
std::string feature_names();  // for messages

// Throws std::invalid_argument for an operator or phase it does not know.
Features kernel_features(const kernels::Signature& signature, const std::string& phase);

// The features a fitted model of this operator uses: compute-bound operators
// {"one", "flops", "bytes"}, memory-bound ones {"one", "bytes"}.
std::vector<std::string> model_features(const std::string& op);

// Elements an element-wise, pooling, normalisation or optimizer kernel writes (its
// launch size); throws std::invalid_argument for convolutions and linear layers.
double elements_written(const kernels::Signature& signature);

// A convolution signature's output height and width.
std::pair<int64_t, int64_t> conv_output_hw(const kernels::Signature& signature);

// Value of one named feature ("one", "flops", "bytes").
double feature_value(const Features& f, const std::string& name);

}  // namespace dlsim::perf
