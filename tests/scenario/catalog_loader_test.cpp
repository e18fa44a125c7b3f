#include <gtest/gtest.h>

#include "core/error.hpp"
#include "scenario/catalog_loader.hpp"

namespace dlsim::scenario {
namespace {

TEST(CatalogLoader, BrokenReferencesAreReported) {
  const std::vector<hardware::CatalogFile> files = {{"mine.toml", R"(
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
host_link = "pcie9x16"
source = "a made-up GPU for this test"
)"}};
  try {
    parse_catalog(files);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("pcie9x16"), std::string::npos) << e.what();
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
