// Ring all-reduce against the alpha-beta formula, and the one-flow-per-edge formulation
// against the step-by-step ring; each prints the two side by side.
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>
#include <simgrid/s4u.hpp>

#include "platform/cluster.hpp"
#include "platform/engine.hpp"
#include "platform/network_model.hpp"
#include "train/collectives.hpp"

namespace dlsim::train {
namespace {

using simgrid::s4u::Host;

constexpr double kNic = 25e9 / 8;   // 25 Gbit/s
constexpr double kLatency = 5e-6;   // per NIC: a path between two nodes has two
constexpr double kFast = 1e15;      // PCIe so fast it never matters

struct RingRun {
  std::vector<Host*> members;
  double bytes = 0;
  bool stepwise = false;
  double took_s = -1;
};

// Runs every ring at once (they share no link) and returns how long each took.
void run(platform::Cluster& cluster, std::vector<RingRun>& rings) {
  for (auto& r : rings)
    for (size_t i = 0; i < r.members.size(); ++i) cluster.connect(r.members[i], r.members[(i + 1) % r.members.size()]);
  cluster.seal();
  for (auto& r : rings)
    simgrid::s4u::Actor::create("ring", r.members[0], [&r] {
      r.stepwise ? ring_allreduce_stepwise(r.members, r.bytes) : ring_allreduce(r.members, r.bytes);
      r.took_s = simgrid::s4u::Engine::get_clock();
    });
  simgrid::s4u::Engine::get_instance()->run();
}

TEST(RingAllreduce, MatchesAlphaBetaOnAFlatNetwork) {
  auto engine = platform::make_engine();
  platform::apply({});
  const std::vector<int> sizes = {2, 4, 8, 16, 64};
  const std::vector<double> bytes = {1e6, 25e6, 100e6};
  int nodes = 0;
  for (int p : sizes) nodes += p * static_cast<int>(bytes.size());
  platform::Cluster cluster({nodes, 1, 1, 1, kFast, 0, kNic, kLatency});
  std::vector<RingRun> rings;
  int next = 0;
  for (int p : sizes)
    for (double n : bytes) {
      RingRun r;
      for (int i = 0; i < p; ++i) r.members.push_back(cluster.gpu(next++));
      r.bytes = n;
      rings.push_back(r);
    }
  run(cluster, rings);
  for (const auto& r : rings) {
    const double p = static_cast<double>(r.members.size());
    const double expected = 2 * (p - 1) * (2 * kLatency) + 2 * (p - 1) / p * r.bytes / kNic;
    std::printf("ring of %3.0f, %6.0f MB: alpha-beta %.6f s   simulated %.6f s\n", p, r.bytes / 1e6, expected, r.took_s);
    EXPECT_NEAR(r.took_s / expected, 1.0, 0.01);
  }
}

TEST(RingAllreduce, OneFlowPerEdgeAgreesWithEveryStepSimulated) {
  auto engine = platform::make_engine();
  platform::apply({});
  // Node 0 and node 1 alike: 4 GPUs, two per PCIe switch, so the ring crosses the switch
  // uplinks (shared by two flows each way); nodes 2-5 and 6-9: a ring across four nodes.
  platform::Cluster cluster({10, 4, 2, 1, 12e9, 0, kNic, kLatency});
  auto gpus = [&](std::vector<int> ids) {
    std::vector<Host*> out;
    for (int i : ids) out.push_back(cluster.gpu(i));
    return out;
  };
  std::vector<RingRun> rings = {{gpus({0, 1, 2, 3}), 64e6, true},        {gpus({4, 5, 6, 7}), 64e6, false},
                             {gpus({8, 12, 16, 20}), 8e6, true},      {gpus({24, 28, 32, 36}), 8e6, false}};
  run(cluster, rings);
  for (size_t i = 0; i < rings.size(); i += 2) {
    std::printf("%s: every step %.6f s   one flow per edge %.6f s\n", i ? "4 nodes over NICs" : "4 GPUs, 2 switches",
                rings[i].took_s, rings[i + 1].took_s);
    EXPECT_NEAR(rings[i + 1].took_s / rings[i].took_s, 1.0, 0.01);
  }
}

TEST(HierarchicalAllreduce, MatchesItsAlphaBetaFormulaAndBeatsTheFlatRingAcrossNodes) {
  // 4 nodes of 4 GPUs on NVLink (100 GB/s per GPU), 25 Gbit/s NICs with 5 us each: the
  // nodes' rings run on NVLink; the 4 rings across nodes share each NIC 4 ways, each moving
  // its quarter, so the NICs carry 2(N-1)/N x bytes in all, against the flat ring's
  // 2(P-1)/P x bytes.  Nodes 0-3 run the hierarchical all-reduce, nodes 4-7 the flat ring.
  auto engine = platform::make_engine();
  platform::apply({});
  const double nvlink = 100e9, bytes = 64e6, g = 4, n = 4, p = 16;
  platform::Cluster cluster({8, 4, 4, 1, kFast, nvlink, kNic, kLatency});
  std::vector<Hosts> hierarchical(4), flat(4);
  for (int node = 0; node < 8; ++node)
    for (int i = 0; i < 4; ++i) (node < 4 ? hierarchical : flat)[static_cast<size_t>(node % 4)].push_back(cluster.gpu(node * 4 + i));
  const AllreducePlan plans[] = {{Allreduce::hierarchical, hierarchical}, {Allreduce::ring, flat}};
  for (const auto& plan : plans)
    for (auto [a, b] : plan.routes()) cluster.connect(a, b);
  cluster.seal();
  double took[2] = {-1, -1};
  for (int k = 0; k < 2; ++k)
    simgrid::s4u::Actor::create("allreduce", cluster.gpu(k * 16), [&, k] {
      plans[k].run(bytes);
      took[k] = simgrid::s4u::Engine::get_clock();
    });
  engine->run();
  const double expected_h = 2 * (g - 1) / g * bytes / nvlink + 2 * (n - 1) / n * bytes / kNic + 2 * (n - 1) * 2 * kLatency;
  const double expected_ring = 2 * (p - 1) / p * bytes / kNic + 2 * (p - 1) * 2 * kLatency;
  std::printf("hierarchical: alpha-beta %.6f s   simulated %.6f s\n", expected_h, took[0]);
  std::printf("flat ring:    alpha-beta %.6f s   simulated %.6f s\n", expected_ring, took[1]);
  EXPECT_NEAR(took[0] / expected_h, 1.0, 0.01);
  EXPECT_NEAR(took[1] / expected_ring, 1.0, 0.01);
  EXPECT_LT(took[0], took[1]);
}

// An all-reduce of `bytes` by `plan` on `cluster` (sealed here), in seconds.
double allreduce_time(platform::Cluster& cluster, const AllreducePlan& plan, double bytes) {
  for (auto [a, b] : plan.routes()) cluster.connect(a, b);
  cluster.seal();
  double took = -1;
  simgrid::s4u::Actor::create("allreduce", cluster.gpu(0), [&] {
    plan.run(bytes);
    took = simgrid::s4u::Engine::get_clock();
  });
  simgrid::s4u::Engine::get_instance()->run();
  return took;
}

TEST(TreeAllreduce, ParentsShareTheirNicBetweenTwoChildren) {
  // 4 single-GPU nodes: node 0 is the root with children 1 and 2, node 3 hangs under 1.
  // Reducing, node 0's NIC receives 64 MB from each child at once (2 x 64 MB / B), one
  // path latency, and one more for the second level; broadcasting, the same outward.
  auto engine = platform::make_engine();
  platform::apply({});
  const double bytes = 64e6;
  platform::Cluster cluster({4, 1, 1, 1, kFast, 0, kNic, kLatency});
  const AllreducePlan plan(Allreduce::tree, {{cluster.gpu(0)}, {cluster.gpu(1)}, {cluster.gpu(2)}, {cluster.gpu(3)}});
  const double took = allreduce_time(cluster, plan, bytes);
  const double expected = 2 * (2 * bytes / kNic + 2 * (2 * kLatency));
  std::printf("tree: alpha-beta %.6f s   simulated %.6f s\n", expected, took);
  EXPECT_NEAR(took / expected, 1.0, 0.01);
}

// A DGX-1's P100s: PCIe 12.5 GB/s, two GPUs per switch, one 20 GB/s NVLink per pair of
// the mesh (two fully connected quads, GPU i to GPU i + 4).
platform::ClusterSpec dgx1_p100(int gpus) {
  platform::ClusterSpec spec{1, 8, 2, 1, 12.5e9, 0, kFast, 0};
  for (auto [a, b] : {std::pair{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 5}, {2, 3}, {2, 6}, {3, 7},
                      {4, 5}, {4, 6}, {4, 7}, {5, 6}, {5, 7}, {6, 7}})
    if (a < gpus && b < gpus) spec.nvlink_pairs.push_back({a, b, 1, 20e9});
  return spec;
}

double mesh_allreduce(int gpus, bool rank_order, double bytes) {
  auto engine = platform::make_engine();
  platform::apply({});
  const platform::ClusterSpec spec = dgx1_p100(gpus);
  platform::Cluster cluster(spec);
  Hosts node;
  for (int g = 0; g < gpus; ++g) node.push_back(cluster.gpu(g));
  const std::vector<Ring> rings = rank_order ? std::vector<Ring>{} : nvlink_rings(gpus, spec.nvlink_pairs);
  return allreduce_time(cluster, AllreducePlan(Allreduce::ring, {node}, rings), bytes);
}

// Each case in its own process: one SimGrid engine per process.
TEST(MeshAllreduce, EightP100sOnTheirFourRingsUseEveryLink) {
  // 4 rings each carry a quarter over their own links: 2 (P-1)/P x 200 MB at 20 GB/s.
  const double took = mesh_allreduce(8, false, 800e6), expected = 2 * 7.0 / 8 * 200e6 / 20e9;
  std::printf("8 P100s, rings along NVLink: alpha-beta %.6f s   simulated %.6f s\n", expected, took);
  EXPECT_NEAR(took / expected, 1.0, 0.01);
}

TEST(MeshAllreduce, EightP100sInRankOrderCrossPcieTwice) {
  // NCCL 1.x's ring 0..7: GPUs 3 and 4, 7 and 0 have no NVLink, so those hops go up one
  // switch's PCIe uplink and down another's, 12.5 GB/s, and the ring waits for them.
  const double took = mesh_allreduce(8, true, 800e6), expected = 2 * 7.0 / 8 * 800e6 / 12.5e9;
  std::printf("8 P100s, one ring in rank order: alpha-beta %.6f s   simulated %.6f s\n", expected, took);
  EXPECT_NEAR(took / expected, 1.0, 0.01);
}

TEST(MeshAllreduce, TwoP100sShareOneLink) {
  // One NVLink between GPUs 0 and 1: 20 GB/s each way, not the GPU's 80 over all its links.
  const double took = mesh_allreduce(2, false, 800e6), expected = 2 * 1.0 / 2 * 800e6 / 20e9;
  std::printf("2 P100s: alpha-beta %.6f s   simulated %.6f s\n", expected, took);
  EXPECT_NEAR(took / expected, 1.0, 0.01);
}

TEST(RingAllreduce, AnOversubscribedFatTreeSlowsTheEdgesLeavingARack) {
  // 8 single-GPU nodes, 4 per rack, racks' uplinks 4:1 oversubscribed (one NIC's worth).
  // Two rings interleaved across the racks (0,4,1,5 and 2,6,3,7) cross them on every edge:
  // each rack's uplink carries four flows each way, each gets a quarter of a NIC, and the
  // bandwidth term is 4x the star's.
  auto engine = platform::make_engine();
  platform::apply({});
  const double bytes = 64e6;
  platform::ClusterSpec spec{8, 1, 1, 1, kFast, 0, kNic, kLatency};
  spec.nodes_per_rack = 4;
  spec.oversubscription = 4;
  platform::Cluster cluster(spec);
  std::vector<RingRun> rings(2);
  for (int i : {0, 4, 1, 5}) rings[0].members.push_back(cluster.gpu(i));
  for (int i : {2, 6, 3, 7}) rings[1].members.push_back(cluster.gpu(i));
  for (auto& r : rings) r.bytes = bytes;
  run(cluster, rings);
  const double p = 4, star = 2 * (p - 1) * (2 * kLatency) + 2 * (p - 1) / p * bytes / kNic;
  const double expected = 2 * (p - 1) * (2 * kLatency) + 4 * 2 * (p - 1) / p * bytes / kNic;
  for (const auto& r : rings) {
    std::printf("interleaved ring of 4 over 4:1 racks: star %.6f s, expected %.6f s, simulated %.6f s\n", star,
                expected, r.took_s);
    EXPECT_NEAR(r.took_s / expected, 1.0, 0.01);
  }
}

}  // namespace
}  // namespace dlsim::train
