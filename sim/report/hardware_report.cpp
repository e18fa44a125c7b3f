#include "report/hardware_report.hpp"

#include <fmt/format.h>

#include "core/units.hpp"

namespace dlsim::report {
namespace {

using nlohmann::ordered_json;

// The sustained bandwidth is the measured one (null where the catalog cites none), or its
// estimate from the other GPUs'.
ordered_json to_json(const hardware::Gpu& g, const hardware::Catalog& c) {
  const ordered_json stream = g.stream_bandwidth_Bps > 0 ? ordered_json(g.stream_bandwidth_Bps) : ordered_json();
  return {{"kind", "gpu"}, {"name", g.name}, {"full_name", g.full_name}, {"architecture", g.architecture},
          {"sm_count", g.sm_count}, {"base_clock_Hz", g.base_clock_Hz}, {"boost_clock_Hz", g.boost_clock_Hz},
          {"fp32_flops", g.fp32_flops}, {"fp16_flops", g.fp16_flops}, {"tf32_tensor_flops", g.tf32_tensor_flops},
          {"fp16_tensor_flops", g.fp16_tensor_flops}, {"memory_bytes", g.memory_bytes},
          {"memory_bandwidth_Bps", g.memory_bandwidth_Bps}, {"stream_bandwidth_Bps", stream},
          {"sustained_bandwidth_Bps", c.sustained_bandwidth_Bps(g)}, {"host_link", g.host_link},
          {"nvlink_bandwidth_Bps", g.nvlink_bandwidth_Bps}, {"nvlink_links", g.nvlink_links}, {"source", g.source}};
}

ordered_json to_json(const hardware::Cpu& c) {
  return {{"kind", "cpu"}, {"name", c.name}, {"full_name", c.full_name}, {"cores_per_socket", c.cores_per_socket},
          {"threads_per_core", c.threads_per_core}, {"base_clock_Hz", c.base_clock_Hz},
          {"turbo_clock_Hz", c.turbo_clock_Hz}, {"simd", c.simd}, {"fp32_flops_per_cycle", c.fp32_flops_per_cycle},
          {"peak_fp32_flops_per_core", c.peak_fp32_flops_per_core()},
          {"memory_bandwidth_Bps", c.memory_bandwidth_Bps}, {"source", c.source}};
}

ordered_json to_json(const hardware::Nic& n) {
  return {{"kind", "nic"}, {"name", n.name}, {"bandwidth_Bps", n.bandwidth_Bps}, {"mtu", n.mtu_bytes},
          {"payload_Bps", n.payload_Bps()}, {"source", n.source}};
}

ordered_json to_json(const hardware::Disk& d) {
  return {{"kind", "disk"}, {"name", d.name}, {"read_bandwidth_Bps", d.read_bandwidth_Bps}, {"read_iops", d.read_iops},
          {"latency_s", d.latency_s}, {"source", d.source}};
}

ordered_json to_json(const hardware::PcieLink& l) {
  return {{"kind", "pcie"}, {"name", l.name}, {"generation", l.generation}, {"lanes", l.lanes},
          {"theoretical_Bps", l.theoretical_Bps}, {"typical_Bps", l.typical_Bps}, {"source", l.source}};
}

ordered_json to_json(const hardware::BillingRule& b) {
  return {{"kind", "billing"}, {"name", b.name}, {"granularity_s", b.granularity_s}, {"minimum_s", b.minimum_s},
          {"valid_from", b.valid_from}, {"valid_until", b.valid_until}, {"source", b.source}};
}

ordered_json nvlink_pairs(const hardware::Instance& i) {
  ordered_json out = ordered_json::array();
  for (const auto& p : i.nvlink_pairs)
    out.push_back(fmt::format("{}-{}{}", p.a, p.b, p.links > 1 ? fmt::format("x{}", p.links) : ""));
  return out;
}

ordered_json to_json(const hardware::Instance& i) {
  return {{"kind", "instance"}, {"name", i.name}, {"provider", i.provider}, {"vcpus", i.vcpus},
          {"vcpus_per_core", i.vcpus_per_core}, {"cpu", i.cpu}, {"memory_bytes", i.memory_bytes}, {"gpu", i.gpu},
          {"gpus", i.gpus},
          {"gpus_per_pcie_switch", i.gpus_per_pcie_switch}, {"nvlink", i.nvlink}, {"nvlink_pairs", nvlink_pairs(i)},
          {"nic", i.nic},
          {"price_usd_per_hour", i.price_usd_per_hour}, {"price_date", i.price_date}, {"billing", i.billing},
          {"source", i.source}};
}

template <typename T>
ordered_json array_of(const std::vector<T>& items) {
  ordered_json out = ordered_json::array();
  for (const auto& item : items) out.push_back(to_json(item));
  return out;
}

bool ends_with(const std::string& key, const std::string& suffix) {
  return key.size() > suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// One value of an entry as a reader wants it: quantities with their units, "-" for none.
std::string value_text(const std::string& key, const ordered_json& value, bool nic) {
  if (value.is_null()) return "-";
  if (value.is_string()) return value.get<std::string>();
  if (ends_with(key, "_Bps")) return nic ? format_bandwidth(value.get<double>()) : format_byte_rate(value.get<double>());
  if (ends_with(key, "_bytes")) return format_bytes(value.get<double>());
  if (ends_with(key, "_flops") && value.get<double>() > 0) return format_flops(value.get<double>()) + "FLOP/s";
  if (ends_with(key, "_Hz")) return fmt::format("{:.4g} GHz", value.get<double>() / 1e9);
  return value.dump();
}

std::string entry_table(const ordered_json& entry) {
  std::string out;
  for (const auto& [key, value] : entry.items())
    out += fmt::format("{:<26} {}\n", key, value_text(key, value, entry["kind"] == "nic"));
  return out;
}

}  // namespace

ordered_json catalog_json(const hardware::Catalog& c) {
  ordered_json out;
  out["generator"] = generator();
  out["gpus"] = ordered_json::array();
  for (const auto& g : c.gpus) out["gpus"].push_back(to_json(g, c));
  out["cpus"] = array_of(c.cpus);
  out["instances"] = array_of(c.instances);
  out["nics"] = array_of(c.nics);
  out["disks"] = array_of(c.disks);
  out["pcie"] = array_of(c.pcie_links);
  out["billing"] = array_of(c.billing_rules);
  return out;
}

std::string catalog_text(const hardware::Catalog& c, Format format) {
  if (format == Format::json) return catalog_json(c).dump(2) + "\n";
  std::string out = fmt::format("{:<16} {:>4} {:>10} {:>10} {:>11} {:>12} {:>13} {:>10}\n", "GPU", "SMs", "FP32",
                                "FP16 TC", "memory", "mem BW peak", "sustained", "host link");
  for (const auto& g : c.gpus)
    out += fmt::format("{:<16} {:>4} {:>10} {:>10} {:>11} {:>12} {:>13} {:>10}\n", g.name, g.sm_count,
                       format_flops(g.fp32_flops) + "F",
                       g.fp16_tensor_flops > 0 ? format_flops(g.fp16_tensor_flops) + "F" : "-",
                       format_bytes(g.memory_bytes), format_byte_rate(g.memory_bandwidth_Bps),
                       format_byte_rate(c.sustained_bandwidth_Bps(g)) + (g.stream_bandwidth_Bps > 0 ? " " : "*"),
                       g.host_link);
  out += "* sustained bandwidth estimated: the peak times the share the measured GPUs sustain\n";
  out += fmt::format("\n{:<24} {:>6} {:>10} {:>8}\n", "CPU", "cores", "clock", "SIMD");
  for (const auto& p : c.cpus)
    out += fmt::format("{:<24} {:>6} {:>10} {:>8}\n", p.name, p.cores_per_socket,
                       fmt::format("{:.2f} GHz", p.base_clock_Hz / 1e9), p.simd);
  out += fmt::format("\n{:<22} {:>6} {:>5} {:<10} {:>5} {:>14} {:>10} {:<18}\n", "instance", "vCPUs", "GPUs", "GPU",
                     "cloud", "network", "USD/h", "billing");
  for (const auto& i : c.instances) {
    const auto* nic = c.find_nic(i.nic);
    out += fmt::format("{:<22} {:>6} {:>5} {:<10} {:>5} {:>14} {:>10.4f} {:<18}\n", i.name, i.vcpus, i.gpus,
                       i.gpu.empty() ? "-" : i.gpu, i.provider, nic ? format_bandwidth(nic->bandwidth_Bps) : "?",
                       i.price_usd_per_hour, i.billing);
  }
  out += "\n`dlsim hw show NAME` prints an entry in full, with its sources.\n";
  return out;
}

std::optional<ordered_json> catalog_entry_json(const hardware::Catalog& c, const std::string& name) {
  if (const auto* x = c.find_gpu(name)) return to_json(*x, c);
  if (const auto* x = c.find_cpu(name)) return to_json(*x);
  if (const auto* x = c.find_instance(name)) return to_json(*x);
  if (const auto* x = c.find_nic(name)) return to_json(*x);
  if (const auto* x = c.find_disk(name)) return to_json(*x);
  if (const auto* x = c.find_pcie_link(name)) return to_json(*x);
  if (const auto* x = c.find_billing_rule(name)) return to_json(*x);
  return std::nullopt;
}

std::optional<std::string> catalog_entry_text(const hardware::Catalog& c, const std::string& name, Format format) {
  auto entry = catalog_entry_json(c, name);
  if (!entry) return std::nullopt;
  if (format == Format::json) return entry->dump(2) + "\n";
  return entry_table(*entry);
}

std::vector<std::string> catalog_entry_names(const hardware::Catalog& c) {
  std::vector<std::string> names;
  for (const auto& list : {c.gpu_names(), c.cpu_names(), c.instance_names(), c.nic_names(), c.disk_names(), c.pcie_link_names(),
                           c.billing_rule_names()})
    names.insert(names.end(), list.begin(), list.end());
  return names;
}

}  // namespace dlsim::report
