#include <gtest/gtest.h>

#include "core/suggest.hpp"

namespace dlsim {
namespace {

TEST(Suggest, EditDistanceCountsTranspositionsOnce) {
  EXPECT_EQ(edit_distance("v100", "v100"), 0);
  EXPECT_EQ(edit_distance("v10", "v100"), 1);
  EXPECT_EQ(edit_distance("Gbsp", "Gbps"), 1);
  EXPECT_EQ(edit_distance("RESNET50", "resnet50"), 0);
}

TEST(Suggest, ClosestNameOnlyWhenPlausible) {
  const std::vector<std::string> gpus = {"k80", "p100-pcie", "v100-sxm2", "a100-40gb"};
  EXPECT_EQ(closest_name("v100-sxm", gpus), "v100-sxm2");
  EXPECT_FALSE(closest_name("tpu", gpus));
  EXPECT_EQ(suggest("tpu", {"a", "b"}), "valid: a, b");
}

}  // namespace
}  // namespace dlsim
