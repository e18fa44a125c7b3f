#include "cli/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>

namespace dlsim::cli {
namespace {

// A child's exit status once it ends (128 + the signal that ended it), or -1.
int exit_status(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A forked child at work, its output read from `pipe` until the child closes it.
struct Running {
  size_t index = 0;
  pid_t pid = -1;
  int pipe = -1;
};

// Forks a child that runs `work` and writes its output to a pipe; the result's status is
// -1 when no child could be started.
ChildResult start_child(const std::function<int(std::string& output)>& work, Running& running) {
  int fds[2];
  if (pipe(fds) != 0) return {-1, "cannot create a pipe"};
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return {-1, "cannot fork"};
  }
  if (pid == 0) {
    close(fds[0]);
    std::string output;
    const int code = work(output);
    for (size_t done = 0; done < output.size();) {
      const ssize_t n = write(fds[1], output.data() + done, output.size() - done);
      if (n <= 0) _exit(1);
      done += static_cast<size_t>(n);
    }
    _exit(code);
  }
  close(fds[1]);
  running.pid = pid;
  running.pipe = fds[0];
  return {};
}

}  // namespace

int run_program(const std::vector<std::string>& argv, const std::string& stdout_path) {
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (!stdout_path.empty()) {
      const int fd = open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) _exit(127);
      close(fd);
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  return exit_status(pid);
}

std::vector<ChildResult> run_in_children(size_t count, const std::function<int(size_t i, std::string& output)>& work,
                                         size_t parallel) {
  std::vector<ChildResult> results(count);
  std::vector<Running> running;
  size_t next = 0;
  char buffer[65536];
  while (next < count || !running.empty()) {
    while (next < count && running.size() < std::max<size_t>(parallel, 1)) {
      Running child{next, -1, -1};
      results[next] = start_child([&work, i = next](std::string& output) { return work(i, output); }, child);
      ++next;
      if (child.pid >= 0) running.push_back(child);
    }
    if (running.empty()) continue;
    std::vector<pollfd> fds;
    for (const auto& child : running) fds.push_back({child.pipe, POLLIN, 0});
    if (poll(fds.data(), fds.size(), -1) < 0) continue;
    for (size_t k = running.size(); k-- > 0;) {
      if (fds[k].revents == 0) continue;
      ChildResult& result = results[running[k].index];
      const ssize_t n = read(running[k].pipe, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        result.output.append(buffer, static_cast<size_t>(n));
        continue;
      }
      close(running[k].pipe);
      result.status = exit_status(running[k].pid);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }
  return results;
}

ChildResult run_in_child(const std::function<int(std::string& output)>& work) {
  return run_in_children(1, [&work](size_t, std::string& output) { return work(output); }, 1).front();
}

std::string find_tool(const std::string& name, const std::string& build_relative, const char* env_variable) {
  if (const char* env = std::getenv(env_variable); env && *env) return env;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto candidate = self.parent_path() / build_relative;
    if (std::filesystem::exists(candidate, ec)) return std::filesystem::weakly_canonical(candidate, ec).string();
  }
  return name;  // execvp searches PATH
}

}  // namespace dlsim::cli
