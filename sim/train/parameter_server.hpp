#pragma once
// Data-parallel training with parameter servers, as TensorFlow ran it (tf_cnn_benchmarks,
// variable_update=parameter_server): each layer's variables live on one of S server
// processes, placed greedily by size (TensorFlow's GreedyLoadBalancingStrategy); a worker
// pushes each layer's gradients to its server over gRPC as soon as backward completes
// them, and pulls every variable back before its next forward.
//   synchronous   a server applies a variable's update once every worker's gradients for
//                 it have arrived (their sum), so every worker waits for the slowest push;
//   asynchronous  a server applies each push as it arrives, and a worker pulls as soon as
//                 its own pushes are applied.
// A message costs the protocol's per-request latency and per-byte work at both ends (each
// process's stack link, platform/cluster.hpp) besides the PCIe and network links it
// crosses; a server's update streams gradients and weights through host memory.
#include <vector>

#include "perf/buckets.hpp"
#include "perf/step_plan.hpp"
#include "platform/cluster.hpp"
#include "train/input_pipeline.hpp"
#include "train/single_device.hpp"

namespace dlsim::train {

struct ParameterServerSpec {
  platform::ClusterSpec cluster;
  int gpus = 1;                   // the first `gpus` GPUs of the cluster
  int servers = 1;                // server processes, round-robin over the GPU nodes or the server nodes
  bool dedicated = false;         // servers on cluster.server_nodes of their own, not beside the workers
  bool greedy = true;             // variables placed greedily by size; false: round-robin in layer order
  bool synchronous = true;
  int steps = 3;
  double rpc_bytes_per_s = 0;     // what one process's protocol stack moves per second
  double rpc_latency_s = 0;       // per request, both ends together
  double update_bytes_per_s = 0;  // a server's update through host memory
  bool trace = false;             // keep the last step's events (trace.hpp)
  InputPipeline input;            // each worker's batches (input_feed.hpp)
};

// Which server holds each gradient's variables: greedily by size, largest first onto the
// least loaded (TensorFlow's GreedyLoadBalancingStrategy), or round-robin in the order
// backward produces them (replica_device_setter's default).
std::vector<int> place_variables(const std::vector<perf::Gradient>& gradients, int servers, bool greedy = true);

// How many workers one simulated worker stands for: in synchronous training without a
// trace, every GPU of a star's nodes (with dedicated servers, or from 32 nodes on with the
// servers beside the workers), else a node's GPUs (their flows move together, which
// max-min sharing treats as apart); 1 otherwise.
int workers_simulated_as_one(const ParameterServerSpec& spec);

// Simulates in this process's SimGrid engine (created here); needs steps >= 3.  The step
// time is the steady state: each worker's period from the end of its second step (the
// first that pulled) to the end of its last, combined as the workers' summed rates.
TrainingResult simulate_ps_training(const perf::StepPlan& plan, const std::vector<perf::Gradient>& gradients,
                                    const ParameterServerSpec& spec);

}  // namespace dlsim::train
