#include "core/error.hpp"

#include <fmt/format.h>

namespace dlsim {
namespace {

std::string join_problems(const std::vector<Problem>& problems) {
  std::string out;
  for (const auto& p : problems) {
    if (!out.empty()) out += '\n';
    out += p.to_string();
  }
  return out;
}

}  // namespace

std::string SourceLocation::to_string() const {
  if (line <= 0) return file;
  if (column <= 0) return fmt::format("{}:{}", file, line);
  return fmt::format("{}:{}:{}", file, line, column);
}

std::string Problem::to_string() const {
  std::string out = where.to_string();
  if (!out.empty()) out += ": ";
  out += "error: ";
  if (!key.empty()) out += fmt::format("key '{}'", key);
  if (!value.empty()) out += fmt::format("{}value '{}'", key.empty() ? "" : ", ", value);
  if (!key.empty() || !value.empty()) out += ": ";
  out += expected;
  if (!suggestion.empty()) out += fmt::format(" ({})", suggestion);
  return out;
}

InputError::InputError(std::vector<Problem> problems)
    : std::runtime_error(join_problems(problems)), problems_(std::move(problems)) {}

InputError::InputError(Problem problem) : InputError(std::vector<Problem>{std::move(problem)}) {}

void ProblemList::add(Problem problem) {
  const std::string text = problem.to_string();
  for (const auto& p : problems_)
    if (p.to_string() == text) return;
  problems_.push_back(std::move(problem));
}

void ProblemList::add(const InputError& error) {
  for (const auto& problem : error.problems()) add(problem);
}

void ProblemList::throw_if_any() const {
  if (!problems_.empty()) throw InputError(problems_);
}

}  // namespace dlsim
