// Transfers on a tiny star whose answer is computed by hand; each prints the expectation
// beside the simulated time.
#include <algorithm>
#include <cstdio>

#include <gtest/gtest.h>
#include <simgrid/s4u.hpp>

#include "platform/network_model.hpp"
#include "platform/star.hpp"

namespace dlsim::platform {
namespace {

struct Flow {
  int from, to;
  double bytes;
  double finished_s = -1;
};

// Runs the flows concurrently on a star of `hosts` identical hosts; returns them finished.
std::vector<Flow> simulate(int hosts, double bandwidth_Bps, double latency_s, std::vector<Flow> flows,
                           const NetworkModelConfig& model = {}) {
  int argc = 2;
  char name[] = "transfer_test";
  char quiet[] = "--log=root.thres:critical";
  char* argv[] = {name, quiet, nullptr};
  simgrid::s4u::Engine engine(&argc, argv);
  apply(model);
  std::vector<StarHost> specs;
  for (int i = 0; i < hosts; ++i) specs.push_back({"h" + std::to_string(i), 1e9, 1, bandwidth_Bps, latency_s});
  const auto h = build_star("star", specs);
  for (auto& f : flows) {
    simgrid::s4u::Actor::create("sender", h[static_cast<size_t>(f.from)], [&f, &h] {
      simgrid::s4u::Comm::sendto(h[static_cast<size_t>(f.from)], h[static_cast<size_t>(f.to)],
                                 static_cast<uint64_t>(f.bytes));
      f.finished_s = simgrid::s4u::Engine::get_clock();
    });
  }
  engine.run();
  return flows;
}

void expect_close(const char* what, double expected_s, double simulated_s) {
  std::printf("%-44s alpha-beta %.9f s   simulated %.9f s\n", what, expected_s, simulated_s);
  EXPECT_NEAR(simulated_s / expected_s, 1.0, 1e-6) << what;
}

constexpr double kBandwidth = 25e9 / 8;  // 25 Gbit/s
constexpr double kLatency = 5e-6;

TEST(Transfer, OneFlowTakesTheAlphaBetaTime) {
  // Three sizes at once, on host pairs that share no link.
  const auto flows = simulate(6, kBandwidth, kLatency, {{0, 1, 1e3}, {2, 3, 1e6}, {4, 5, 100e6}});
  for (const auto& f : flows)
    expect_close(("one flow of " + std::to_string(static_cast<long>(f.bytes)) + " bytes").c_str(),
                 2 * kLatency + f.bytes / kBandwidth, f.finished_s);
}

TEST(Transfer, FlowsIntoOneHostShareItsLink) {
  // Two senders into h2: h2's downward direction carries both at half the bandwidth each.
  const auto flows = simulate(3, kBandwidth, kLatency, {{0, 2, 50e6}, {1, 2, 50e6}});
  for (const auto& f : flows) expect_close("two flows into one host", 2 * kLatency + 2 * f.bytes / kBandwidth, f.finished_s);
}

TEST(Transfer, OppositeDirectionsDoNotShare) {
  // Full duplex: h0 -> h1 and h1 -> h0 each get the whole bandwidth.
  const auto flows = simulate(2, kBandwidth, kLatency, {{0, 1, 50e6}, {1, 0, 50e6}});
  for (const auto& f : flows) expect_close("two flows in opposite directions", 2 * kLatency + f.bytes / kBandwidth, f.finished_s);
}

TEST(Transfer, CalibrationFactorsScaleLatencyAndBandwidth) {
  NetworkModelConfig model;
  model.latency_factor = 3.0;
  model.bandwidth_factor = 0.5;
  const auto flows = simulate(2, kBandwidth, kLatency, {{0, 1, 10e6}}, model);
  expect_close("one flow, latency x3, bandwidth x0.5", 3 * 2 * kLatency + 10e6 / (0.5 * kBandwidth),
               flows[0].finished_s);
}

TEST(NetworkModel, ConfigurationIsExplicit) {
  const auto items = simgrid_config({});
  EXPECT_EQ(items.front(), "network/model:CM02");
  EXPECT_NE(std::find(items.begin(), items.end(), "network/crosstraffic:0"), items.end());
  EXPECT_NE(std::find(items.begin(), items.end(), "network/optim:Full"), items.end());
}

}  // namespace
}  // namespace dlsim::platform
