#pragma once
// What a measured run reports as a latency percentile.  A run that times N requests
// reports its q-th percentile as one of N latencies, as perf_analyzer picks it (the sorted
// latency at index q (N - 1) rounded half up, counting from 0; the serving harness too), not
// the population's: a harness's P99 over 16 requests is their slowest, which lands near the
// 94th percentile on average and scatters from run to run.  And its N requests follow one
// another: a machine's slow spells last a second or so (infer/stalls.hpp), so a run's
// requests meet the same few of them, and its slowest is nearer its median than the slowest
// of N requests drawn apart.  So the statistic's mean and spread are taken over every run of
// N consecutive simulated requests (in completion order), as a harness started at any of them
// would report it; a simulation of fewer than N requests is one run.
#include <vector>

namespace dlsim::report {

// The q-th percentile of `sorted` (ascending, not empty) as perf_analyzer reports it.
double reported_percentile(const std::vector<double>& sorted, double q);

struct RunPercentile {
  double mean = 0;               // over runs
  double p10 = 0, p50 = 0, p90 = 0;  // from run to run
};

// `latencies`: the simulated requests' in completion order (not empty); q in (0, 1];
// requests >= 1.
RunPercentile run_percentile(const std::vector<double>& latencies, double q, int requests);

}  // namespace dlsim::report
