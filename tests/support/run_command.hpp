#pragma once
// Runs a program the way a user would and captures what it printed: the tests of the
// dlsim executable and of the kernel benchmarks share it.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>
#include <vector>

namespace dlsim::testing {

struct CommandResult {
  int exit_code = -1;  // 128 + signal when the program was killed
  std::string output;  // stdout, and stderr too when asked for
};

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// Runs `program` with `args` (each quoted for the shell); keeps stderr when with_stderr.
inline CommandResult run_command(const std::string& program, const std::vector<std::string>& args,
                                 bool with_stderr = true) {
  std::string command = shell_quote(program);
  for (const auto& a : args) command += " " + shell_quote(a);
  command += with_stderr ? " 2>&1" : " 2>/dev/null";
  CommandResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer{};
  while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) result.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace dlsim::testing
