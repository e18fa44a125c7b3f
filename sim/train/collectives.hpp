#pragma once
// Collectives as the libraries run them, for actors of a running simulation.
//
// Ring all-reduce (NCCL, Horovod): reduce-scatter then all-gather, 2(P-1) steps in each of
// which every member sends bytes/P to the next.  The steps are identical, so ring_allreduce
// simulates one flow per ring edge carrying all 2(P-1)/P x bytes of it, and adds the
// 2(P-1) - 1 further path latencies the steps would have paid: alone on a flat network
// that is exactly the alpha-beta time 2(P-1) alpha + 2(P-1)/P bytes/B, and flows that share
// a link (a PCIe uplink, a NIC) divide it as the step-by-step ring's would.  P flows per
// bucket instead of 2P(P-1): a 1,024-GPU ring stays cheap to simulate.
// ring_allreduce_stepwise simulates every step, for the tests that show both agree.
#include <vector>

namespace simgrid::s4u {
class Host;
}  // namespace simgrid::s4u

namespace dlsim::train {

// Blocks the calling actor until the all-reduce of `bytes` over `ring` (in ring order) is done.
void ring_allreduce(const std::vector<simgrid::s4u::Host*>& ring, double bytes);
void ring_allreduce_stepwise(const std::vector<simgrid::s4u::Host*>& ring, double bytes);

}  // namespace dlsim::train
