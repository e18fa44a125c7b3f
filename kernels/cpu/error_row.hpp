#pragma once
// A benchmark row that says why a signature could not be timed, so that the JSON keeps
// every signature and the others still run (kernels/cpu and kernels/gpu alike).
#include <string>

#include <benchmark/benchmark.h>

namespace dlsim::kernels {

inline void register_error_row(const std::string& name, const std::string& why) {
  benchmark::RegisterBenchmark(name.c_str(), [why](benchmark::State& st) {
    st.SkipWithError(why.c_str());
    for (auto _ : st) {
    }
  });
}

}  // namespace dlsim::kernels
