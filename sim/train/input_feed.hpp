#pragma once
// The loaders of a training run's input pipeline (InputPipeline), for actors of a running
// simulation: each GPU's loader, on its node's host, prepares batches ahead of the GPU
// (up to `prefetch`), on cores that every loader of the node shares; each step the GPU's
// worker takes one and copies it in over PCIe, or finds it copied in by the loader.
// Synthetic input costs nothing.  For the training actors' sources only: it brings
// SimGrid's headers.
#include <vector>

#include <simgrid/s4u/Semaphore.hpp>

#include "platform/cluster.hpp"
#include "train/input_pipeline.hpp"

namespace dlsim::train {

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
