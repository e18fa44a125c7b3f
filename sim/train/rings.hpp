#pragma once
// The rings a collective library lays over the GPUs of one node.  A ring lists the GPUs
// (local indices) in the order data passes: ring[i] sends to ring[i + 1], the last to the
// first.
//
// NCCL (2.0 on) searches the node's NVLink for rings: on a hybrid cube mesh as many
// Hamiltonian cycles as the links hold without sharing one, each run in both directions,
// so that every link carries a ring each way (a DGX-1's P100s: 2 cycles, 4 rings, its 4
// links per GPU busy; its V100s: 3 cycles over 6 links).  Two GPUs make one ring per link
// between them.  Where the GPUs taking part have no cycle over NVLink, or the library does
// not search (NCCL 1.x, as TensorFlow 1.x bundled it), one ring in rank order, whose hops
// between GPUs without a link cross PCIe and the host.
#include <vector>

#include "platform/cluster.hpp"

namespace dlsim::train {

using Ring = std::vector<int>;

// The rings over NVLink of GPUs 0 .. gpus-1 (links to other GPUs ignored); empty when
// they hold no cycle.  The most link-disjoint cycles, by exhaustive search up to 8 GPUs
// (bounded beyond), ties to the first in lexicographic order: deterministic.
std::vector<Ring> nvlink_rings(int gpus, const std::vector<platform::GpuPairLink>& links);

// One ring 0, 1, ..., gpus-1.
std::vector<Ring> rank_order_ring(int gpus);

}  // namespace dlsim::train
