// Rings over an NVLink mesh: how many, and that each is a cycle over the links without
// sharing one with another ring in the same direction.
#include <map>
#include <set>
#include <utility>

#include <gtest/gtest.h>

#include "train/rings.hpp"

namespace dlsim::train {
namespace {

// The DGX-1's meshes (the catalog's p3.16xlarge and dgx-1-p100).
const std::vector<platform::GpuPairLink> kV100 = {{0, 1, 1}, {0, 2, 1}, {0, 3, 2}, {0, 4, 2}, {1, 2, 2}, {1, 3, 1},
                                      {1, 5, 2}, {2, 3, 2}, {2, 6, 1}, {3, 7, 1}, {4, 5, 1}, {4, 6, 1},
                                      {4, 7, 2}, {5, 6, 2}, {5, 7, 1}, {6, 7, 2}};
const std::vector<platform::GpuPairLink> kP100 = {{0, 1, 1}, {0, 2, 1}, {0, 3, 1}, {0, 4, 1}, {1, 2, 1}, {1, 3, 1},
                                      {1, 5, 1}, {2, 3, 1}, {2, 6, 1}, {3, 7, 1}, {4, 5, 1}, {4, 6, 1},
                                      {4, 7, 1}, {5, 6, 1}, {5, 7, 1}, {6, 7, 1}};

// Every ring visits each GPU once, and no directed link carries more rings than it has links.
void expect_valid(const std::vector<Ring>& rings, int gpus, const std::vector<platform::GpuPairLink>& links) {
  std::map<std::pair<int, int>, int> capacity, load;
  for (const auto& l : links) capacity[{l.a, l.b}] = capacity[{l.b, l.a}] = l.links;
  for (const auto& ring : rings) {
    ASSERT_EQ(ring.size(), static_cast<size_t>(gpus));
    EXPECT_EQ(std::set<int>(ring.begin(), ring.end()).size(), ring.size());
    for (size_t i = 0; i < ring.size(); ++i) ++load[{ring[i], ring[(i + 1) % ring.size()]}];
  }
  for (const auto& [edge, used] : load) {
    // A ring of two uses its link both ways, once each.
    EXPECT_LE(used, capacity[edge]) << edge.first << "->" << edge.second;
  }
}

TEST(NvlinkRings, EveryLinkOfADgx1CarriesARingEachWay) {
  const auto p100 = nvlink_rings(8, kP100), v100 = nvlink_rings(8, kV100);
  EXPECT_EQ(p100.size(), 4u);  // 16 links: 2 cycles of 8, each both ways
  EXPECT_EQ(v100.size(), 6u);  // 24 links: 3 cycles
  expect_valid(p100, 8, kP100);
  expect_valid(v100, 8, kV100);
}

TEST(NvlinkRings, PartOfTheMeshHasFewerRings) {
  // GPUs 0-3 of a P100 mesh: a fully connected quad of single links holds one cycle of
  // four (two of its six links left over); of a V100 mesh (a p3.8xlarge), two.
  EXPECT_EQ(nvlink_rings(4, kP100).size(), 2u);
  EXPECT_EQ(nvlink_rings(4, kV100).size(), 4u);
  expect_valid(nvlink_rings(4, kV100), 4, kV100);
  // Two GPUs: a ring per link between them (GPUs 0 and 3 of a V100 mesh have two).
  EXPECT_EQ(nvlink_rings(2, kP100).size(), 1u);
  EXPECT_EQ(nvlink_rings(2, {{0, 1, 2}}).size(), 2u);
}

TEST(NvlinkRings, NoCycleNoRings) {
  EXPECT_TRUE(nvlink_rings(3, {{0, 1, 1}, {1, 2, 1}}).empty());  // a path, not a cycle
  EXPECT_TRUE(nvlink_rings(2, {}).empty());
  EXPECT_TRUE(nvlink_rings(1, kP100).empty());
  EXPECT_EQ(rank_order_ring(4), (std::vector<Ring>{{0, 1, 2, 3}}));
}

}  // namespace
}  // namespace dlsim::train
