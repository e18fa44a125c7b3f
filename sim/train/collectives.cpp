#include "train/collectives.hpp"

#include <algorithm>

#include <simgrid/s4u.hpp>

namespace dlsim::train {

using simgrid::s4u::Comm;
using simgrid::s4u::CommPtr;
using simgrid::s4u::Host;

namespace {

// Sends `bytes` from every member to the next, all at once, and waits for every flow.
void ring_shift(const std::vector<Host*>& ring, double bytes) {
  std::vector<CommPtr> flows;
  for (size_t i = 0; i < ring.size(); ++i)
    flows.push_back(Comm::sendto_async(ring[i], ring[(i + 1) % ring.size()], static_cast<uint64_t>(bytes)));
  for (auto& f : flows) f->wait();
}

double slowest_edge_latency(const std::vector<Host*>& ring) {
  double worst = 0;
  for (size_t i = 0; i < ring.size(); ++i) {
    std::vector<simgrid::s4u::Link*> links;
    double latency = 0;
    ring[i]->route_to(ring[(i + 1) % ring.size()], links, &latency);
    worst = std::max(worst, latency);
  }
  return worst;
}

}  // namespace

void ring_allreduce(const std::vector<Host*>& ring, double bytes) {
  const auto p = static_cast<double>(ring.size());
  if (ring.size() < 2 || bytes <= 0) return;
  ring_shift(ring, 2 * (p - 1) / p * bytes);
  simgrid::s4u::this_actor::sleep_for((2 * (p - 1) - 1) * slowest_edge_latency(ring));
}

void ring_allreduce_stepwise(const std::vector<Host*>& ring, double bytes) {
  const auto p = static_cast<double>(ring.size());
  if (ring.size() < 2 || bytes <= 0) return;
  for (size_t step = 0; step < 2 * (ring.size() - 1); ++step) ring_shift(ring, bytes / p);
}

}  // namespace dlsim::train
