#pragma once
// Draws from a seeded std::mt19937_64 with no library distribution in between, so that
// one seed gives the same numbers on every platform and standard library.
#include <cmath>
#include <random>

namespace dlsim::infer {

// Uniform in (0, 1], from the top 53 bits.
inline double uniform_draw(std::mt19937_64& random) {
  return (static_cast<double>(random() >> 11) + 1.0) * 0x1.0p-53;
}

// The gap to the next arrival of a Poisson process of `rate` a second.
inline double exponential_gap(std::mt19937_64& random, double rate) { return -std::log(uniform_draw(random)) / rate; }

}  // namespace dlsim::infer
