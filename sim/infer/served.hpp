#pragma once
// Serving over a protocol (study A's microservice and distributed deployments): clients
// send each request (a batch of images) to an inference server process over gRPC, on the
// same machine (local) or from another across the network (remote); the server queues
// requests, copies each batch to the GPU, runs the forward pass, copies the result back,
// and answers.  Synchronous clients keep one request in flight each; an asynchronous client
// keeps `in_flight` of them.  Every message costs the protocol's per-request latency and
// per-byte work on the sending and the receiving process's stack (platform/cluster.hpp),
// besides the links it crosses.  One model instance on one GPU.  A dynamic batcher with
// Triton's semantics may combine queued requests: it runs as soon as it holds the maximum,
// and otherwise waits for more at most `max_queue_delay_s` after the oldest arrived.
#include <vector>

#include "infer/in_process.hpp"
#include "platform/cluster.hpp"

namespace dlsim::infer {

struct ServedSpec {
  platform::ClusterSpec cluster;  // node 0: the server and its GPU; remote: server_nodes = 1, the client
  bool remote = false;
  int clients = 1;
  int in_flight = 1;              // per client
  int requests_per_client = 8;
  double rpc_bytes_per_s = 0;     // a process's protocol stack
  double rpc_latency_s = 0;       // per request, both ends together
  double request_bytes = 0;       // the batch's input tensor
  double response_bytes = 0;      // its outputs
  // Dynamic batching: the forward pass of k combined requests takes forward_s[k - 1]; its
  // size is the most requests combined (1: every request alone).
  std::vector<double> forward_s;
  double max_queue_delay_s = 0;
};

InferenceResult simulate_served(const ServedSpec& spec);

}  // namespace dlsim::infer
