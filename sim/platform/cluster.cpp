#include "platform/cluster.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <simgrid/plugins/load.h>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "platform/single_host.hpp"

namespace dlsim::platform {

using simgrid::s4u::Host;
using simgrid::s4u::Link;
using simgrid::s4u::LinkInRoute;

namespace {

Link* duplex(simgrid::s4u::NetZone* zone, const std::string& name, double bandwidth, double latency = 0) {
  if (!(bandwidth > 0)) throw std::invalid_argument("link " + name + " needs a positive bandwidth");
  return zone->create_split_duplex_link(name, bandwidth)->set_latency(latency)->seal();
}

// One capacity for both directions: a process's protocol stack is CPU time, spent on
// what it sends and what it receives alike; its messages share it (SHARED) or each has it
// whole (FATPIPE: a stack with a thread per message).
Link* stack_link(simgrid::s4u::NetZone* zone, const std::string& name, double bandwidth, double latency,
                 Link::SharingPolicy policy = Link::SharingPolicy::SHARED) {
  if (!(bandwidth > 0)) throw std::invalid_argument("link " + name + " needs a positive bandwidth");
  return zone->create_link(name, bandwidth)->set_sharing_policy(policy)->set_latency(latency)->seal();
}

}  // namespace

Cluster::Cluster(const ClusterSpec& spec) : spec_(spec) {
  if (spec.nodes < 1 || spec.gpus_per_node < 0 || spec.gpus_per_pcie_switch < 1)
    throw std::invalid_argument("a cluster needs nodes and GPUs per PCIe switch (and no negative GPU count)");
  sg_link_load_plugin_init();
  zone_ = simgrid::s4u::create_full_zone("cluster");
  const int switches = (spec.gpus_per_node + spec.gpus_per_pcie_switch - 1) / spec.gpus_per_pcie_switch;
  for (int n = 0; n < spec.nodes; ++n) {
    const std::string node = fmt::format("n{}", n);
    hosts_.push_back(zone_->create_host(node + ".host", kOpsPerSecond)->set_core_count(spec.host_cores)->seal());
    node_of_host_[hosts_.back()] = n;
    nics_.push_back(duplex(zone_, node + ".nic", spec.nic_Bps, spec.nic_latency_s));
    for (int s = 0; s < switches; ++s) uplinks_.push_back(duplex(zone_, fmt::format("{}.switch{}", node, s), spec.pcie_Bps));
    for (int g = 0; g < spec.gpus_per_node; ++g) {
      const std::string name = fmt::format("{}.gpu{}", node, g);
      gpus_.push_back(zone_->create_host(name, kOpsPerSecond)->seal());
      gpu_of_[gpus_.back()] = static_cast<int>(gpus_.size()) - 1;
      pcie_.push_back(duplex(zone_, name + ".pcie", spec.pcie_Bps));
      if (spec.nvlink_Bps > 0) nvlink_.push_back(duplex(zone_, name + ".nvlink", spec.nvlink_Bps));
    }
    for (const auto& pair : spec.nvlink_pairs) {
      if (pair.a == pair.b || std::max(pair.a, pair.b) >= spec.gpus_per_node || std::min(pair.a, pair.b) < 0)
        throw std::invalid_argument(fmt::format("NVLink between GPUs {} and {} of a {}-GPU node", pair.a, pair.b,
                                                spec.gpus_per_node));
      const int low = std::min(pair.a, pair.b), high = std::max(pair.a, pair.b), first = n * spec.gpus_per_node;
      mesh_.push_back(duplex(zone_, fmt::format("{}.nvlink{}-{}", node, low, high), pair.Bps));
      mesh_link_[{first + low, first + high}] = mesh_.back();
    }
  }
  for (int n = spec.nodes; n < spec.nodes + spec.server_nodes; ++n) {
    const std::string node = fmt::format("n{}", n);
    hosts_.push_back(zone_->create_host(node + ".host", kOpsPerSecond)->set_core_count(spec.host_cores)->seal());
    node_of_host_[hosts_.back()] = n;
    nics_.push_back(duplex(zone_, node + ".nic", spec.server_nic_Bps > 0 ? spec.server_nic_Bps : spec.nic_Bps,
                           spec.nic_latency_s));
  }
  if (spec.nodes_per_rack > 0) {
    if (!(spec.oversubscription >= 1)) throw std::invalid_argument("a fat tree's oversubscription is at least 1");
    const int all = spec.nodes + spec.server_nodes;
    for (int r = 0; r * spec.nodes_per_rack < all; ++r)
      racks_.push_back(duplex(zone_, fmt::format("rack{}.uplink", r),
                              spec.nodes_per_rack * spec.nic_Bps / spec.oversubscription));
  }
}

int Cluster::gpu_index(Host* h) const {
  const auto it = gpu_of_.find(h);
  return it == gpu_of_.end() ? -1 : it->second;
}

Host* Cluster::add_process(int node, const std::string& name, double bytes_per_s, double latency_s,
                           bool thread_per_message) {
  Host* h = zone_->create_host(fmt::format("n{}.{}", node, name), kOpsPerSecond)->seal();
  node_of_process_[h] = node;
  const std::string link = h->get_name() + ".stack";
  process_link_[h] = stack_link(zone_, link, bytes_per_s, latency_s,
                                thread_per_message ? Link::SharingPolicy::FATPIPE : Link::SharingPolicy::SHARED);
  return h;
}

Host* Cluster::add_core(const std::string& name) { return zone_->create_host(name, kOpsPerSecond)->seal(); }

void Cluster::set_process_link(Host* gpu, double bytes_per_s, double latency_s) {
  process_link_[gpu] = stack_link(zone_, gpu->get_name() + ".stack", bytes_per_s, latency_s);
}

// The links from `from` to `to`, each with whether it is crossed upward (away from a GPU
// or host, towards the network): a process's own link, then the hardware between the
// GPUs or nodes, then the other process's link.
std::vector<std::pair<Link*, bool>> Cluster::path(Host* from, Host* to, bool hardware_only) const {
  auto link_of = [this, hardware_only](Host* h) -> Link* {
    const auto it = process_link_.find(h);
    return it == process_link_.end() || hardware_only ? nullptr : it->second;
  };
  auto anchor = [this](Host* h) {
    const auto it = node_of_process_.find(h);
    return it == node_of_process_.end() ? h : hosts_[static_cast<size_t>(it->second)];
  };
  std::vector<std::pair<Link*, bool>> out;
  if (Link* l = link_of(from)) out.push_back({l, true});
  if (anchor(from) != anchor(to)) {
    const auto between = hardware_path(anchor(from), anchor(to));
    out.insert(out.end(), between.begin(), between.end());
  }
  if (Link* l = link_of(to)) out.push_back({l, false});
  return out;
}

std::vector<std::pair<Link*, bool>> Cluster::hardware_path(Host* from, Host* to) const {
  const int a = gpu_index(from), b = gpu_index(to);
  const int node_a = a >= 0 ? node_of(a) : node_of_host_.at(from);
  const int node_b = b >= 0 ? node_of(b) : node_of_host_.at(to);
  const int switches = static_cast<int>(uplinks_.size()) / spec_.nodes;
  auto uplink = [&](int gpu) {
    return uplinks_[static_cast<size_t>(node_of(gpu) * switches + gpu % spec_.gpus_per_node / spec_.gpus_per_pcie_switch)];
  };
  auto pcie = [&](int gpu) { return pcie_[static_cast<size_t>(gpu)]; };
  std::vector<std::pair<Link*, bool>> up, down;  // from `from` to the meeting point, from it to `to`
  if (a >= 0 && b >= 0 && node_a == node_b) {
    if (!nvlink_.empty()) return {{nvlink_[static_cast<size_t>(a)], true}, {nvlink_[static_cast<size_t>(b)], false}};
    if (const auto it = mesh_link_.find({std::min(a, b), std::max(a, b)}); it != mesh_link_.end())
      return {{it->second, a < b}};  // up from the lower-numbered GPU
    if (uplink(a) == uplink(b)) return {{pcie(a), true}, {pcie(b), false}};
  }
  if (a >= 0) up = {{pcie(a), true}, {uplink(a), true}};
  if (b >= 0) down = {{uplink(b), false}, {pcie(b), false}};
  if (node_a != node_b) {
    up.push_back({nics_[static_cast<size_t>(node_a)], true});
    down.insert(down.begin(), {nics_[static_cast<size_t>(node_b)], false});
    if (!racks_.empty() && node_a / spec_.nodes_per_rack != node_b / spec_.nodes_per_rack) {
      up.push_back({racks_[static_cast<size_t>(node_a / spec_.nodes_per_rack)], true});
      down.insert(down.begin(), {racks_[static_cast<size_t>(node_b / spec_.nodes_per_rack)], false});
    }
  }
  up.insert(up.end(), down.begin(), down.end());
  return up;
}

void Cluster::connect(Host* a, Host* b, bool hardware_only) {
  if (a == b || !connected_.insert({std::min(a, b), std::max(a, b)}).second) return;
  for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
    std::vector<LinkInRoute> links;
    for (auto [link, upward] : path(from, to, hardware_only))
      if (link->get_sharing_policy() == Link::SharingPolicy::SPLITDUPLEX)
        links.emplace_back(link, upward ? LinkInRoute::Direction::UP : LinkInRoute::Direction::DOWN);
      else
        links.emplace_back(link);
    zone_->add_route(from->get_netpoint(), to->get_netpoint(), nullptr, nullptr, links, false);
  }
}

void Cluster::seal() {
  zone_->seal();
  // A split-duplex link is two SimGrid links, NAME_UP and NAME_DOWN.
  for (const auto* group : {&pcie_, &nvlink_, &mesh_, &uplinks_, &nics_, &racks_})
    for (const Link* l : *group)
      for (const char* way : {"up", "down"}) {
        const Link* half = Link::by_name(l->get_name() + (way[0] == 'u' ? "_UP" : "_DOWN"));
        tracked_.emplace_back(l->get_name() + " " + way, half);
      }
  for (const auto& [host, l] : process_link_) tracked_.emplace_back(l->get_name(), l);
  for (const auto& [name, l] : tracked_) sg_link_load_track(l);
}

std::vector<LinkUse> Cluster::busiest_links(size_t count) const {
  std::vector<LinkUse> out;
  for (const auto& [name, l] : tracked_)
    out.push_back({name, sg_link_get_avg_load(l) / l->get_bandwidth()});
  std::stable_sort(out.begin(), out.end(), [](const LinkUse& a, const LinkUse& b) { return a.utilization > b.utilization; });
  if (out.size() > count) out.resize(count);
  return out;
}

}  // namespace dlsim::platform
