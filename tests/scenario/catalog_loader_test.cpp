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
