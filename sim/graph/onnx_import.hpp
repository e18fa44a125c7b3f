#pragma once
// Import a network from an ONNX file into the layer graph.
//
// Parameters are counted per use from the operators' weight inputs (a convolution's W and
// B, a Gemm's B and C, batch norm's scale and bias); batch-norm running statistics are
// state, not parameters.  An eval-mode export has folded batch norm into the convolutions
// and dropped dropout; the importer says so in the graph's notes.  Initializer payloads are
// never read, only their shapes, so files with stripped weights import the same.

#include <string>
#include <string_view>

#include "graph/graph.hpp"

namespace dlsim::graph {

// Throws dlsim::InputError naming the file, the node and what was expected.
Graph import_onnx_file(const std::string& path);
Graph import_onnx_bytes(std::string_view bytes, const std::string& source_name);

// ONNX operators the importer understands.
const std::vector<std::string>& onnx_supported_ops();

}  // namespace dlsim::graph
