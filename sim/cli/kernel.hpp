#pragma once
// One kernel priced on one GPU with its provenance: the `dlsim kernel` command and the
// kernel cases of `dlsim validate` (e.g. DeepBench timings predicted across GPUs).
#include <nlohmann/json.hpp>

#include "hardware/catalog.hpp"
#include "scenario/validation_cases.hpp"

namespace dlsim::cli {

// JSON with seconds, milliseconds, rel_error, source, basis, scaling.  Throws InputError
// for an unknown GPU or a malformed signature, UnrunnableError when nothing prices it.
nlohmann::ordered_json price_kernel(const scenario::KernelQuery& query, bool allow_fallback,
                                    const hardware::Catalog& catalog);

}  // namespace dlsim::cli
