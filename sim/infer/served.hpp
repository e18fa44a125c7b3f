#pragma once
// Serving over a protocol (study A's microservice and distributed deployments, and fleets
// of them): clients send each request (a batch of images) to an inference server process
// over gRPC, on the same machine (local) or from another across the network (remote); the
// server queues requests, copies each batch to a GPU, runs the forward pass, copies the
// result back, and answers.  Every message costs the protocol's per-request latency and
// per-byte work on the sending and the receiving process's stack (platform/cluster.hpp:
// each message at the stack's rate, a thread per connection), besides the links it
// crosses; that work also occupies a core of each process's machine while it passes,
// and a forward pass on a CPU keeps `threads` cores busy, so that on a small machine
// clients, stacks and the model slow one another.
//
// Load, as NVIDIA's perf_analyzer generates it: closed loop (synchronous clients keep one
// request in flight each, an asynchronous client `in_flight` of them) or open loop
// (requests sent at a constant rate or as a Poisson process, whether or not earlier ones
// were answered).
//
// Clients that read their images from files (study A's application) decode each request's
// batch on a core of their machine before sending it (`load_s`), one batch at a time per
// client process (reading it from its machine's disk first, when `files` says so:
// file_reads.hpp): an asynchronous client loads the next batch while earlier ones are in
// flight, a synchronous one only after its answer came back.  Latency is counted from the
// send, as perf_analyzer counts it.
//
// Copies: a native server (Triton) stages each batch through pinned buffers over the node's
// host link, beside the GPU's work; a Python server copies from its pageable request bytes
// on the model's stream (perf/host_copies.hpp), so those copies are in forward_s and the
// link carries nothing (`copies_over_link` false).
//
// One interpreter: a Python server on a GPU runs its forward passes and its Python work on
// each message in one process, whose threads take turns holding the interpreter lock
// (`one_interpreter`): a one-core host that its work shares.  A pass's thread needs the
// lock from its first launch to its answer, but lets it go around each operator and waits
// to take it back, while another thread's work (each message's per-request share: parsing,
// dispatch; the handler's copy of a request's bytes into a tensor, `handler_copy_s`,
// counted in the send) holds it to its end: so that work runs at once and the pass is
// stretched by it.  The bytes cross the socket outside the lock (system calls; gRPC's C
// core).  The H200's server phases (validation/data/serving_gpu_h200_1056.csv) show it:
// four gRPC clients at batch 32 got a request through every 15.9 ms, the pass taking 13.5
// ms alone and 14.9 among them and each copy 2.4, where gRPC's own work on its 19 MB is
// 14 ms.  On a CPU the passes run in oneDNN's threads outside the lock, and a native
// server has none.

// Fleet: every node of the cluster runs one server over its first GPUs (or, without GPUs,
// on its CPU, where inputs need no copy); requests go to the nodes in turn.  A remote
// deployment has one client machine per server node.
//
// Server, with Triton's semantics: one queue per server; `instances_per_gpu` model
// instances on each of its GPUs take requests from it (instances on one GPU share it).  A
// dynamic batcher combines queued requests: at once when it holds the maximum or one of
// the preferred sizes (the largest it can form), otherwise after waiting for more at most
// `max_queue_delay_s` from the oldest's arrival.
#include <cstdint>
#include <vector>

#include "infer/in_process.hpp"
#include "platform/cluster.hpp"

namespace dlsim::infer {

enum class Arrival { closed, constant, poisson, replay };

struct ServedSpec {
  platform::ClusterSpec cluster;  // the server nodes; remote: server_nodes = nodes, the clients
  bool remote = false;
  int gpus_per_server = 1;        // GPUs serving on each node (at most the node's); 0: its CPU
  int instances_per_gpu = 1;
  bool copies_over_link = true;   // a GPU's input and output cross the host link (else in forward_s)
  bool one_interpreter = false;   // the server's stack work and its GPU passes take turns (a Python server)
  // Closed loop: `clients` (spread over the servers in turn), each with `in_flight` requests.
  int clients = 1;
  int in_flight = 1;
  int requests_per_client = 8;
  // Open loop: `requests` in all at `request_rate` per second; Poisson gaps drawn from
  // `seed`; or a replay of `intervals_s` (cycled).
  Arrival arrival = Arrival::closed;
  double request_rate = 0;
  int requests = 0;
  uint64_t seed = 1;
  std::vector<double> intervals_s;
  double rpc_bytes_per_s = 0;     // a process's protocol stack
  double rpc_latency_s = 0;       // per request, both ends together
  double request_bytes = 0;       // the request's input tensor
  double response_bytes = 0;      // its outputs
  double handler_copy_s = 0;      // a Python server's copy of one request's bytes into a tensor
  double read_faults_s = 0;       // its stack's read of them into fresh pages, beyond the stack's rate
  double load_s = 0;              // a client's time to load and decode one request's images
  FileReads files;                // read from its machine's disk first, when not in the page cache
  // Dynamic batching: the forward pass of k combined requests takes forward_s[k - 1]; its
  // size is the most requests combined (1: every request alone).
  std::vector<double> forward_s;
  std::vector<double> launch_wait_s;  // of each forward_s, the GPU idle waiting for its host (none when empty)
  // Of each forward_s, those waits at the percentiles of the host's per-pass spread
  // (perf::kSpreadPercentiles); each pass on a GPU draws one (from `seed`).  Empty: every
  // pass at the median pace.
  std::vector<std::vector<double>> launch_wait_spread_s;
  // Of each forward_s, the waits of a pass whose launching thread took over from another's:
  // a Python server's, where a pass answers a different client than the one before.
  // Empty: as any other.
  std::vector<double> launch_wait_handoff_s;
  std::vector<double> forward_cpu_s;  // of each forward_s on a CPU, its core-seconds (empty on a GPU)
  // Of each forward_s on a CPU whose passes run with their team on the caller's core or
  // apart (perf::StepPlan::apart_share): the share of passes apart, and how much longer
  // such a pass takes than one on the caller's core; forward_s is their mean.  Where apart
  // is slower, the team's threads sleep through most of each operator and the scheduler
  // places a sleeping thread only as it wakes, so each pass keeps the place its team woke
  // in: each draws it (from `seed`).  Where apart is faster, both threads stay busy and the
  // scheduler moves one to an idle core within the pass: every pass takes forward_s, as
  // does every pass where these are empty.
  std::vector<double> apart_share;
  std::vector<double> forward_apart_beyond_s;
  int threads = 1;                    // on a CPU: the cores a forward pass keeps busy
  perf::StallTrace stalls;            // on a CPU: the interruptions its team meets (stalls.hpp)
  std::vector<int> preferred_requests;  // preferred batch sizes, in requests
  double max_queue_delay_s = 0;
};

// The open loop's send times, from 0: i / rate, or the sums of exponential gaps (the same
// seed gives the same times on every platform), or of `intervals` in turn.
std::vector<double> arrival_times(Arrival arrival, double rate, int count, uint64_t seed,
                                  const std::vector<double>& intervals = {});

InferenceResult simulate_served(const ServedSpec& spec);

}  // namespace dlsim::infer
