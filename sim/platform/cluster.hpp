#pragma once
// A GPU cluster as SimGrid sees it.  Per node:
//
//   gpu0 ─pcie─┐                  ┌─nvlink─ gpu0 ... (only where the node has NVLink)
//   gpu1 ─pcie─┼─ switch ─uplink─ host ─nic─┐
//   gpu2 ─pcie─┐                            ├── network (non-blocking switch)
//   gpu3 ─pcie─┴─ switch ─uplink─ host      │   other nodes' NICs
//
// Between nodes, the network is one non-blocking switch (a star), or a two-level fat tree:
// racks of `nodes_per_rack` nodes under a top-of-rack switch whose uplink to a non-blocking
// spine carries, each way, the rack's NICs together divided by the oversubscription (1:
// full bisection; 4: a quarter of it), so that traffic leaving a rack contends there.  The
// levels are links of this zone rather than SimGrid's FatTreeZone, whose leaves would have
// to be node zones (3.32 routes badly between sibling sub-zones; NOTES-SIMGRID.md).
//
// GPUs behind one PCIe switch share its uplink to the host; two GPUs on one switch talk
// through it (peer to peer) without touching the uplink.  GPUs of one node with NVLink
// talk over it: through NVSwitch each on its own NVLink port into a non-blocking fabric;
// in a hybrid cube mesh (a DGX-1, a p3.16xlarge) over the links bonded between the two,
// and where a pair has none, over PCIe and the host.  Between nodes a transfer goes from the
// GPU over its switch uplink and the node's NIC, across the network, and in the same way
// down.  Every link is split-duplex: each direction has the link's whole bandwidth.
// GPUs and hosts are SimGrid hosts; kernels are executions on a GPU (one core computing
// kOpsPerSecond), transfers are communications along these links.
//
// Routes are made only between the pairs a strategy uses (connect()), before seal(): a
// Full zone holds them, so that a 1,024-GPU ring costs 2,048 routes, not a million.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace simgrid::s4u {
class Host;
class Link;
class NetZone;
}  // namespace simgrid::s4u

namespace dlsim::platform {

// The NVLinks bonded between two GPUs of a node (local indices).
struct GpuPairLink {
  int a = 0, b = 0;
  int links = 1;
  double Bps = 0;  // all of them together, per direction
};

// How busy one direction of a link was, on average since the simulation began.
struct LinkUse {
  std::string link;        // "n0.nic up", "n1.gpu3.pcie down", "n0.ps1.stack"
  double utilization = 0;  // bytes carried / (bandwidth x time)
};

struct ClusterSpec {
  int nodes = 1;
  int gpus_per_node = 1;      // 0: CPU nodes
  int gpus_per_pcie_switch = 1;
  int host_cores = 1;
  double pcie_Bps = 0;        // per direction: each GPU's link and each switch's uplink
  double nvlink_Bps = 0;      // per GPU and direction into NVSwitch; 0 without it
  double nic_Bps = 0;         // per node and direction
  double nic_latency_s = 0;
  int server_nodes = 0;       // further nodes of the same kind without GPUs (dedicated servers), after the others
  int nodes_per_rack = 0;     // 0: a star; else a two-level fat tree (all nodes, servers included, in order)
  double oversubscription = 1;  // a rack's NICs over its uplink to the spine
  double server_nic_Bps = 0;    // the server nodes' NICs; 0: nic_Bps
  std::vector<GpuPairLink> nvlink_pairs{};  // a hybrid cube mesh instead of NVSwitch: link by link
};

class Cluster {
 public:
  // Creates hosts and links in the running engine (platform::make_engine first).
  explicit Cluster(const ClusterSpec& spec);
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  int gpu_count() const { return static_cast<int>(gpus_.size()); }
  const ClusterSpec& spec() const { return spec_; }
  simgrid::s4u::Host* gpu(int global_index) const { return gpus_[static_cast<size_t>(global_index)]; }
  simgrid::s4u::Host* host(int node) const { return hosts_[static_cast<size_t>(node)]; }  // GPU nodes, then server nodes
  int node_of(int global_gpu) const { return global_gpu / spec_.gpus_per_node; }

  // Processes whose messages cost CPU work at both ends (a gRPC stack): each has a link of
  // the stack's bandwidth and per-message latency that all its messages cross, in and out
  // alike.  Where one thread does that work, its messages share the link, so that a server
  // serving many workers shares its own; where each message has a thread of its own
  // (`thread_per_message`: a Python server's thread per connection or worker pool), each
  // gets the stack's rate, and the machine's cores are what they share (modelled by whoever
  // runs that work on them).  add_process makes a process its own host on a node (a
  // parameter server); set_process_link puts one in front of a GPU (the worker process
  // driving it).  Before seal().
  simgrid::s4u::Host* add_process(int node, const std::string& name, double bytes_per_s, double latency_s,
                                  bool thread_per_message = false);
  void set_process_link(simgrid::s4u::Host* gpu, double bytes_per_s, double latency_s);
  // A host of one core that nothing routes to: a resource whose users take turns (a Python
  // interpreter's lock, which SimGrid's equal sharing of a core stands for).  Before seal().
  simgrid::s4u::Host* add_core(const std::string& name);

  // Adds the route between two of its hosts, both ways, once; before seal().
  // `hardware_only`: not through the processes' stacks (a GPU's input copied in by its
  // own process).
  void connect(simgrid::s4u::Host* a, simgrid::s4u::Host* b, bool hardware_only = false);
  int gpu_index(simgrid::s4u::Host* h) const;  // -1 for a node host
  void seal();

  // Every link direction's load so far, busiest first (SimGrid's link-load plugin), the
  // first `count`.
  std::vector<LinkUse> busiest_links(size_t count = SIZE_MAX) const;

 private:
  std::vector<std::pair<simgrid::s4u::Link*, bool>> path(simgrid::s4u::Host* from, simgrid::s4u::Host* to,
                                                        bool hardware_only) const;
  std::vector<std::pair<simgrid::s4u::Link*, bool>> hardware_path(simgrid::s4u::Host* from,
                                                                 simgrid::s4u::Host* to) const;

  ClusterSpec spec_;
  simgrid::s4u::NetZone* zone_ = nullptr;
  std::vector<simgrid::s4u::Host*> gpus_, hosts_;
  std::vector<simgrid::s4u::Link*> pcie_, nvlink_, uplinks_, nics_;  // per GPU, per GPU, per switch, per node
  std::vector<simgrid::s4u::Link*> racks_;                          // per rack: its uplink to the spine
  std::vector<simgrid::s4u::Link*> mesh_;                           // per node and GPU pair with NVLink
  std::map<std::pair<int, int>, simgrid::s4u::Link*> mesh_link_;    // (lower, higher global GPU) -> its link
  std::vector<std::pair<std::string, const simgrid::s4u::Link*>> tracked_;  // what busiest_links reports
  std::unordered_map<const simgrid::s4u::Host*, int> gpu_of_, node_of_host_, node_of_process_;
  std::unordered_map<const simgrid::s4u::Host*, simgrid::s4u::Link*> process_link_;
  std::set<std::pair<const simgrid::s4u::Host*, const simgrid::s4u::Host*>> connected_;
};

}  // namespace dlsim::platform
