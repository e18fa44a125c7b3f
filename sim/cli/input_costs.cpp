#include "cli/input_costs.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cli/predict.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "scenario/profile_reader.hpp"

namespace dlsim::cli {
namespace {

// One image's decode on a core (kernels/pytorch/input_bench.py), as an input profile timed
// it (`phase` "train": an ImageNet JPEG decoded and augmented; "serve": a 224x224 JPEG
// decoded and normalised): the scenario's (system.input_profile), else the one dlsim ships
// for the phase (training's from the Emerald Rapids VM, serving's from the Zen 5 VM),
// carried by clock to the given instance's CPU (none: the profile's).
struct Decode {
  double seconds = 0;
  std::string basis;  // "(framework, machine, by clock to cpu)"
};

Decode jpeg_decode(const scenario::RunSpec& spec, const std::string& phase, const std::string& instance,
                   const hardware::Catalog& catalog) {
  const bool train = phase == "train";
  const std::string signature = train ? "decode u8 w500 h375 s224 jpeg" : "decode u8 w224 h224 s224 jpeg";
  const std::string& chosen = spec.system.input_profile;
  const std::string path = !chosen.empty() ? chosen
                           : profile_dir() + (train ? "/input/torchvision-devbox-emerald-rapids-2vcpu.toml"
                                                    : "/input/torchvision-devbox-epyc-turin-2vcpu.toml");
  const perf::Profile profile = scenario::load_profile(path);
  const auto it = profile.measured.find({signature, phase, 1});
  if (it == profile.measured.end()) {
    if (!chosen.empty())
      throw InputError(Problem{{spec.source, 0, 0}, "system.input_profile", chosen,
                               fmt::format("an input calibration that timed \"{}\" for phase {}", signature, phase),
                               "time it with kernels/pytorch/input_bench.py and fit it with dlsim calibrate"});
    throw UnrunnableError("the input profile " + path + " has no JPEG decode timing for phase " + phase);
  }
  const auto* from = catalog.find_cpu(profile.cpu);
  const auto* to = instance.empty() ? nullptr : catalog.find_cpu(catalog.instance(instance).cpu);
  const bool carried = from && to;
  return {it->second.median_s * (carried ? from->base_clock_Hz / to->base_clock_Hz : 1.0),
          fmt::format("({}, {}{})", profile.framework.name, profile.machine, carried ? ", by clock to " + to->name : "")};
}

}  // namespace

train::InputPipeline input_pipeline(const scenario::RunSpec& spec, const graph::Graph& model,
                                    const hardware::Catalog& catalog, const platform::ClusterSpec& cluster,
                                    std::string& notes) {
  train::InputPipeline in;
  const auto& t = *spec.training;
  if (t.input == "synthetic") return in;
  in.synthetic = false;
  in.batch = static_cast<int>(spec.workload.batch);
  for (const auto& node : model.nodes())
    if (node.kind == graph::OpKind::input) in.bytes_per_image = 4.0 * static_cast<double>(graph::elements(node.output));
  in.workers = t.loader_workers > 0 ? t.loader_workers : std::max(1, cluster.host_cores / cluster.gpus_per_node);
  in.to_gpu = t.prefetch_to_gpu;
  if (t.input == "jpeg") {
    const Decode decode = jpeg_decode(spec, "train", spec.system.instance, catalog);
    in.seconds_per_image = decode.seconds;
    notes += fmt::format("{}input: {} per JPEG decoded and augmented on a core {}, {} loader cores per GPU",
                         notes.empty() ? "" : "; ", format_time(in.seconds_per_image), decode.basis, in.workers);
  }
  return in;
}

double client_load_s(const scenario::RunSpec& spec, const graph::Graph& model, const hardware::Catalog& catalog,
                     std::string& notes) {
  if (!spec.serving || spec.serving->input != "files") return 0;
  const auto& shape = model.input_shape();
  const double pixels = shape.size() >= 2 ? double(shape[shape.size() - 1] * shape[shape.size() - 2]) : 224.0 * 224;
  const bool remote_client = spec.serving->deployment == "remote" && !spec.serving->client_instance.empty();
  const Decode decode =
      jpeg_decode(spec, "serve", remote_client ? spec.serving->client_instance : spec.system.instance, catalog);
  const double per_image = decode.seconds * pixels / (224.0 * 224);
  notes += fmt::format("{}files: {} per image read and decoded by the client on a core {}", notes.empty() ? "" : "; ",
                       format_time(per_image), decode.basis);
  return per_image * static_cast<double>(spec.workload.batch);
}

infer::FileReads client_file_reads(const scenario::RunSpec& spec, const hardware::Catalog& catalog,
                                   std::string& notes) {
  if (!spec.serving || spec.serving->disk.empty()) return {};
  const hardware::Disk& disk = *catalog.find_disk(spec.serving->disk);
  notes += fmt::format("{}files of {} read from {} ({} and {:.0f} reads/s shared by its readers, {} a read)",
                       notes.empty() ? "" : "; ", format_bytes(spec.serving->file_bytes), disk.name,
                       format_byte_rate(disk.read_bandwidth_Bps), disk.read_iops, format_time(disk.latency_s));
  return {spec.workload.batch, spec.serving->file_bytes, disk.read_bandwidth_Bps, disk.read_iops, disk.latency_s};
}

}  // namespace dlsim::cli
