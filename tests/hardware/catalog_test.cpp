// The built-in catalog: complete, cited, and internally consistent.
#include <set>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "scenario/catalog_loader.hpp"

namespace dlsim::hardware {
namespace {

const Catalog& catalog() { return scenario::builtin_catalog(); }

TEST(Catalog, HasEveryGpuTheIssueNames) {
  for (const char* name : {"k80", "p100-pcie", "p100-sxm2", "v100-pcie", "v100-sxm2", "t4", "a100-40gb", "a100-80gb",
                           "h100-sxm", "h100-pcie", "h200"})
    EXPECT_NE(catalog().find_gpu(name), nullptr) << name;
}

TEST(Catalog, HasEveryInstanceTheIssueNames) {
  for (const char* name : {"p2.xlarge", "p2.8xlarge", "p2.16xlarge", "p3.2xlarge", "p3.8xlarge", "p3.16xlarge",
                           "p4d.24xlarge", "p5.48xlarge", "g4dn.xlarge", "t3.2xlarge", "azure-nc6", "azure-nc12",
                           "azure-nc24", "gcp-n1-standard-8-k80"})
    EXPECT_NE(catalog().find_instance(name), nullptr) << name;
}

TEST(Catalog, EveryEntryCitesASource) {
  for (const auto& g : catalog().gpus) EXPECT_GT(g.source.size(), 20u) << g.name;
  for (const auto& c : catalog().cpus) EXPECT_GT(c.source.size(), 20u) << c.name;
  for (const auto& i : catalog().instances) EXPECT_GT(i.source.size(), 20u) << i.name;
  for (const auto& n : catalog().nics) EXPECT_GT(n.source.size(), 20u) << n.name;
  for (const auto& d : catalog().disks) EXPECT_GT(d.source.size(), 20u) << d.name;
  for (const auto& l : catalog().pcie_links) EXPECT_GT(l.source.size(), 20u) << l.name;
  for (const auto& b : catalog().billing_rules) EXPECT_GT(b.source.size(), 20u) << b.name;
}

// Datasheet arithmetic that must hold: FP32 peak = 2 x cores x boost clock, with 192 cores
// per Kepler SMX, 128 per Maxwell SM, 64 per Pascal (GP100), Volta, Turing, Ampere (GA100)
// SM, 128 per consumer Pascal (GP102) and Hopper SM.
TEST(Catalog, Fp32PeakIsTwiceCoresTimesBoostClock) {
  const std::pair<const char*, int> cores_per_sm[] = {{"kepler", 192}, {"maxwell", 128}, {"pascal", 64},
                                                      {"volta", 64},   {"turing", 64},   {"ampere", 64},
                                                      {"hopper", 128}};
  const std::set<std::string> gp102 = {"titan-x-pascal", "gtx-1080-ti", "titan-xp"};
  for (const auto& g : catalog().gpus) {
    int per_sm = 0;
    for (const auto& [arch, cores] : cores_per_sm)
      if (g.architecture == arch) per_sm = gp102.count(g.name) ? 128 : cores;
    ASSERT_GT(per_sm, 0) << g.name;
    const double expected = 2.0 * per_sm * g.sm_count * g.boost_clock_Hz;
    EXPECT_NEAR(g.fp32_flops / expected, 1.0, 0.02) << g.name;
  }
}

TEST(Catalog, K80IsOneDieOfABoard) {
  const Gpu& k80 = catalog().gpu("k80");
  EXPECT_EQ(k80.sm_count, 13);
  EXPECT_DOUBLE_EQ(k80.memory_bytes, 12e9);
  EXPECT_DOUBLE_EQ(k80.memory_bandwidth_Bps, 240e9);
  const Instance& p2 = catalog().instance("p2.16xlarge");
  EXPECT_EQ(p2.gpus, 16);
  EXPECT_EQ(p2.gpus_per_pcie_switch, 2);
  EXPECT_DOUBLE_EQ(catalog().find_nic(p2.nic)->bandwidth_Bps, 25e9 / 8);
}

TEST(Catalog, StudyMachinesAreThere) {
  const Instance& server = catalog().instance("p3.2xlarge");  // study A
  EXPECT_EQ(server.gpu, "v100-sxm2");
  EXPECT_EQ(server.vcpus, 8);
  EXPECT_DOUBLE_EQ(catalog().find_nic(catalog().instance("t3.2xlarge").nic)->bandwidth_Bps, 5e9 / 8);
  EXPECT_EQ(catalog().instance("azure-nc12").gpus, 2);  // study B
}

TEST(Catalog, BillingRulesMatchTheProviders) {
  const auto* aws = catalog().find_billing_rule("aws-per-second");
  ASSERT_NE(aws, nullptr);
  EXPECT_DOUBLE_EQ(aws->granularity_s, 1);
  EXPECT_DOUBLE_EQ(aws->minimum_s, 60);
  EXPECT_DOUBLE_EQ(catalog().find_billing_rule("gcp-per-minute-10min")->minimum_s, 600);
  EXPECT_DOUBLE_EQ(catalog().find_billing_rule("azure-per-minute")->granularity_s, 60);
}

TEST(Catalog, DisksStateTheirReads) {
  const Disk* gp2 = catalog().find_disk("ebs-gp2-1tib");
  ASSERT_NE(gp2, nullptr);
  EXPECT_DOUBLE_EQ(gp2->read_bandwidth_Bps, 250.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(gp2->read_iops, 3000);
  EXPECT_DOUBLE_EQ(gp2->latency_s, 1e-3);
  EXPECT_EQ(catalog().find_disk("floppy"), nullptr);
}

TEST(Catalog, TcpCarriesAnEthernetFramesPayloadOfTheLine) {
  // An MTU-sized packet's payload (MTU - 52) over what its frame takes on the wire (MTU +
  // 38): AWS's jumbo frames lose 1%, Google Cloud's 1,460-byte packets 6%; an RDMA fabric's
  // stated rate is its payload's already.
  const auto& aws = *catalog().find_nic("ena-25g");
  EXPECT_EQ(aws.mtu_bytes, 9001);
  EXPECT_NEAR(aws.payload_Bps() / aws.bandwidth_Bps, 8949.0 / 9039, 1e-12);
  const auto& gcp = *catalog().find_nic("gcp-16g");
  EXPECT_NEAR(gcp.payload_Bps() / gcp.bandwidth_Bps, 1408.0 / 1498, 1e-12);
  const auto& ib = *catalog().find_nic("ib-edr-4x100g");
  EXPECT_EQ(ib.payload_Bps(), ib.bandwidth_Bps);
}

TEST(Catalog, AGpuSustainsItsMeasuredStreamRateOrTheMeasuredOnesMeanShareOfItsPeak) {
  const Gpu& p100 = catalog().gpu("p100-sxm2");
  EXPECT_DOUBLE_EQ(catalog().sustained_bandwidth_Bps(p100), 557.23e9);  // STREAM triad, ECC on
  double shares = 0;
  int measured = 0;
  const Gpu* unmeasured = nullptr;
  for (const auto& g : catalog().gpus) {
    EXPECT_LE(g.stream_bandwidth_Bps, g.memory_bandwidth_Bps) << g.name;
    if (g.stream_bandwidth_Bps > 0) {
      shares += g.stream_bandwidth_Bps / g.memory_bandwidth_Bps;
      ++measured;
    } else if (!unmeasured) {
      unmeasured = &g;
    }
  }
  ASSERT_GE(measured, 4);
  ASSERT_NE(unmeasured, nullptr);
  const double estimate = catalog().sustained_bandwidth_Bps(*unmeasured);
  EXPECT_NEAR(estimate, unmeasured->memory_bandwidth_Bps * shares / measured, 1);
  EXPECT_LT(estimate, unmeasured->memory_bandwidth_Bps);
}

TEST(Catalog, ThrowingLookupNamesTheClosest) {
  try {
    catalog().gpu("v100-sxm");
    FAIL();
  } catch (const std::out_of_range& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'v100-sxm2'?"), std::string::npos) << e.what();
  }
  EXPECT_EQ(catalog().find_instance("p9.huge"), nullptr);
}

// A binary built for older instructions runs at their peak: a Haswell core (two AVX2 FMA
// units, 32 FLOPs a cycle) gives 8 a cycle to SSE2 code and 16 to AVX; a CPU's own peak
// caps a wider request.
TEST(Catalog, NarrowerInstructionsLowerTheCorePeak) {
  const Cpu& haswell = *catalog().find_cpu("xeon-e5-2690-v3");
  EXPECT_DOUBLE_EQ(haswell.peak_fp32_flops_per_core("sse2"), 2.6e9 * 8);
  EXPECT_DOUBLE_EQ(haswell.peak_fp32_flops_per_core("avx"), 2.6e9 * 16);
  EXPECT_DOUBLE_EQ(haswell.peak_fp32_flops_per_core("avx2"), haswell.peak_fp32_flops_per_core());
  EXPECT_DOUBLE_EQ(haswell.peak_fp32_flops_per_core("avx512"), haswell.peak_fp32_flops_per_core());
  EXPECT_TRUE(simd_supports("avx2", "sse2"));
  EXPECT_TRUE(simd_supports("sse4.2", "sse4.2"));
  EXPECT_FALSE(simd_supports("sse4.2", "avx"));
  EXPECT_THROW(simd_fp32_flops_per_cycle("avx3"), std::invalid_argument);
}

}  // namespace
}  // namespace dlsim::hardware
