#pragma once
// A star: every host hangs on its own full-duplex link from a non-blocking switch.
//
//     host0 ──link0──┐
//     host1 ──link1──┼── switch
//     host2 ──link2──┘
//
// A transfer from host i to host j crosses link i upward and link j downward, so it takes
// latency_i + latency_j + bytes / min(bandwidth_i, bandwidth_j) alone, and flows into one
// host share its downward direction.  Cluster topologies (PCIe switches, NVLink, fat-trees)
// are built from zones like this one.

#include <string>
#include <vector>

namespace simgrid::s4u {
class Host;
class NetZone;
}  // namespace simgrid::s4u

namespace dlsim::platform {

struct StarHost {
  std::string name;
  double speed_flops = 1e9;   // per core
  int cores = 1;
  double link_bandwidth_Bps = 0;
  double link_latency_s = 0;
};

// Builds the star as a zone of the running engine (creating the root zone if there is
// none) and returns its hosts in the order given.
std::vector<simgrid::s4u::Host*> build_star(const std::string& name, const std::vector<StarHost>& hosts);

}  // namespace dlsim::platform
