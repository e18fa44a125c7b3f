#pragma once
// In-process inference (study A's "simple" deployment): `concurrency` synchronous clients
// each hand a batch to the model in the same process and wait for the answer; one worker
// runs the forward passes in arrival order on the host's cores.  Latency is measured per
// request from the moment the client submits it.
#include <vector>

#include "perf/step_plan.hpp"

namespace dlsim::infer {

struct InProcessSpec {
  int cores = 1;
  int threads = 1;
  int concurrency = 1;
  int requests_per_client = 8;
};

struct InferenceResult {
  int requests = 0;
  double makespan_s = 0;
  double forward_s = 0;              // one forward pass
  std::vector<double> latencies_s;   // per request, in completion order
  // Served over a protocol (served.hpp): means per request of sending it, waiting in the
  // server's queue, copies and forward pass on the GPU, receiving the answer; 0 in-process.
  double send_s = 0, queue_s = 0, compute_s = 0, receive_s = 0;
};

InferenceResult simulate_in_process(const perf::StepPlan& forward, const InProcessSpec& spec);

}  // namespace dlsim::infer
