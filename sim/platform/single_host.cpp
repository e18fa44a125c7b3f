#include "platform/single_host.hpp"

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/NetZone.hpp>

namespace dlsim::platform {

simgrid::s4u::Host* build_single_host(const std::string& name, int cores) {
  auto* zone = simgrid::s4u::create_full_zone(name + "_zone");
  auto* host = zone->create_host(name, kOpsPerSecond)->set_core_count(cores)->seal();
  zone->seal();
  return host;
}

std::pair<simgrid::s4u::Host*, simgrid::s4u::Host*> build_host_and_gpu(const std::string& name, int cores) {
  auto* zone = simgrid::s4u::create_full_zone(name + "_zone");
  auto* host = zone->create_host(name, kOpsPerSecond)->set_core_count(cores)->seal();
  auto* gpu = zone->create_host(name + ".gpu", kOpsPerSecond)->seal();
  zone->seal();
  return {host, gpu};
}

}  // namespace dlsim::platform
