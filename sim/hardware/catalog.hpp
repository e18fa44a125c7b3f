#pragma once
// The hardware catalog: what each GPU, CPU, link, NIC and cloud instance can do and
// costs.  The numbers live in data files (sim/hardware/catalog/*.toml), each citing its
// source; sim/scenario parses them into these structs, so that this module stays free of
// any file format.  All quantities are in SI units.

#include <optional>
#include <string>
#include <vector>

namespace dlsim::hardware {

struct PcieLink {
  std::string name;               // "pcie3x16"
  int generation = 0;
  int lanes = 0;
  double theoretical_Bps = 0;     // per direction
  double typical_Bps = 0;         // per direction, as copies usually achieve
  std::string source;
};

struct Gpu {
  std::string name;               // catalog key, e.g. "v100-sxm2"
  std::string full_name;
  std::string architecture;
  int sm_count = 0;
  double base_clock_Hz = 0;
  double boost_clock_Hz = 0;
  double fp32_flops = 0;          // dense peak at boost clock
  double fp16_flops = 0;          // non-tensor FP16
  double tf32_tensor_flops = 0;   // 0 where there are no TF32 tensor cores
  double fp16_tensor_flops = 0;   // dense; 0 where there are no tensor cores
  double memory_bytes = 0;
  double memory_bandwidth_Bps = 0;  // the datasheet's peak
  // What streaming kernels sustain, measured (a STREAM triad or alike, ECC on); 0 where the
  // catalog cites no measurement (Catalog::sustained_bandwidth_Bps estimates it then).
  double stream_bandwidth_Bps = 0;
  std::string host_link;          // a PcieLink name
  double nvlink_bandwidth_Bps = 0;  // total per GPU, both directions; 0 without NVLink
  int nvlink_links = 0;
  // The share of its peak arithmetic rate an SM can issue on dense kernels, where the
  // architecture cannot feed all its cores (1 elsewhere): carried into the rate a kernel is
  // scaled by when it moves between GPUs (sim/perf/gpu_roofline.hpp).
  double issue_efficiency = 1.0;
  std::string source;
};

struct Cpu {
  std::string name;
  std::string full_name;
  int cores_per_socket = 0;
  int threads_per_core = 0;
  double base_clock_Hz = 0;
  double turbo_clock_Hz = 0;
  std::string simd;               // "sse4.2", "avx2", "avx512"
  int fp32_flops_per_cycle = 0;   // per core: SIMD width x FMA units x 2
  double memory_bandwidth_Bps = 0;  // per socket
  // One thread writing pages already mapped, measured (the CPU calibration's first_touch
  // "warm" phase); 0 where not measured.
  double write_bandwidth_Bps = 0;
  // The same thread writing pages it faults in afresh (first_touch's "fresh" phase: a
  // fresh mapping's pages faulted, zeroed and written); 0 where not measured.
  double fresh_write_bandwidth_Bps = 0;
  std::string source;

  double peak_fp32_flops_per_core() const { return base_clock_Hz * fp32_flops_per_cycle; }
  // The peak of code built for vector instructions no wider than `isa` (a binary compiled
  // for an older baseline, e.g. TensorFlow's pip wheels before 1.6 for SSE2).
  double peak_fp32_flops_per_core(const std::string& isa) const;
};

// Vector instruction sets from the oldest: "sse2", "sse4.2", "avx", "avx2", "avx512".
const std::vector<std::string>& simd_levels();
// FP32 FLOPs a core issues per cycle with `isa` alone: 4 lanes x (one add + one multiply
// port) for SSE, 8 lanes likewise for AVX, two 8-lane FMA units for AVX2 (two 16-lane ones
// for AVX-512).
int simd_fp32_flops_per_cycle(const std::string& isa);
// Whether a CPU whose widest instructions are `cpu_simd` can run code built for `isa`.
bool simd_supports(const std::string& cpu_simd, const std::string& isa);

// A disk files are read from: a cloud volume or a local drive, as its maker states it.
struct Disk {
  std::string name;
  double read_bandwidth_Bps = 0;
  double read_iops = 0;    // reads a second, each of one file of up to the volume's largest I/O
  double latency_s = 0;    // one read's access time
  std::string source;
};

struct Nic {
  std::string name;
  double bandwidth_Bps = 0;       // per direction, the line rate
  int mtu_bytes = 0;              // TCP over Ethernet in packets of this size; 0: RDMA, the rate is the payload's
  std::string source;

