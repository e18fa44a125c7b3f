#include "infer/cpu_teams.hpp"

#include <algorithm>

#include <simgrid/s4u.hpp>

#include "platform/single_host.hpp"

namespace dlsim::infer {

using simgrid::s4u::ExecPtr;
using simgrid::s4u::Host;

void CpuTeams::settle(Host* machine) {
  Machine& m = machines_[machine];
  const bool stalled = m.beside > std::max(0, machine->get_core_count() - m.team_threads);
  for (const auto& team : m.teams) {
    if (stalled && !team->is_suspended()) team->suspend();
    if (!stalled && team->is_suspended()) team->resume();
  }
}

void CpuTeams::interrupt(Host* machine, int threads, const perf::StallTrace& trace) {
  if (trace.durations_s.empty() && trace.speed.slowdowns.empty()) return;  // nothing traced, or nothing met
  machines_[machine].stalls.insert_or_assign(threads, Stalls(trace, 0x5eed + machines_.size()));
}

void CpuTeams::run_team(Host* machine, double seconds, int threads) {
  Machine& m = machines_[machine];  // a node of the map: stays where it is
  const double start = simgrid::s4u::Engine::get_clock();
  const auto stalls = m.stalls.find(threads);
  if (stalls != m.stalls.end()) seconds = stalls->second.at_speed(start, seconds);
  const ExecPtr team = simgrid::s4u::this_actor::exec_init(seconds * platform::kOpsPerSecond)
                           ->set_host(machine)
                           ->set_thread_count(threads);
  team->start();
  m.team_threads += threads;
  if (threads > 1) m.teams.push_back(team);
  settle(machine);
  team->wait();
  m.team_threads -= threads;
  m.teams.erase(std::remove(m.teams.begin(), m.teams.end(), team), m.teams.end());
  settle(machine);
  if (stalls != m.stalls.end())
    if (const double stalled = stalls->second.during(start, simgrid::s4u::Engine::get_clock()); stalled > 0)
      simgrid::s4u::this_actor::sleep_for(stalled);
}

ExecPtr CpuTeams::start_beside(Host* machine, double seconds) {
  ++machines_[machine].beside;
  settle(machine);
  return simgrid::s4u::this_actor::exec_init(seconds * platform::kOpsPerSecond)->set_host(machine)->start();
}

void CpuTeams::end_beside(Host* machine) {
  --machines_[machine].beside;
  settle(machine);
}

void CpuTeams::run_beside(Host* machine, double seconds) {
  start_beside(machine, seconds)->wait();
  end_beside(machine);
}

}  // namespace dlsim::infer
