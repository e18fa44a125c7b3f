#include "hardware/catalog.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "core/suggest.hpp"

namespace dlsim::hardware {
namespace {

template <typename T>
const T* find_named(const std::vector<T>& items, const std::string& name) {
  for (const auto& item : items)
    if (item.name == name) return &item;
  return nullptr;
}

template <typename T>
std::vector<std::string> names_of(const std::vector<T>& items) {
  std::vector<std::string> names;
  for (const auto& item : items) names.push_back(item.name);
  return names;
}

size_t simd_rank(const std::string& isa) {
  const auto& levels = simd_levels();
  const auto it = std::find(levels.begin(), levels.end(), isa);
  if (it == levels.end()) throw std::invalid_argument("unknown instruction set '" + isa + "'");
  return static_cast<size_t>(it - levels.begin());
}

}  // namespace

const std::vector<std::string>& simd_levels() {
  static const std::vector<std::string> levels{"sse2", "sse4.2", "avx", "avx2", "avx512"};
  return levels;
}

int simd_fp32_flops_per_cycle(const std::string& isa) {
  static const int flops[] = {8, 8, 16, 32, 64};
  return flops[simd_rank(isa)];
}

bool simd_supports(const std::string& cpu_simd, const std::string& isa) { return simd_rank(isa) <= simd_rank(cpu_simd); }

double Nic::payload_Bps() const {
  if (mtu_bytes <= 0) return bandwidth_Bps;
  return bandwidth_Bps * (mtu_bytes - 52.0) / (mtu_bytes + 38.0);
}

double Cpu::peak_fp32_flops_per_core(const std::string& isa) const {
  return base_clock_Hz * std::min(fp32_flops_per_cycle, simd_fp32_flops_per_cycle(isa));
}

const Gpu* Catalog::find_gpu(const std::string& name) const { return find_named(gpus, name); }
const Cpu* Catalog::find_cpu(const std::string& name) const { return find_named(cpus, name); }
const Nic* Catalog::find_nic(const std::string& name) const { return find_named(nics, name); }
const Disk* Catalog::find_disk(const std::string& name) const { return find_named(disks, name); }
const PcieLink* Catalog::find_pcie_link(const std::string& name) const { return find_named(pcie_links, name); }
const BillingRule* Catalog::find_billing_rule(const std::string& name) const { return find_named(billing_rules, name); }
const Instance* Catalog::find_instance(const std::string& name) const { return find_named(instances, name); }

const Gpu& Catalog::gpu(const std::string& name) const {
  if (const auto* g = find_gpu(name)) return *g;
  throw std::out_of_range(fmt::format("unknown GPU '{}' ({})", name, suggest(name, gpu_names())));
}

const Instance& Catalog::instance(const std::string& name) const {
  if (const auto* i = find_instance(name)) return *i;
  throw std::out_of_range(fmt::format("unknown instance '{}' ({})", name, suggest(name, instance_names())));
}

double Catalog::sustained_bandwidth_Bps(const Gpu& gpu) const {
  if (gpu.stream_bandwidth_Bps > 0) return gpu.stream_bandwidth_Bps;
  double shares = 0;
  int measured = 0;
  for (const auto& g : gpus)
    if (g.stream_bandwidth_Bps > 0 && g.memory_bandwidth_Bps > 0) {
      shares += g.stream_bandwidth_Bps / g.memory_bandwidth_Bps;
      ++measured;
    }
  return gpu.memory_bandwidth_Bps * (measured > 0 ? shares / measured : 1.0);
}

std::vector<std::string> Catalog::gpu_names() const { return names_of(gpus); }
std::vector<std::string> Catalog::cpu_names() const { return names_of(cpus); }
std::vector<std::string> Catalog::nic_names() const { return names_of(nics); }
std::vector<std::string> Catalog::disk_names() const { return names_of(disks); }
std::vector<std::string> Catalog::pcie_link_names() const { return names_of(pcie_links); }
std::vector<std::string> Catalog::billing_rule_names() const { return names_of(billing_rules); }
std::vector<std::string> Catalog::instance_names() const { return names_of(instances); }

}  // namespace dlsim::hardware