  // What a TCP stream carries per direction: each Ethernet frame of an MTU-sized packet
  // holds MTU - 52 bytes of payload (IPv4 20, TCP 20 with its timestamps 12) and takes
  // MTU + 38 on the wire (header 14, frame check 4, preamble 8, inter-frame gap 12): 94%
  // of the line at 1,500 bytes, 99% at AWS's 9,001.  Measured through a veth pair that
  // tc limits to 5 Gbit/s counting a frame as MTU + 14: 4.78 Gbit/s, 1448/1514 of it
  // (calibration/raw/devbox-epyc-turin-2vcpu-python-serving/python_http_veth.json).
  double payload_Bps() const;
};

struct BillingRule {
  std::string name;
  double granularity_s = 0;       // the billed time is rounded up to a multiple of this
  double minimum_s = 0;           // and is at least this
  std::string valid_from;         // ISO date; empty when unknown
  std::string valid_until;        // ISO date; empty while current
  std::string source;
};

// NVLink between two GPUs of an instance: `links` links bonded between GPUs a and b
// (nvidia-smi topo -m's NV1, NV2).
struct NvlinkPair {
  int a = 0, b = 0;
  int links = 1;
};

struct Instance {
  std::string name;
  std::string provider;
  int vcpus = 0;
  int vcpus_per_core = 1;         // 2 where a vCPU is one of a core's two hyperthreads
  std::string cpu;
  double memory_bytes = 0;
  std::string gpu;                // empty for CPU-only instances
  int gpus = 0;
  int gpus_per_pcie_switch = 0;   // GPUs sharing one switch's uplink to the host
  std::string nvlink;             // "none", "hybrid-cube-mesh", "nvswitch"
  std::vector<NvlinkPair> nvlink_pairs;  // a hybrid cube-mesh's links, GPU pair by pair
  std::string nic;
  double price_usd_per_hour = 0;
  std::string price_date;
  std::string billing;            // a BillingRule name
  std::string source;

  int cores() const { return vcpus / vcpus_per_core; }
};

class Catalog {
 public:
  std::vector<Gpu> gpus;
  std::vector<Cpu> cpus;
  std::vector<Nic> nics;
  std::vector<Disk> disks;
  std::vector<PcieLink> pcie_links;
  std::vector<BillingRule> billing_rules;
  std::vector<Instance> instances;

  // find_*() return nullptr when absent; the plain names throw std::out_of_range with the
  // closest valid name.
  const Gpu* find_gpu(const std::string& name) const;
  const Cpu* find_cpu(const std::string& name) const;
  const Nic* find_nic(const std::string& name) const;
  const Disk* find_disk(const std::string& name) const;
  const PcieLink* find_pcie_link(const std::string& name) const;
  const BillingRule* find_billing_rule(const std::string& name) const;
  const Instance* find_instance(const std::string& name) const;
  const Gpu& gpu(const std::string& name) const;
  const Instance& instance(const std::string& name) const;

  // The memory bandwidth a GPU's streaming kernels (element-wise, normalisation, pooling,
  // optimizer updates) sustain: its measured STREAM rate, or where none is cited its peak
  // times the mean share of peak that the catalog's measured GPUs sustain (the peak alone
  // when none is).
  double sustained_bandwidth_Bps(const Gpu& gpu) const;

  std::vector<std::string> gpu_names() const;
  std::vector<std::string> cpu_names() const;
  std::vector<std::string> nic_names() const;
  std::vector<std::string> disk_names() const;
  std::vector<std::string> pcie_link_names() const;
  std::vector<std::string> billing_rule_names() const;
  std::vector<std::string> instance_names() const;
};

// The catalog's data files as compiled into dlsim: {file name, text}.
struct CatalogFile {
  std::string name;
  std::string text;
};
const std::vector<CatalogFile>& embedded_catalog_files();

}  // namespace dlsim::hardware
