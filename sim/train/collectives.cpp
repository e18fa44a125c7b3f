#include "train/collectives.hpp"

#include <algorithm>
#include <stdexcept>

#include <simgrid/s4u.hpp>

namespace dlsim::train {

using simgrid::s4u::Comm;
using simgrid::s4u::CommPtr;
using simgrid::s4u::Host;

namespace {

// Every member of every ring sends `bytes` to the next, all at once; waits for every flow.
void shift(const std::vector<Hosts>& rings, double bytes) {
  std::vector<CommPtr> flows;
  for (const auto& ring : rings)
    for (size_t i = 0; i < ring.size() && ring.size() > 1; ++i)
      flows.push_back(Comm::sendto_async(ring[i], ring[(i + 1) % ring.size()], static_cast<uint64_t>(bytes)));
  for (auto& f : flows) f->wait();
}

double latency(Host* from, Host* to) {
  std::vector<simgrid::s4u::Link*> links;
  double l = 0;
  from->route_to(to, links, &l);
  return l;
}

double slowest_edge_latency(const std::vector<Hosts>& rings) {
  double worst = 0;
  for (const auto& ring : rings)
    for (size_t i = 0; i < ring.size() && ring.size() > 1; ++i) worst = std::max(worst, latency(ring[i], ring[(i + 1) % ring.size()]));
  return worst;
}

// `steps` steps of a ring each moving `bytes_per_step` over every edge of every ring.
void ring_phase(const std::vector<Hosts>& rings, double steps, double bytes_per_step) {
  if (steps <= 0 || bytes_per_step <= 0) return;
  shift(rings, steps * bytes_per_step);
  simgrid::s4u::this_actor::sleep_for((steps - 1) * slowest_edge_latency(rings));
}

// NCCL's tree: inside a node a chain to its first GPU, between nodes a binary tree of
// those first GPUs in heap order (the parent of node i is node (i - 1) / 2).
std::vector<std::pair<Host*, Host*>> tree_edges(const std::vector<Hosts>& nodes) {  // (child, parent)
  std::vector<std::pair<Host*, Host*>> edges;
  for (const auto& node : nodes)
    for (size_t i = 1; i < node.size(); ++i) edges.emplace_back(node[i], node[i - 1]);
  for (size_t i = 1; i < nodes.size(); ++i) edges.emplace_back(nodes[i].front(), nodes[(i - 1) / 2].front());
  return edges;
}

// Reduced up the tree, then broadcast down, every level at once (pipelined).
void tree_allreduce(const std::vector<Hosts>& nodes, double bytes) {
  size_t depth = nodes.front().size() - 1;
  for (size_t n = nodes.size(); n > 1; n = (n + 1) / 2) ++depth;
  const auto edges = tree_edges(nodes);
  double worst = 0;
  for (auto [child, parent] : edges) worst = std::max(worst, latency(child, parent));
  for (bool up : {true, false}) {
    std::vector<CommPtr> flows;
    for (auto [child, parent] : edges)
      flows.push_back(Comm::sendto_async(up ? child : parent, up ? parent : child, static_cast<uint64_t>(bytes)));
    for (auto& f : flows) f->wait();
    simgrid::s4u::this_actor::sleep_for((static_cast<double>(depth) - 1) * worst);
  }
}

}  // namespace

Allreduce allreduce_from_string(const std::string& name) {
  if (name == "ring") return Allreduce::ring;
  if (name == "hierarchical") return Allreduce::hierarchical;
  if (name == "tree") return Allreduce::tree;
  throw std::invalid_argument("unknown all-reduce '" + name + "'");
}

AllreducePlan::AllreducePlan(Allreduce kind, std::vector<Hosts> nodes, const std::vector<Ring>& node_rings)
    : kind_(kind) {
  const size_t g = nodes.empty() ? 0 : nodes.front().size();
  const std::vector<Ring> orders = node_rings.empty() ? rank_order_ring(static_cast<int>(g)) : node_rings;
  auto ordered = [](const Hosts& node, const Ring& order) {
    Hosts out;
    for (int i : order) out.push_back(node.at(static_cast<size_t>(i)));
    return out;
  };
  for (const auto& order : orders) {
    rings_.emplace_back();
    for (const auto& node : nodes) {
      const Hosts along = ordered(node, order);
      rings_.back().insert(rings_.back().end(), along.begin(), along.end());
      inside_.push_back(along);
    }
  }
  for (const auto& node : nodes) nodes_.push_back(ordered(node, orders.front()));
  if (kind_ == Allreduce::hierarchical && (nodes_.size() < 2 || g < 2)) kind_ = Allreduce::ring;
}

std::vector<std::pair<Host*, Host*>> AllreducePlan::routes() const {
  std::vector<std::pair<Host*, Host*>> out;
  auto ring = [&out](const Hosts& r) {
    for (size_t i = 0; i < r.size() && r.size() > 1; ++i) out.emplace_back(r[i], r[(i + 1) % r.size()]);
  };
  switch (kind_) {
    case Allreduce::ring:
      for (const auto& r : rings_) ring(r);
      break;
    case Allreduce::hierarchical:
      for (const auto& r : inside_) ring(r);
      for (size_t g = 0; g < nodes_.front().size(); ++g) {
        Hosts across;
        for (const auto& node : nodes_) across.push_back(node[g]);
        ring(across);
      }
      break;
    case Allreduce::tree:
      out = tree_edges(nodes_);
      break;
  }
  return out;
}

void AllreducePlan::run(double bytes) const {
  if (rings_.empty() || rings_.front().size() < 2 || bytes <= 0) return;
  const double r = static_cast<double>(rings_.size());
  if (kind_ == Allreduce::ring) {
    const auto p = static_cast<double>(rings_.front().size());
    return ring_phase(rings_, 2 * (p - 1), bytes / r / p);
  }
  if (kind_ == Allreduce::tree) return tree_allreduce(nodes_, bytes);
  const double g = static_cast<double>(nodes_.front().size()), n = static_cast<double>(nodes_.size());
  std::vector<Hosts> across(nodes_.front().size());
  for (size_t i = 0; i < across.size(); ++i)
    for (const auto& node : nodes_) across[i].push_back(node[i]);
  ring_phase(inside_, g - 1, bytes / g / r);               // reduce-scatter inside each node
  ring_phase(across, 2 * (n - 1), bytes / g / n);          // all-reduce of each share across nodes
  ring_phase(inside_, g - 1, bytes / g / r);               // all-gather inside each node
}

void ring_allreduce(const Hosts& ring, double bytes) {
  const auto p = static_cast<double>(ring.size());
  if (ring.size() < 2 || bytes <= 0) return;
  ring_phase({ring}, 2 * (p - 1), bytes / p);
}

void ring_allreduce_stepwise(const Hosts& ring, double bytes) {
  const auto p = static_cast<double>(ring.size());
  if (ring.size() < 2 || bytes <= 0) return;
  for (size_t step = 0; step < 2 * (ring.size() - 1); ++step) shift({ring}, bytes / p);
}

}  // namespace dlsim::train
