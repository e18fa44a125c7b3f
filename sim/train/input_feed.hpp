#pragma once
// The loaders of a training run's input pipeline (InputPipeline), for actors of a running
// simulation: each GPU's loader, on its node's host, prepares batches ahead of the GPU
// (up to `prefetch`), on cores that every loader of the node shares; each step the GPU's
// worker takes one and copies it in over PCIe, or finds it copied in by the loader.
// Synthetic input costs nothing.
#include <vector>

#include <simgrid/s4u/Semaphore.hpp>

#include "platform/cluster.hpp"

namespace dlsim::train {

// Where a GPU's batches come from.  Synthetic data is made on the GPU and costs nothing;
// otherwise a loader on the node's host prepares each batch (decoding and augmenting
// every image, `seconds_per_image` of one core each, spread over `workers` cores that all
// GPUs' loaders share), keeps up to `prefetch` batches ready, and the batch is copied to
// the GPU over PCIe before its forward pass, or, `to_gpu`, ahead of it by the loader
// (TensorFlow's StagingArea, PyTorch's prefetchers on a side stream, DALI).
struct InputPipeline {
  bool synthetic = true;
  int batch = 0;                 // images per GPU and step
  double seconds_per_image = 0;  // host core time to prepare one (0: already prepared in memory)
  double bytes_per_image = 0;    // copied to the GPU
  int workers = 1;               // cores per GPU's loader
  int prefetch = 2;
  bool to_gpu = false;           // prefetched batches already on the GPU
};

class InputFeed {
 public:
  // `gpus` are the simulated GPUs, each standing for `members` alike (their loaders
  // prepare and copy `members` batches together, on `members` times the cores).  Connects
  // each GPU to its node's host over the hardware alone; before the cluster is sealed.
  InputFeed(const InputPipeline& input, platform::Cluster& cluster, const std::vector<simgrid::s4u::Host*>& gpus,
            int steps, int members = 1);
  // Creates the loader actors; before the engine runs.
  void start();
  // Blocks GPU w's worker until its next batch is ready and on the GPU.
  void take(size_t w);
  bool synthetic() const { return input_.synthetic; }

 private:
  simgrid::s4u::Host* host_of(simgrid::s4u::Host* gpu) const;
  void copy_in(size_t w) const;

  InputPipeline input_;
  platform::Cluster& cluster_;
  std::vector<simgrid::s4u::Host*> gpus_;
  int steps_, members_;
  std::vector<simgrid::s4u::SemaphorePtr> batch_ready_, slot_free_, prepared_;  // prepared_: on the host, to_gpu
};

}  // namespace dlsim::train
