#pragma once
// In-process inference (study A's "simple" deployment): `concurrency` synchronous clients
// each hand a batch to the model in the same process and wait for the answer; one worker
// runs the forward passes in arrival order, on the host's cores or on its GPU.  A client
// that reads its images from files first decodes the batch on one of the host's cores
// (`load_s`; before that, reads it from the host's disk when `files` says so), so on a GPU
// loading and inference take turns.  Latency is measured per
// request from the moment the client submits it, its loading left out.
#include <cstdint>
#include <vector>

#include "infer/file_reads.hpp"
#include "perf/profile.hpp"
#include "perf/step_plan.hpp"

namespace dlsim::infer {

struct InProcessSpec {
  int cores = 1;
  int threads = 1;
  int concurrency = 1;
  int requests_per_client = 8;
  bool on_gpu = false;  // forward passes on a GPU of their own, not the host's cores
  double load_s = 0;    // a client's time to load and decode one request's images, on one core
  FileReads files{};    // read from the host's disk first, when not in the page cache
  perf::StallTrace stalls{};  // on the host's cores: the interruptions its team meets (stalls.hpp)
  double copy_s = 0;    // a Python application's copy of each request's bytes into a tensor, in its latency
  uint64_t seed = 1;    // draws each pass's host pace, where the plan has a spread (perf/launch.hpp)
};

struct InferenceResult {
  int requests = 0;
  double makespan_s = 0;
  double forward_s = 0;              // one forward pass
  std::vector<double> latencies_s;   // per request, in completion order
  // An open loop's latencies again with every pass at the fast and the slow tenth of its
  // band: a queue magnifies a pass's error the nearer the load is to capacity, where a
  // closed loop's latency moves with the pass in proportion.  Empty in a closed loop.
  std::vector<double> fast_pass_latencies_s, slow_pass_latencies_s;
  // Served over a protocol (served.hpp): means per request of sending it, waiting in the
  // server's queue, copies and forward pass on the GPU, receiving the answer; 0 in-process.
  double send_s = 0, queue_s = 0, compute_s = 0, receive_s = 0;
  int peak_requests_in_servers = 0;  // arrived and not yet answered, all servers together
  double peak_request_bytes_in_servers = 0;  // their inputs, held in host memory
  // An open loop's rate: offered, and achieved between the first and the last answer (the
  // start-up and the drain left out); 0 in a closed loop, whose rate is requests / makespan.
  double offered_requests_per_s = 0, achieved_requests_per_s = 0;
  double gpu_busy_s = 0;             // forward passes, all GPUs together (0: forward_s per request)
  int gpus = 1;
  // Host cores kept busy, in core-seconds, and the cores there are: the server machines'
  // (in-process: the one host's) and, for a remote deployment, the client machines'
  // (client_cores 0 otherwise).  Counted: forward passes on a CPU (their kernels' CPU time
  // where the profile timed it, else seconds times threads), loading and decoding, and
  // each message's protocol work on both its ends (per-request latency and per-byte cost
  // of the stack, as the protocol calibration measured them on a machine's cores).  Not
  // counted: the host thread that drives a GPU, disk waits.
  double server_cpu_s = 0, client_cpu_s = 0;
  int server_cores = 0, client_cores = 0;
};

InferenceResult simulate_in_process(const perf::StepPlan& forward, const InProcessSpec& spec);

}  // namespace dlsim::infer
