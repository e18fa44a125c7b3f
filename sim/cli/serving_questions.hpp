#pragma once
// The two questions a serving scenario's user asks, answered by `dlsim run` with the
// planner's search (plan_search.hpp) over the scenario:
//   --max-p99 50ms              the most images/s whose p99 stays under the bound, over the
//                               request's batch and the clients' concurrency
//   --rate 2000 [--max-p99 ..]  how many GPUs serve that many images/s (Poisson arrivals),
//                               the cheapest fleet first
// Where the scenario gives its host's pace as a band (system.launch_overhead_p90), each is
// answered again at the host's slow tenth ("at_the_hosts_slow_tenth" in JSON); on a CPU
// whose framework allocates from glibc's heap, again with its passes' refaults at the slow
// tenth of their spread over heap states ("at_the_heaps_slow_tenth", system.heap_state).
#include <string>
#include <vector>

namespace dlsim::cli {

struct ServingQuestion {
  std::string max_p99;  // a time, e.g. "50ms"; empty: none
  double rate = 0;      // images/s; 0: none
  bool any() const { return !max_p99.empty() || rate > 0; }
};

// The answer as text or JSON (`format` "json"); a scenario that does not serve is an
// input error.
std::string answer(const std::string& scenario, const std::vector<std::string>& sets, const ServingQuestion& q,
                   const std::string& format);

}  // namespace dlsim::cli
