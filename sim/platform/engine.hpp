#pragma once
// The process's one SimGrid engine (SimGrid allows one per process: a sweep or a
// validation runs each simulation in its own process), created quietly.
#include <memory>

namespace simgrid::s4u {
class Engine;
}  // namespace simgrid::s4u

namespace dlsim::platform {

// Creates the engine with SimGrid's logging limited to errors.  Throws std::logic_error
// when this process already has one.
std::unique_ptr<simgrid::s4u::Engine> make_engine();

// The simulated clock, in seconds.
double now();

}  // namespace dlsim::platform
