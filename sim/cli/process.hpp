#pragma once
// Child processes: the benchmark programs `dlsim calibrate` runs, and the isolated
// simulations of `dlsim validate` (SimGrid allows one engine per process).
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dlsim::cli {

// Runs a program with arguments, stdout to `stdout_path` (or inherited when empty); returns
// its exit status, or -1 when it could not start.
int run_program(const std::vector<std::string>& argv, const std::string& stdout_path = "");

// Runs `work` in a forked child and returns what it wrote, with the child's exit status.
struct ChildResult {
  int status = 0;
  std::string output;
};
ChildResult run_in_child(const std::function<int(std::string& output)>& work);
// Runs work(0) ... work(count - 1), each in a forked child, at most `parallel` at a time;
// the results are in the order of i, whichever child ends first.
std::vector<ChildResult> run_in_children(size_t count, const std::function<int(size_t i, std::string& output)>& work,
                                         size_t parallel);

// A program shipped beside dlsim in the build tree (kernels/...), or on PATH; the
// environment variable, when set, wins.
std::string find_tool(const std::string& name, const std::string& build_relative, const char* env_variable);

}  // namespace dlsim::cli
