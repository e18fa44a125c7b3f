// dlsim kernel: how long one kernel takes on one GPU, and on what that answer rests.
//   dlsim kernel "conv2d fp32 n32 c64 h56 w56 k64 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1" --phase fwd
//                --device v100-sxm2 [--profile P.toml] [--allow-fallback] [--format table|json]
#include "cli/kernel.hpp"

#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/predict.hpp"
#include "core/error.hpp"
#include "core/suggest.hpp"
#include "perf/features.hpp"
#include "report/generator.hpp"
#include "scenario/catalog_loader.hpp"
#include "signature.hpp"

namespace dlsim::cli {

nlohmann::ordered_json price_kernel(const scenario::KernelQuery& q, bool allow_fallback,
                                    const hardware::Catalog& catalog) {
  if (!catalog.find_gpu(q.device))
    throw InputError(Problem{{"dlsim kernel", 0, 0}, "--device", q.device, "a catalog GPU",
                             suggest(q.device, catalog.gpu_names())});
  try {
    perf::kernel_features(kernels::parse_signature(q.signature), q.phase);  // every field the operator needs
  } catch (const std::invalid_argument& e) {
    throw InputError(Problem{{"dlsim kernel", 0, 0}, "signature", q.signature, "a kernel signature",
                             std::string(e.what()) + "; `dlsim model NAME --format kernels` lists real ones"});
  }
  const GpuPricing pricing = gpu_pricing(q.device, q.profile, allow_fallback, catalog);
  const perf::KernelTimes times(pricing.profile, pricing.options);
  const perf::Answer a = times.time(q.signature, q.phase, 1);
  return {{"generator", report::generator()},
          {"signature", q.signature},
          {"phase", q.phase},
          {"device", q.device},
          {"profile", pricing.path},
          {"seconds", a.seconds},
          {"milliseconds", a.seconds * 1e3},
          {"rel_error", a.rel_error},
          {"source", perf::to_string(a.source)},
          {"basis", a.basis},
          {"scaling", pricing.scaling}};
}

void add_kernel_command(CLI::App& app) {
  auto q = std::make_shared<scenario::KernelQuery>();
  auto allow_fallback = std::make_shared<bool>(false);
  auto format = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("kernel", "How long one kernel takes on a GPU, and on what the answer rests");
  cmd->add_option("signature", q->signature, "kernel signature (dlsim model NAME --format kernels)")->required();
  cmd->add_option("--phase", q->phase,
                  "fwd, bwd_data, bwd_weights, update; a copy's h2d_pageable, d2h_pageable, h2d_pinned, d2h_pinned, "
                  "d2d (\"memcpy u8 b<bytes>\")")
      ->check(CLI::IsMember({"fwd", "bwd_data", "bwd_weights", "update", "h2d_pageable", "d2h_pageable", "h2d_pinned",
                             "d2h_pinned", "d2d"}))
      ->default_val("fwd");
  cmd->add_option("--device", q->device, "catalog GPU (dlsim hw list)")->required();
  cmd->add_option("--profile", q->profile, "calibration profile (default: the GPU's own)");
  cmd->add_flag("--allow-fallback", *allow_fallback, "price a kernel with no basis by the GPU's roofline");
  cmd->add_option("--format", *format, "table or json")->check(CLI::IsMember({"table", "json"}))->default_val("table");
  cmd->callback([=] {
    const auto j = price_kernel(*q, *allow_fallback, scenario::builtin_catalog());
    if (*format == "json") {
      std::cout << j.dump(2) << "\n";
      return;
    }
    std::cout << fmt::format("{} ({}) on {}: {:.4g} ms +- {:.0f}%, {}: {}\n", q->signature, q->phase, q->device,
                             j["milliseconds"].get<double>(), 100 * j["rel_error"].get<double>(),
                             j["source"].get<std::string>(), j["basis"].get<std::string>());
    if (!j["scaling"].get<std::string>().empty()) std::cout << "  " << j["scaling"].get<std::string>() << "\n";
  });
}

}  // namespace dlsim::cli
