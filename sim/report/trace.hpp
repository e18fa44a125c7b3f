#pragma once
// A simulated training step as a Chrome trace (JSON Trace Event Format), which
// chrome://tracing and ui.perfetto.dev open: one row per track (a GPU's kernels, its
// transfers, the all-reduce stream, a parameter server), times in microseconds from the
// start of the traced step.
#include <string>

#include "train/trace.hpp"

namespace dlsim::report {

std::string chrome_trace(const train::Trace& trace, const std::string& title);

}  // namespace dlsim::report
