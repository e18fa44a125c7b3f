#include "plan/sweep.hpp"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsim::plan {

Vary parse_vary(const std::string& argument) {
  const auto eq = argument.find('=');
  Vary v;
  if (eq != std::string::npos) {
    v.key = argument.substr(0, eq);
    std::stringstream in(argument.substr(eq + 1));
    for (std::string item; std::getline(in, item, ',');) v.values.push_back(item);
  }
  bool empty_value = false;
  for (const auto& value : v.values) empty_value = empty_value || value.empty();
  if (v.key.empty() || v.values.empty() || empty_value)
    throw InputError(Problem{{"dlsim sweep", 0, 0}, "--vary", argument, "key=value1,value2,... with no empty value",
                             "e.g. --vary workload.batch=32,64,128"});
  return v;
}

Shard parse_shard(const std::string& argument) {
  Shard s;
  char slash = 0;
  std::istringstream in(argument);
  if (!(in >> s.index >> slash >> s.count) || slash != '/' || !in.eof() || s.count < 1 || s.index < 1 ||
      s.index > s.count)
    throw InputError(Problem{{"dlsim sweep", 0, 0}, "--shard", argument, "k/n with 1 <= k <= n", "e.g. --shard 2/8"});
  return s;
}

size_t point_count(const std::vector<Vary>& varies) {
  size_t n = 1;
  for (const auto& v : varies) n *= v.values.size();
  return n;
}

std::vector<SweepPoint> sweep_points(const std::vector<Vary>& varies, Shard shard) {
  std::vector<SweepPoint> out;
  const size_t total = point_count(varies);
  for (size_t i = 0; i < total; ++i) {
    if (i % static_cast<size_t>(shard.count) != static_cast<size_t>(shard.index - 1)) continue;
    SweepPoint p{i, {}};
    size_t rest = i;
    for (auto v = varies.rbegin(); v != varies.rend(); ++v) {  // the last key varies fastest
      p.values.emplace_back(v->key, v->values[rest % v->values.size()]);
      rest /= v->values.size();
    }
    std::reverse(p.values.begin(), p.values.end());
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace dlsim::plan
