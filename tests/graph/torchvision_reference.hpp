#pragma once
// torchvision's own account of its networks (validation/oracle/torchvision_reference.json,
// written by validation/oracle/export_torchvision.py): the oracle the zoo and the ONNX
// importer are tested against.
#include <fstream>

#include <nlohmann/json.hpp>

namespace dlsim::graph {

inline const nlohmann::json& torchvision_reference() {
  static const nlohmann::json ref = [] {
    std::ifstream in(DLSIM_SOURCE_DIR "/validation/oracle/torchvision_reference.json");
    return nlohmann::json::parse(in);
  }();
  return ref;
}

}  // namespace dlsim::graph
