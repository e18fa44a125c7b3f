#include <gtest/gtest.h>

#include "core/units.hpp"

namespace dlsim {
namespace {

TEST(Units, ParsesEveryKindIntoSiUnits) {
  EXPECT_DOUBLE_EQ(parse_quantity("25Gbps", UnitKind::bandwidth), 25e9 / 8);
  EXPECT_DOUBLE_EQ(parse_quantity("12GBps", UnitKind::bandwidth), 12e9);
  EXPECT_DOUBLE_EQ(parse_quantity("12GB/s", UnitKind::bandwidth), 12e9);
  EXPECT_DOUBLE_EQ(parse_quantity("16GiB", UnitKind::bytes), 16.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(parse_quantity("16GB", UnitKind::bytes), 16e9);
  EXPECT_DOUBLE_EQ(parse_quantity("5us", UnitKind::time), 5e-6);
  EXPECT_DOUBLE_EQ(parse_quantity("10min", UnitKind::time), 600);
  EXPECT_DOUBLE_EQ(parse_quantity("2.3GHz", UnitKind::frequency), 2.3e9);
  EXPECT_DOUBLE_EQ(parse_quantity("15.7Tflops", UnitKind::flop_rate), 15.7e12);
}

TEST(Units, BareNumberIsAnError) {
  try {
    parse_quantity("25", UnitKind::bandwidth);
    FAIL();
  } catch (const UnitError& e) {
    EXPECT_NE(std::string(e.what()).find("has no unit"), std::string::npos) << e.what();
  }
}

TEST(Units, TypoSuggestsTheClosestUnit) {
  try {
    parse_quantity("25Gbsp", UnitKind::bandwidth);
    FAIL();
  } catch (const UnitError& e) {
    EXPECT_EQ(e.suggestion(), "did you mean 'Gbps'?");
  }
}

TEST(Units, RejectsNegativeAndWrongKind) {
  EXPECT_THROW(parse_quantity("-5us", UnitKind::time), UnitError);
  EXPECT_THROW(parse_quantity("5us", UnitKind::bytes), UnitError);
  EXPECT_THROW(parse_quantity("abc", UnitKind::bytes), UnitError);
  try {  // negative before its unit is looked at: no unit to suggest for it
    parse_quantity("-5", UnitKind::time);
    FAIL();
  } catch (const UnitError& e) {
    EXPECT_NE(std::string(e.what()).find("is negative"), std::string::npos) << e.what();
    EXPECT_EQ(e.suggestion(), "");
  }
}

TEST(Units, FormatsForReports) {
  EXPECT_EQ(format_bandwidth(25e9 / 8), "25 Gbit/s");
  EXPECT_EQ(format_bytes(1536), "1.50 KiB");
  EXPECT_EQ(format_time(0.0025), "2.5 ms");
}

}  // namespace
}  // namespace dlsim
