#pragma once
// A sweep: a scenario predicted at every combination of the values given for some of its
// keys (`--vary key=v1,v2,...`, the first key varying slowest), each point an index into
// that product.  `--shard k/n` takes the points whose index is k-1 modulo n, so that n
// machines share a sweep deterministically and `dlsim merge` joins what they wrote.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace dlsim::plan {

struct Vary {
  std::string key;
  std::vector<std::string> values;
};

struct Shard {
  int index = 1;  // k, from 1
  int count = 1;  // n
};

struct SweepPoint {
  size_t index = 0;
  std::vector<std::pair<std::string, std::string>> values;  // key, value, in --vary order
};

// "workload.batch=32,64,128"; throws InputError naming the argument.
Vary parse_vary(const std::string& argument);
// "2/8"; throws InputError.
Shard parse_shard(const std::string& argument);

size_t point_count(const std::vector<Vary>& varies);
// This shard's points, in index order.
std::vector<SweepPoint> sweep_points(const std::vector<Vary>& varies, Shard shard);

}  // namespace dlsim::plan
