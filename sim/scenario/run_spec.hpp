#pragma once
// A scenario after validation: plain structs with every default filled in and every name
// resolved against the catalog.  The simulation reads these, never a file.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graph/cost.hpp"
#include "scenario/page_census.hpp"

namespace dlsim::scenario {

enum class WorkloadKind { train, infer };
enum class Precision { fp32, tf32, fp16, amp };

struct WorkloadSpec {
  WorkloadKind kind = WorkloadKind::train;
  std::string model;        // a zoo name, or a path resolved against the scenario's folder
  int64_t batch = 0;        // per device per step (training) or per request (serving)
  Precision precision = Precision::fp32;
};

struct SystemSpec {
  std::string instance;     // catalog instance; empty when only a device is given
  std::string device;       // "cpu" or a catalog GPU
  int devices = 1;          // devices in total
  int nodes = 1;            // instances, from devices and the instance's devices per node
  int threads = 1;          // CPU compute threads
  std::string cpu;          // catalog CPU: the instance's, or system.cpu; empty: the calibrated machine
  bool allow_fallback = false;  // price kernels the profile cannot answer by a roofline
  // A GPU's host: its framework's fixed time per step (or request) and per kernel launched
  // (perf/launch.hpp); the GPU timings hold neither.
  double step_overhead_s = 0;
  double launch_overhead_s = 0;
  // The host's time per kernel at its fast and slow tenth (a shared host's vCPUs differ:
  // validation/host_pace.py); the prediction's band carries them.  Equal to
  // launch_overhead_s unless given.
  double launch_overhead_p10_s = 0;
  double launch_overhead_p90_s = 0;
  // A pass's time per kernel over its median on one of the host's CPUs, at
  // perf::kSpreadPercentiles (validation/host_pace.py); each pass draws one.  Empty: none.
  std::vector<double> launch_spread;
  // The host's time per kernel in a pass whose launching thread took over from another's (a
  // Python server's connection threads taking turns: validation/host_pace.py).  Unless
  // given, launch_overhead_p90_s: two leases' passes taken in turns ran at about their
  // host's slow tenth (perf/launch.hpp).
  double launch_overhead_handoff_s = 0;
  std::string profile;      // calibration profile path; empty: the device's default
  // The host's input calibration (kernels/pytorch/input_bench.py: a JPEG decoded for
  // training and for serving), a profile path; empty: the profiles dlsim ships
  // (training's from the Emerald Rapids VM, serving's from the Zen 5 VM), carried by clock.
  std::string input_profile;
  // CPU, a profile of oneDNN and BLAS kernels: the library that runs fully connected layers,
  // "blas" (the system BLAS, as Debian's PyTorch does) or "onednn" (a tuned, threaded GEMM,
  // as TensorFlow's Eigen or MKL kernels are); empty: the profile's framework rule.
  std::string linear_kernels;
  // CPU inference on a glibc host: the heap's state its passes meet, "model" (the heap
  // model's count of refaulted pages), "p10" or "p90" (that count at the fast or slow tenth
  // of its spread over heap states, perf::kServedPassFaultSpread); empty: "model".
  std::string heap_state;
  // CPU inference on a glibc host: the pages a pass faults as counted on its stack, every
  // thread's (validation/measure/serving_cpu.py's locked_process: a stack's count repeats
  // from process to process and machine to machine), in place of the heap model's; -1: the
  // heap model's.
  int64_t pass_page_faults = -1;
  // CPU inference on a glibc host: a page census of the serving stack
  // (validation/page_census.py), each configuration priced at its row's count, or at the
  // heap model's where it has none; and the census's name for the model (empty: its only
  // one).  Not with pass_page_faults or heap_state.
  std::string page_census;
  std::string page_census_model;
  std::shared_ptr<const PageCensus> census;  // page_census as read, once
  // CPU: the machine's pace on the day over its calibration's, the time its calibration's
  // operators take now over what they took then (calibration/probe_pace.sh): every CPU
  // kernel's time is that many times the profile's.  A VM's host moves it by 5-30% over
  // hours.  1: the calibration's pace.
  double cpu_pace = 1;
  // CPU: the pace of the kernels of these operators (a signature's first word: "linear"),
  // where it differs from cpu_pace's: Debian's PyTorch runs linear layers through the
  // reference BLAS on one thread, convolutions through oneDNN on the team, and a host's
  // neighbours slowed them unalike (calibration/pace.py).
  std::map<std::string, double> cpu_pace_by_op;
  // CPU: the widest vector instructions the framework's binary was built for ("sse2" for
  // TensorFlow's pip wheels before 1.6); its convolutions and GEMMs run at that peak.
  // Empty: the CPU's own.
  std::string isa;
  double network_bandwidth_Bps = 0;  // overrides the instance NIC's bandwidth when > 0
  double network_latency_s = 0;      // overrides the network calibration's latency when > 0
  std::string network = "star";      // between nodes: "star" (one non-blocking switch) or "fat_tree"
  int nodes_per_rack = 0;            // fat_tree: nodes under one top-of-rack switch
  double oversubscription = 1;       // fat_tree: a rack's NICs over its uplink
};

struct TrainingSpec {
  std::string strategy = "single";       // "single", "allreduce", "ps_sync", "ps_async"
  std::string optimizer = "sgd_momentum";  // "sgd", "sgd_momentum", "adam"
  double bucket_bytes = 25.0 * 1024 * 1024;  // gradients all-reduced together (PyTorch DDP's bucket_cap_mb = 25;
                                             // Horovod's fusion threshold, 64 MiB, with fusion = "horovod")
  std::string fusion = "buckets";            // "buckets" (DDP: as each fills) or "horovod" (each cycle's ready gradients)
  double cycle_s = 5e-3;                     // Horovod's cycle time (HOROVOD_CYCLE_TIME before 0.21: 5 ms)
  int parameter_servers = 1;                 // server processes of the ps strategies
  std::string ps_hosts = "colocated";        // "colocated" with the workers, or "dedicated" instances
  std::string ps_placement = "greedy";       // "greedy" by size, or "round_robin"
  std::string ps_transport = "grpc";         // "grpc" between processes, or "in_process" on one node's CPU
  std::string allreduce = "ring";            // "ring", "hierarchical", "tree"
  std::string ring_order = "topology";       // "topology" (NCCL 2 on: rings along NVLink), "rank" (NCCL 1.x)
  std::string input = "synthetic";           // "synthetic", "memory", "jpeg"
  int loader_workers = 0;                    // host cores per GPU preparing batches; 0: the node's share
  bool prefetch_to_gpu = false;              // batches copied to the GPU ahead of their step
};

// FP32 tensors of optimizer state per parameter: momentum keeps one, Adam two.
int optimizer_slots(const std::string& optimizer);

struct ServingSpec {
  std::string deployment = "in-process";  // "in-process", "local", "remote"
  // The serving process's threads that run forward passes, each keeping an OpenMP team of
  // its own (a thread per HTTP connection, gRPC's pool, a model instance; an in-process
  // caller's): beyond the machine's cores the runtime's idle threads sleep at once.
  int pass_threads = 1;
  // The thread that built or loaded the model ran parallel operators (a constructor's
  // truncated-normal initialisation, weights copied in) and keeps its OpenMP team beside
  // the passes' threads: one team more.
  bool loader_team = false;
  std::string protocol;                   // "http", "grpc"; empty in-process
  // Whose implementation: "native" (C++, as Triton) or "python", whose handler copies each
  // request's bytes into a tensor (in process too: an application handed bytes).
  std::string stack = "native";
  std::string protocol_profile;          // a protocol calibration instead of the development VM's for stack and protocol
  std::string mode = "sync";              // "sync", "async"
  int concurrency = 1;
  std::string client_instance;            // for "remote" (or system.network_bandwidth)
  int64_t max_batch = 0;                  // dynamic batching: images per combined batch at most; 0: off
  double max_queue_delay_s = 0;           // how long the batcher waits for more
  std::vector<int64_t> preferred_batch;   // images; the batcher sends these sizes without waiting
  int instances = 1;                      // model instances per GPU
  std::string arrival = "closed";         // "closed" (concurrency), "constant" or "poisson" (request_rate),
                                          // "replay" (intervals)
  std::vector<double> intervals_s;        // replay: the gaps between sends, in order (cycled)
  double request_rate = 0;                // requests per second, open loop
  int requests = 0;                       // open loop: requests simulated
  int timed_requests = 0;                 // closed loop: a measured run's requests, whose percentiles
                                          // the report gives; 0: the simulated requests' own
  int64_t seed = 1;                       // Poisson arrivals
  std::string engine = "framework";       // "framework" (a kernel per layer) or "tensorrt" (fused, perf/engine.hpp)
  // "tensors" (decoded, in the host's memory), "files" (JPEGs decoded by the client) or, in
  // process on a GPU, "device" (already in its memory, as a benchmark's synthetic batch: what
  // a scenario without [serving] runs; no copy to the GPU and back)
  std::string input = "tensors";
  std::string disk;                       // files: the catalog disk they are read from; empty: the page cache
  double file_bytes = 115e3;              // files: one image's JPEG (ImageNet's training set: 147.9 GB / 1,281,167)
};

// A training job to be priced: its data, epochs, the other terms of study B's billed time,
// and the billing rule (default: the instance's).
// Study B's container runs: pulling the image adds to t_install, starting the container to
// t_start; with enough cores a container costs no compute (a container with fewer CPUs
// than system.threads is refused).
struct JobSpec {
  int64_t dataset_images = 0;
  int epochs = 1;
  double startup_s = 0, install_s = 0, data_load_s = 0, start_s = 0, verify_s = 0, save_data_s = 0, poweroff_s = 0;
  std::string billing;
  double container_pull_s = 0;   // the image's bytes over the registry's (or the NIC's) bandwidth
  double container_start_s = 0;
  // t_install and t_start with the container's pull and start.
  double install_with_container_s() const { return install_s + container_pull_s; }
  double start_with_container_s() const { return start_s + container_start_s; }
};

struct RunSpec {
  std::string source;       // the scenario file
  WorkloadSpec workload;
  SystemSpec system;
  std::optional<TrainingSpec> training;
  std::optional<ServingSpec> serving;
  std::optional<JobSpec> job;
};

std::string to_string(WorkloadKind kind);
std::string to_string(Precision precision);
// The data type activations are computed in: AMP computes in FP16.
graph::DataType compute_type(Precision precision);

// Why the scenario is sized but not simulated (several devices, a serving deployment other
// than in-process); empty when it is simulated.
std::string not_simulated_yet(const RunSpec& spec);

}  // namespace dlsim::scenario
