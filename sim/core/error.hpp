#pragma once
// Errors that reach the user.  Library code throws; only sim/cli catches and picks the
// exit code (DESIGN.md): InputError -> 2, UnrunnableError -> 3, anything else -> 1.

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace dlsim {

// Where a value came from: a file position, or a command-line override.
struct SourceLocation {
  std::string file;  // path as given, or "--set"
  int line = 0;      // 1-based; 0 when unknown
  int column = 0;    // 1-based; 0 when unknown

  std::string to_string() const;
};

// One thing wrong with the input, with everything a user needs to fix it.
struct Problem {
  SourceLocation where;
  std::string key;         // dotted key path, e.g. "workload.batch"; may be empty
  std::string value;       // the offending value as written; may be empty
  std::string expected;    // what would have been accepted
  std::string suggestion;  // e.g. "did you mean 'v100'?"; may be empty

  std::string to_string() const;
};

// Bad input: a scenario, model file, catalog entry or flag the user can correct.
// Holds every problem found in one pass.
class InputError : public std::runtime_error {
 public:
  explicit InputError(std::vector<Problem> problems);
  explicit InputError(Problem problem);
  const std::vector<Problem>& problems() const { return problems_; }

 private:
  std::vector<Problem> problems_;
};

// Valid input describing something that cannot run (e.g. it does not fit in memory);
// the message carries the numbers.
class UnrunnableError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A check that ran and did not pass (a validation group past its bound): exit code 1,
// reported as what it is, not as an internal error.
class CheckFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Collects problems while a parser walks its input, so that all are reported at once.
class ProblemList {
 public:
  // A problem already listed (the same place, key, value and expectation, as a case file's
  // [defaults] meets every suite and a placeholder every row) is listed once.
  void add(Problem problem);
  void add(const InputError& error);
  bool empty() const { return problems_.empty(); }
  // Throws InputError when any problem was added.
  void throw_if_any() const;

 private:
  std::vector<Problem> problems_;
};

}  // namespace dlsim
