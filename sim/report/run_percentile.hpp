#pragma once
// What a measured run reports as a latency percentile.  A run that times N requests
// reports its q-th percentile as one of N latencies (the nearest rank, ceil(q N)), not the
// population's: a harness's P99 over 16 requests is their slowest, which lands near the
// 94th percentile on average and scatters from run to run.  Given the simulated latencies
// as the population, the statistic's mean and spread follow from the order statistics of N
// draws: P(the k-th smallest of N <= x) = P(Binomial(N, F(x)) >= k).
#include <vector>

namespace dlsim::report {

struct RunPercentile {
  double mean = 0;               // over runs
  double p10 = 0, p50 = 0, p90 = 0;  // from run to run
};

// `sample`: the simulated latencies (any order, not empty); q in (0, 1]; requests >= 1.
RunPercentile run_percentile(std::vector<double> sample, double q, int requests);

}  // namespace dlsim::report
