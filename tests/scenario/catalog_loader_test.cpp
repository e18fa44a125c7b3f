#include <string>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "scenario/catalog_loader.hpp"

namespace dlsim::scenario {
namespace {

// A made-up GPU's catalog entry, with `extra` lines before its source.
std::string gpu_entry(const std::string& host_link, const std::string& extra = "") {
  return R"(
[[gpu]]
name = "x1"
full_name = "X1"
architecture = "volta"
sm_count = 10
base_clock = "1GHz"
boost_clock = "1GHz"
fp32 = "1Tflops"
fp16 = "2Tflops"
memory = "8GB"
memory_bandwidth = "300GBps"
host_link = ")" + host_link + "\"\n" + extra + "source = \"a made-up GPU for this test\"\n";
}

TEST(CatalogLoader, BrokenReferencesAreReported) {
  try {
    parse_catalog({{"mine.toml", gpu_entry("pcie9x16")}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("pcie9x16"), std::string::npos) << e.what();
  }
}

TEST(CatalogLoader, AStreamRateAboveThePeakIsAnError) {
  try {
    parse_catalog({{"mine.toml", gpu_entry("pcie3x16", "stream_bandwidth = \"400GBps\"\n")}});
    FAIL();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("gpu.stream_bandwidth"), std::string::npos) << what;
    EXPECT_NE(what.find("at most memory_bandwidth"), std::string::npos) << what;
  }
}

// A made-up CPU's catalog entry, with `extra` lines before its source.
std::string cpu_entry(const std::string& extra) {
  return R"(
[[cpu]]
name = "c1"
full_name = "C1"
cores_per_socket = 2
threads_per_core = 1
base_clock = "2GHz"
turbo_clock = "2GHz"
simd = "avx2"
fp32_flops_per_cycle = 32
memory_bandwidth = "20GBps"
)" + extra + "source = \"a made-up CPU for this test\"\n";
}

TEST(CatalogLoader, ACpusMeasuredWriteRateIsAnOptionalQuantity) {
  const auto rate = [](const std::string& extra) {
    return parse_catalog({{"mine.toml", cpu_entry(extra)}}).find_cpu("c1")->write_bandwidth_Bps;
  };
  EXPECT_DOUBLE_EQ(rate("write_bandwidth = \"8.87GBps\"\n"), 8.87e9);
  EXPECT_EQ(rate(""), 0);
  try {
    parse_catalog({{"mine.toml", cpu_entry("write_bandwidth = 9\n")}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cpu.write_bandwidth"), std::string::npos) << e.what();
  }
}

TEST(CatalogLoader, ACpusFreshPageWriteRateIsAnOptionalQuantity) {
  const auto cpu = [](const std::string& extra) { return *parse_catalog({{"mine.toml", cpu_entry(extra)}}).find_cpu("c1"); };
  EXPECT_DOUBLE_EQ(cpu("write_bandwidth = \"9.66GBps\"\nfresh_write_bandwidth = \"2.49GBps\"\n").fresh_write_bandwidth_Bps,
                   2.49e9);
  EXPECT_EQ(cpu("").fresh_write_bandwidth_Bps, 0);
  try {
    parse_catalog({{"mine.toml", cpu_entry("fresh_write_bandwidth = \"fast\"\n")}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cpu.fresh_write_bandwidth"), std::string::npos) << e.what();
  }
}

TEST(CatalogLoader, AMeshNamesLinksBetweenItsOwnGpusWithinTheirCount) {
  auto files = hardware::embedded_catalog_files();
  files.push_back({"mine.toml", R"(
[[instance]]
name = "two-p100s"
provider = "on-premises"
vcpus = 8
cpu = "xeon-e5-2698-v4"
memory = "64GiB"
gpu = "p100-sxm2"
gpus = 2
gpus_per_pcie_switch = 2
nvlink = "hybrid-cube-mesh"
nvlink_pairs = ["0-1x5", "0-2", "1-1", "one-two", "99999999999-1"]
nic = "ena-10g"
price_usd_per_hour = 1
price_date = "2026-01-01"
billing = "on-premises-amortised"
source = "a made-up machine for this test"
)"});
  try {
    parse_catalog(files);
    FAIL();
  } catch (const InputError& e) {
    const std::string what = e.what();
    for (const char* part : {"value '0-2'", "value '1-1'", "value 'one-two'", "value '99999999999-1'",
                             "two GPU indices below 2",
                             "GPU 0: 5 links", "at most the 4 links of a p100-sxm2"})
      EXPECT_NE(what.find(part), std::string::npos) << part << " in " << what;
  }
}

TEST(CatalogLoader, BareNumbersAndMissingSourcesAreErrors) {
  const std::vector<hardware::CatalogFile> files = {{"mine.toml", R"(
[[nic]]
name = "n"
bandwidth = 25
)"}};
  try {
    parse_catalog(files);
    FAIL();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("mine.toml:4:13"), std::string::npos) << what;
    EXPECT_NE(what.find("nic.bandwidth"), std::string::npos) << what;
    EXPECT_NE(what.find("nic.source"), std::string::npos) << what;
    EXPECT_EQ(e.problems().size(), 2u);
  }
}

}  // namespace
}  // namespace dlsim::scenario
