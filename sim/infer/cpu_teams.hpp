#pragma once
// Work on the cores of a simulated CPU machine where forward passes run as OpenMP teams.
// PyTorch splits each operator's loops statically over its threads and waits for the last
// at the operator's end, so a team progresses only while every thread holds a core: work
// beside it (a message's stack work, a client's decoding) that takes one of the team's
// cores stalls the whole team for as long, where fair sharing of the cores would slow it by
// half as much.  Measured on the Zen 5 VM (2 vCPUs, PyTorch 1.13): ResNet-18 at batch 1
// on two threads took 13.9 ms a pass alone, 17.4 ms beside a process busy 20% of one core
// (in 2 ms bursts) and 22.0 ms beside 40%, where a stalled team gives 13.9 / (1 - 0.2) =
// 17.4 and 23.2; on one thread, 25.5 and 26.5 ms beside 40% (the work takes the free core).
// So a team of two or more threads is suspended while the work beside it exceeds the cores
// the machine's teams leave free; teams do not stall one another (they share the cores).
// A machine's own interruptions stall its teams too, where their trace is known (stalls.hpp).
#include <map>
#include <unordered_map>
#include <vector>

#include <simgrid/forward.h>

#include "infer/stalls.hpp"

namespace dlsim::infer {

class CpuTeams {
 public:
  // Runs `seconds` of one team's work on `threads` cores of `machine`; blocks.
  void run_team(simgrid::s4u::Host* machine, double seconds, int threads);
  // Starts `seconds` of one core's work beside the teams; end_beside once it is done.
  simgrid::s4u::ExecPtr start_beside(simgrid::s4u::Host* machine, double seconds);
  void end_beside(simgrid::s4u::Host* machine);
  void run_beside(simgrid::s4u::Host* machine, double seconds);  // start, wait, end
  // Teams of `threads` on `machine` meet the interruptions of `trace` from now on.
  void interrupt(simgrid::s4u::Host* machine, int threads, const perf::StallTrace& trace);

 private:
  struct Machine {
    std::vector<simgrid::s4u::ExecPtr> teams;  // running, of two or more threads
    int team_threads = 0;                      // of every running team
    int beside = 0;                            // works running beside them
    std::map<int, Stalls> stalls;              // by team threads
  };
  void settle(simgrid::s4u::Host* machine);

  std::unordered_map<const simgrid::s4u::Host*, Machine> machines_;
};

}  // namespace dlsim::infer
