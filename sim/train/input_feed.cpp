#include "train/input_feed.hpp"

#include <simgrid/s4u.hpp>

#include "platform/single_host.hpp"

namespace dlsim::train {

using simgrid::s4u::Semaphore;

InputFeed::InputFeed(const InputPipeline& input, platform::Cluster& cluster,
                     const std::vector<simgrid::s4u::Host*>& gpus, int steps, int members)
    : input_(input), cluster_(cluster), gpus_(gpus), steps_(steps), members_(members) {
  if (input_.synthetic) return;
  for (auto* gpu : gpus_) {
    cluster_.connect(host_of(gpu), gpu, /*hardware_only=*/true);
    batch_ready_.push_back(Semaphore::create(0));
    prepared_.push_back(Semaphore::create(0));
    slot_free_.push_back(Semaphore::create(static_cast<unsigned>(input_.prefetch)));
  }
}

simgrid::s4u::Host* InputFeed::host_of(simgrid::s4u::Host* gpu) const {
  return cluster_.host(cluster_.node_of(cluster_.gpu_index(gpu)));
}

void InputFeed::start() {
  if (input_.synthetic) return;
  for (size_t w = 0; w < gpus_.size(); ++w) {
    auto* host = host_of(gpus_[w]);
    simgrid::s4u::Actor::create("loader" + std::to_string(w), host, [this, w, host] {
      const double per_core = input_.batch * input_.seconds_per_image / input_.workers;
      for (int step = 0; step < steps_; ++step) {
        slot_free_[w]->acquire();
        if (per_core > 0)
          simgrid::s4u::this_actor::thread_execute(host, per_core * platform::kOpsPerSecond, input_.workers * members_);
        (input_.to_gpu ? prepared_ : batch_ready_)[w]->release();
      }
    });
    if (input_.to_gpu)  // a stager copies each prepared batch while the loader prepares the next
      simgrid::s4u::Actor::create("stager" + std::to_string(w), host, [this, w] {
        for (int step = 0; step < steps_; ++step) {
          prepared_[w]->acquire();
          copy_in(w);
          batch_ready_[w]->release();
        }
      });
  }
}

void InputFeed::take(size_t w) {
  if (input_.synthetic) return;
  batch_ready_[w]->acquire();
  slot_free_[w]->release();
  if (!input_.to_gpu) copy_in(w);
}

void InputFeed::copy_in(size_t w) const {
  simgrid::s4u::Comm::sendto(host_of(gpus_[w]), gpus_[w],
                             static_cast<uint64_t>(members_ * input_.batch * input_.bytes_per_image));
}

}  // namespace dlsim::train
