#include "platform/star.hpp"

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

namespace dlsim::platform {

std::vector<simgrid::s4u::Host*> build_star(const std::string& name, const std::vector<StarHost>& specs) {
  auto* zone = simgrid::s4u::create_star_zone(name);
  std::vector<simgrid::s4u::Host*> hosts;
  for (const auto& spec : specs) {
    auto* host = zone->create_host(spec.name, spec.speed_flops)->set_core_count(spec.cores)->seal();
    auto* link = zone->create_split_duplex_link(spec.name + "_link", spec.link_bandwidth_Bps)
                     ->set_latency(spec.link_latency_s)
                     ->seal();
    // In a star zone a route from a host to nullptr is its branch to the centre.
    zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr,
                    {{link, simgrid::s4u::LinkInRoute::Direction::UP}}, true);
    hosts.push_back(host);
  }
  zone->seal();
  return hosts;
}

}  // namespace dlsim::platform
