#include "platform/engine.hpp"

#include <stdexcept>

#include <simgrid/s4u/Engine.hpp>

namespace dlsim::platform {

std::unique_ptr<simgrid::s4u::Engine> make_engine() {
  if (simgrid::s4u::Engine::has_instance())
    throw std::logic_error("a SimGrid engine already exists in this process; run each simulation in its own");
  int argc = 2;
  char name[] = "dlsim";
  char quiet[] = "--log=root.thres:critical";
  char* argv[] = {name, quiet, nullptr};
  return std::make_unique<simgrid::s4u::Engine>(&argc, argv);
}

double now() { return simgrid::s4u::Engine::get_clock(); }

}  // namespace dlsim::platform
