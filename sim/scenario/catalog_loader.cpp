#include "scenario/catalog_loader.hpp"

#include <regex>

#include <fmt/format.h>

#include "core/suggest.hpp"
#include "core/units.hpp"
#include "scenario/toml_reader.hpp"

namespace dlsim::scenario {
namespace {

using hardware::Catalog;

void read_gpu(TableReader& r, Catalog& c) {
  hardware::Gpu g;
  g.name = r.string("name", true).value_or("");
  g.full_name = r.string("full_name", true).value_or("");
  g.architecture = r.string("architecture", true).value_or("");
  g.sm_count = static_cast<int>(r.integer("sm_count", 1, 10000, true).value_or(0));
  g.base_clock_Hz = r.quantity("base_clock", UnitKind::frequency, true).value_or(0);
  g.boost_clock_Hz = r.quantity("boost_clock", UnitKind::frequency, true).value_or(0);
  g.fp32_flops = r.quantity("fp32", UnitKind::flop_rate, true).value_or(0);
  g.fp16_flops = r.quantity("fp16", UnitKind::flop_rate, true).value_or(0);
  g.tf32_tensor_flops = r.quantity("tf32_tensor", UnitKind::flop_rate).value_or(0);
  g.fp16_tensor_flops = r.quantity("fp16_tensor", UnitKind::flop_rate).value_or(0);
  g.memory_bytes = r.quantity("memory", UnitKind::bytes, true).value_or(0);
  g.memory_bandwidth_Bps = r.quantity("memory_bandwidth", UnitKind::bandwidth, true).value_or(0);
  g.stream_bandwidth_Bps = r.quantity("stream_bandwidth", UnitKind::bandwidth).value_or(0);
  if (g.stream_bandwidth_Bps > g.memory_bandwidth_Bps)
    r.problem("stream_bandwidth", format_byte_rate(g.stream_bandwidth_Bps),
              fmt::format("at most memory_bandwidth ({}): a measured rate cannot beat the peak",
                          format_byte_rate(g.memory_bandwidth_Bps)),
              "check the units: GBps is 10^9 bytes a second");
  g.host_link = r.string("host_link", true).value_or("");
  g.nvlink_bandwidth_Bps = r.quantity("nvlink", UnitKind::bandwidth).value_or(0);
  g.nvlink_links = static_cast<int>(r.integer("nvlink_links", 0, 64).value_or(0));
  g.issue_efficiency = r.number("issue_efficiency", 0.01, 1.0).value_or(1.0);
  g.source = r.string("source", true).value_or("");
  c.gpus.push_back(g);
}

void read_cpu(TableReader& r, Catalog& c) {
  hardware::Cpu p;
  p.name = r.string("name", true).value_or("");
  p.full_name = r.string("full_name", true).value_or("");
  p.cores_per_socket = static_cast<int>(r.integer("cores_per_socket", 1, 1024, true).value_or(0));
  p.threads_per_core = static_cast<int>(r.integer("threads_per_core", 1, 8, true).value_or(0));
  p.base_clock_Hz = r.quantity("base_clock", UnitKind::frequency, true).value_or(0);
  p.turbo_clock_Hz = r.quantity("turbo_clock", UnitKind::frequency, true).value_or(0);
  p.simd = r.choice("simd", hardware::simd_levels(), true).value_or("");
  p.fp32_flops_per_cycle = static_cast<int>(r.integer("fp32_flops_per_cycle", 1, 1024, true).value_or(0));
  p.memory_bandwidth_Bps = r.quantity("memory_bandwidth", UnitKind::bandwidth, true).value_or(0);
  p.write_bandwidth_Bps = r.quantity("write_bandwidth", UnitKind::bandwidth).value_or(0);
  p.fresh_write_bandwidth_Bps = r.quantity("fresh_write_bandwidth", UnitKind::bandwidth).value_or(0);
  p.source = r.string("source", true).value_or("");
  c.cpus.push_back(p);
}

void read_pcie(TableReader& r, Catalog& c) {
  hardware::PcieLink l;
  l.name = r.string("name", true).value_or("");
  l.generation = static_cast<int>(r.integer("generation", 1, 7, true).value_or(0));
  l.lanes = static_cast<int>(r.integer("lanes", 1, 32, true).value_or(0));
  l.theoretical_Bps = r.quantity("theoretical", UnitKind::bandwidth, true).value_or(0);
  l.typical_Bps = r.quantity("typical", UnitKind::bandwidth, true).value_or(0);
  l.source = r.string("source", true).value_or("");
  c.pcie_links.push_back(l);
}

void read_disk(TableReader& r, Catalog& c) {
  hardware::Disk d;
  d.name = r.string("name", true).value_or("");
  d.read_bandwidth_Bps = r.quantity("read_bandwidth", UnitKind::bandwidth, true).value_or(0);
  d.read_iops = r.number("read_iops", 1, 1e9, true).value_or(0);
  d.latency_s = r.quantity("latency", UnitKind::time, true).value_or(0);
  d.source = r.string("source", true).value_or("");
  c.disks.push_back(d);
}

void read_nic(TableReader& r, Catalog& c) {
  hardware::Nic n;
  n.name = r.string("name", true).value_or("");
  n.bandwidth_Bps = r.quantity("bandwidth", UnitKind::bandwidth, true).value_or(0);
  n.mtu_bytes = static_cast<int>(r.integer("mtu", 576, 65536).value_or(0));
  n.source = r.string("source", true).value_or("");
  c.nics.push_back(n);
}

void read_billing(TableReader& r, Catalog& c) {
  hardware::BillingRule b;
  b.name = r.string("name", true).value_or("");
  b.granularity_s = r.quantity("granularity", UnitKind::time, true).value_or(0);
  b.minimum_s = r.quantity("minimum", UnitKind::time, true).value_or(0);
  b.valid_from = r.string("valid_from").value_or("");
  b.valid_until = r.string("valid_until").value_or("");
  b.source = r.string("source", true).value_or("");
  c.billing_rules.push_back(b);
}

// A hybrid cube-mesh names its links pair by pair: nvlink_pairs = ["0-1", "0-3x2", ...],
// GPU indices below the instance's count, "xN" for N bonded links.
void read_nvlink_pairs(TableReader& r, hardware::Instance& i) {
  const auto pairs = r.strings("nvlink_pairs");
  if (i.nvlink == "hybrid-cube-mesh" && !pairs)
    r.problem("nvlink_pairs", "", "is required with nvlink = \"hybrid-cube-mesh\"", "e.g. [\"0-1\", \"0-3x2\"]");
  if (i.nvlink != "hybrid-cube-mesh" && pairs)
    r.problem("nvlink_pairs", "", "only a hybrid cube-mesh lists its links", "remove nvlink_pairs");
  static const std::regex pair(R"((\d{1,4})-(\d{1,4})(?:x(\d{1,4}))?)");  // stoi cannot overflow
  for (const auto& text : pairs.value_or(std::vector<std::string>{})) {
    std::smatch m;
    hardware::NvlinkPair p;
    if (std::regex_match(text, m, pair)) {
      p.a = std::stoi(m[1]);
      p.b = std::stoi(m[2]);
      p.links = m[3].matched ? std::stoi(m[3]) : 1;
    }
    if (m.empty() || p.a == p.b || p.a >= i.gpus || p.b >= i.gpus || p.links < 1)
      r.problem("nvlink_pairs", text,
                fmt::format("two GPU indices below {} and a link count, as \"A-B\" or \"A-BxN\"", i.gpus));
    else
      i.nvlink_pairs.push_back(p);
  }
}

void read_instance(TableReader& r, Catalog& c) {
  hardware::Instance i;
  i.name = r.string("name", true).value_or("");
  i.provider = r.choice("provider", {"aws", "azure", "gcp", "on-premises"}, true).value_or("");
  i.vcpus = static_cast<int>(r.integer("vcpus", 1, 4096, true).value_or(0));
  i.vcpus_per_core = static_cast<int>(r.integer("vcpus_per_core", 1, 2, true).value_or(1));
  if (i.vcpus % i.vcpus_per_core != 0)
    r.problem("vcpus", std::to_string(i.vcpus), fmt::format("a multiple of vcpus_per_core ({})", i.vcpus_per_core));
  i.cpu = r.string("cpu", true).value_or("");
  i.memory_bytes = r.quantity("memory", UnitKind::bytes, true).value_or(0);
  i.gpu = r.string("gpu").value_or("");
  i.gpus = static_cast<int>(r.integer("gpus", 0, 64, true).value_or(0));
  i.gpus_per_pcie_switch = static_cast<int>(r.integer("gpus_per_pcie_switch", 1, 64).value_or(0));
  i.nvlink = r.choice("nvlink", {"none", "hybrid-cube-mesh", "nvswitch"}, true).value_or("none");
  read_nvlink_pairs(r, i);
  i.nic = r.string("nic", true).value_or("");
  i.price_usd_per_hour = r.number("price_usd_per_hour", 0, 1e4, true).value_or(0);
  i.price_date = r.string("price_date", true).value_or("");
  i.billing = r.string("billing", true).value_or("");
  i.source = r.string("source", true).value_or("");
  if ((i.gpus > 0) != !i.gpu.empty()) r.problem("gpus", std::to_string(i.gpus), "gpus > 0 exactly when a gpu is named");
  if (i.gpus > 0 && i.gpus_per_pcie_switch == 0) r.problem("gpus_per_pcie_switch", "", "is required when gpus > 0");
  c.instances.push_back(i);
}

// Every name an entry refers to must exist.
void check_references(const Catalog& c, ProblemList& problems) {
  auto check = [&problems](const std::string& where, const std::string& key, const std::string& value,
                           const std::vector<std::string>& valid) {
    for (const auto& v : valid)
      if (v == value) return;
    problems.add(Problem{{"catalog", 0, 0}, where + "." + key, value, "names no catalog entry", suggest(value, valid)});
  };
  for (const auto& g : c.gpus) check("gpu " + g.name, "host_link", g.host_link, c.pcie_link_names());
  for (const auto& i : c.instances) {
    check("instance " + i.name, "cpu", i.cpu, c.cpu_names());
    if (!i.gpu.empty()) check("instance " + i.name, "gpu", i.gpu, c.gpu_names());
    check("instance " + i.name, "nic", i.nic, c.nic_names());
    check("instance " + i.name, "billing", i.billing, c.billing_rule_names());
    const auto* gpu = c.find_gpu(i.gpu);
    std::vector<int> links(static_cast<size_t>(i.gpus), 0);
    for (const auto& p : i.nvlink_pairs) {
      links[static_cast<size_t>(p.a)] += p.links;
      links[static_cast<size_t>(p.b)] += p.links;
    }
    for (size_t g = 0; gpu && g < links.size(); ++g)
      if (links[g] > gpu->nvlink_links)
        problems.add(Problem{{"catalog", 0, 0}, "instance " + i.name + ".nvlink_pairs",
                             fmt::format("GPU {}: {} links", g, links[g]),
                             fmt::format("at most the {} links of a {}", gpu->nvlink_links, gpu->name), ""});
  }
}

}  // namespace

Catalog parse_catalog(const std::vector<hardware::CatalogFile>& files) {
  Catalog catalog;
  ProblemList problems;
  for (const auto& file : files) {
    toml::table root;
    try {
      root = toml::parse(file.text, file.name);
    } catch (const toml::parse_error& e) {
      problems.add(Problem{location_of(e.source()), "", "", std::string(e.description()), ""});
      continue;
    }
    TableReader top(root, "", problems);
    const std::pair<const char*, void (*)(TableReader&, Catalog&)> sections[] = {
        {"gpu", read_gpu}, {"cpu", read_cpu}, {"pcie", read_pcie},
        {"nic", read_nic}, {"disk", read_disk}, {"billing", read_billing}, {"instance", read_instance}};
    for (const auto& [key, read] : sections) {
      if (const auto* entries = top.array_of_tables(key)) {
        for (const auto& entry : *entries) {
          TableReader r(*entry.as_table(), key, problems);
          read(r, catalog);
          r.finish();
        }
      }
    }
    top.finish();
  }
  check_references(catalog, problems);
  problems.throw_if_any();
  return catalog;
}

const Catalog& builtin_catalog() {
  static const Catalog catalog = parse_catalog(hardware::embedded_catalog_files());
  return catalog;
}

}  // namespace dlsim::scenario
