#include <gtest/gtest.h>

#include "report/hardware_report.hpp"
#include "scenario/catalog_loader.hpp"

namespace dlsim::report {
namespace {

TEST(HardwareReport, EveryEntryCanBeShownWithItsSource) {
  const auto& catalog = scenario::builtin_catalog();
  for (const auto& name : catalog_entry_names(catalog)) {
    const auto entry = catalog_entry_json(catalog, name);
    ASSERT_TRUE(entry) << name;
    EXPECT_FALSE((*entry)["source"].get<std::string>().empty()) << name;
  }
  EXPECT_FALSE(catalog_entry_text(catalog, "no-such-thing", Format::table));
}

TEST(HardwareReport, NetworksInBitsMemoryInBytes) {
  const auto& catalog = scenario::builtin_catalog();
  EXPECT_NE(catalog_entry_text(catalog, "ena-25g", Format::table)->find("25 Gbit/s"), std::string::npos);
  EXPECT_NE(catalog_entry_text(catalog, "v100-sxm2", Format::table)->find("900 GB/s"), std::string::npos);
}

}  // namespace
}  // namespace dlsim::report
