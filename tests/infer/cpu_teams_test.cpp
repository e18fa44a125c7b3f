#include <gtest/gtest.h>

#include <simgrid/s4u.hpp>

#include "infer/cpu_teams.hpp"
#include "platform/engine.hpp"
#include "platform/single_host.hpp"

namespace dlsim::infer {
namespace {

// A team of `threads` doing 100 ms of work on a 2-core machine, and 20 ms of one core's
// work started beside it 10 ms in; returns when each ended.
std::pair<double, double> team_and_work_beside(int threads) {
  auto engine = platform::make_engine();
  simgrid::s4u::Host* machine = platform::build_single_host("machine", 2);
  CpuTeams cores;
  double team_end = 0, work_end = 0;
  simgrid::s4u::Actor::create("team", machine, [&] {
    cores.run_team(machine, 0.100, threads);
    team_end = simgrid::s4u::Engine::get_clock();
  });
  simgrid::s4u::Actor::create("beside", machine, [&] {
    simgrid::s4u::this_actor::sleep_for(0.010);
    cores.run_beside(machine, 0.020);
    work_end = simgrid::s4u::Engine::get_clock();
  });
  engine->run();
  return {team_end, work_end};
}

// Fair sharing would give the two-thread team one core for 20 ms (110 ms); an OpenMP team
// waits for its slowest thread, so it loses the whole 20 ms, and the work has its core.
TEST(CpuTeams, WorkOnATeamsCoreStallsTheWholeTeam) {
  const auto [team, work] = team_and_work_beside(2);
  EXPECT_NEAR(team, 0.120, 1e-9);
  EXPECT_NEAR(work, 0.030, 1e-9);
}

TEST(CpuTeams, AOneThreadTeamLeavesTheWorkItsFreeCore) {
  const auto [team, work] = team_and_work_beside(1);
  EXPECT_NEAR(team, 0.100, 1e-9);
  EXPECT_NEAR(work, 0.030, 1e-9);
}

// More threads than cores share them (each thread's work at half a core) and stall only
// for work beside them.
TEST(CpuTeams, ATeamOfMoreThreadsThanCoresRunsAlone) {
  auto engine = platform::make_engine();
  simgrid::s4u::Host* machine = platform::build_single_host("machine", 2);
  CpuTeams cores;
  double end = 0;
  simgrid::s4u::Actor::create("team", machine, [&] {
    cores.run_team(machine, 0.100, 4);
    end = simgrid::s4u::Engine::get_clock();
  });
  engine->run();
  EXPECT_NEAR(end, 0.200, 1e-9);
}

// 100 passes of 10 ms by a team of `threads` on a machine whose two-thread teams meet a
// 1 ms stall 100 times a second; returns when the last ended.
double passes_among_two_thread_stalls(int threads) {
  auto engine = platform::make_engine();
  simgrid::s4u::Host* machine = platform::build_single_host("machine", 2);
  CpuTeams cores;
  cores.interrupt(machine, 2, {1.0, std::vector<double>(100, 1e-3), {}});
  double end = 0;
  simgrid::s4u::Actor::create("team", machine, [&] {
    for (int pass = 0; pass < 100; ++pass) cores.run_team(machine, 0.010, threads);
    end = simgrid::s4u::Engine::get_clock();
  });
  engine->run();
  return end;
}

// About 10% more with the stalls; a one-thread team meets the stalls traced for one thread.
TEST(CpuTeams, ATeamMeetsTheStallsTracedForItsWidth) {
  const double stalled = passes_among_two_thread_stalls(2);
  EXPECT_GT(stalled, 1.05);
  EXPECT_LT(stalled, 1.15);
}

TEST(CpuTeams, ATeamOfAnotherWidthMeetsNone) { EXPECT_NEAR(passes_among_two_thread_stalls(1), 1.0, 1e-9); }

// A team's passes run at the speed of the machine's windows they fall in: 100 passes of
// 10 ms through windows a quarter slower than the median take 1.25 s.
TEST(CpuTeams, ATeamRunsAtTheTracedSpeed) {
  auto engine = platform::make_engine();
  simgrid::s4u::Host* machine = platform::build_single_host("machine", 2);
  CpuTeams cores;
  cores.interrupt(machine, 1, {60.0, {}, {0.020, {1.25, 1.25}}});
  double end = 0;
  simgrid::s4u::Actor::create("team", machine, [&] {
    for (int pass = 0; pass < 100; ++pass) cores.run_team(machine, 0.010, 1);
    end = simgrid::s4u::Engine::get_clock();
  });
  engine->run();
  EXPECT_NEAR(end, 1.25, 1e-6);
}

}  // namespace
}  // namespace dlsim::infer
