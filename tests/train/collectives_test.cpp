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

struct Ring {
  std::vector<Host*> members;
  double bytes = 0;
  bool stepwise = false;
  double took_s = -1;
};

// Runs every ring at once (they share no link) and returns how long each took.
void run(platform::Cluster& cluster, std::vector<Ring>& rings) {
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
  std::vector<Ring> rings;
  int next = 0;
  for (int p : sizes)
    for (double n : bytes) {
      Ring r;
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
  std::vector<Ring> rings = {{gpus({0, 1, 2, 3}), 64e6, true},        {gpus({4, 5, 6, 7}), 64e6, false},
                             {gpus({8, 12, 16, 20}), 8e6, true},      {gpus({24, 28, 32, 36}), 8e6, false}};
  run(cluster, rings);
  for (size_t i = 0; i < rings.size(); i += 2) {
    std::printf("%s: every step %.6f s   one flow per edge %.6f s\n", i ? "4 nodes over NICs" : "4 GPUs, 2 switches",
                rings[i].took_s, rings[i + 1].took_s);
    EXPECT_NEAR(rings[i + 1].took_s / rings[i].took_s, 1.0, 0.01);
  }
}

}  // namespace
}  // namespace dlsim::train
