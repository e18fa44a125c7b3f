#pragma once
// All-reduce as the libraries run it, for actors of a running simulation.
//
// ring          NCCL's and Horovod's ring over every GPU, node by node: reduce-scatter then
//               all-gather, 2(P-1) steps in each of which every member sends bytes/P to the
//               next.
// hierarchical  Horovod's hierarchical all-reduce: a ring reduce-scatter inside each node,
//               then, for each GPU position, a ring all-reduce of its 1/G share across the
//               nodes (G rings at once, all through the NICs), then a ring all-gather inside
//               each node: 2(G-1) + 2(N-1) steps instead of 2(NG-1).
// tree          NCCL's tree: a chain inside each node, a binary tree between nodes;
//               gradients reduced up to the root, the sum broadcast down, pipelined (every
//               level at once): fewer steps than a ring, but every edge carries all the
//               bytes and a parent node's NIC serves two children.  For comparison.
//
// The steps of a ring are identical, so each ring phase is simulated as one flow per ring
// edge carrying all its steps' bytes, plus the further path latencies the steps would
// have paid: alone on a flat network that is exactly the alpha-beta time
// 2(P-1) alpha + 2(P-1)/P bytes/B, and flows that share a link (a PCIe uplink, a NIC)
// divide it as the step-by-step ring's would, with P flows per bucket instead of 2P(P-1).
// ring_allreduce_stepwise simulates every step, for the tests that show both agree.
//
// Inside a node the rings follow the node's rings (rings.hpp), each carrying its share of
// the bytes: a ring over every GPU goes through each node along one of them; the
// hierarchical all-reduce's phases inside a node run on all of them; the tree's chain
// follows the first.
#include <string>
#include <utility>
#include <vector>

#include "train/rings.hpp"

namespace simgrid::s4u {
class Host;
}  // namespace simgrid::s4u

namespace dlsim::train {

using Hosts = std::vector<simgrid::s4u::Host*>;

enum class Allreduce { ring, hierarchical, tree };
Allreduce allreduce_from_string(const std::string& name);  // throws std::invalid_argument

class AllreducePlan {
 public:
  // `nodes`: the GPUs taking part, grouped by node, every node with as many; `node_rings`:
  // orders of a node's GPUs (local indices), none for one ring in rank order.
  AllreducePlan(Allreduce kind, std::vector<Hosts> nodes, const std::vector<Ring>& node_rings = {});
  // The pairs of GPUs that exchange data, for the platform's routes.
  std::vector<std::pair<simgrid::s4u::Host*, simgrid::s4u::Host*>> routes() const;
  // Blocks the calling actor until the all-reduce of `bytes` is done.
  void run(double bytes) const;

 private:
  Allreduce kind_;
  std::vector<Hosts> nodes_;  // each in its first ring's order
  std::vector<Hosts> rings_;  // over every GPU, node by node
  std::vector<Hosts> inside_;  // every node's rings
};

// Blocks the calling actor until the all-reduce of `bytes` over `ring` (in ring order) is done.
void ring_allreduce(const Hosts& ring, double bytes);
void ring_allreduce_stepwise(const Hosts& ring, double bytes);

}  // namespace dlsim::train
