#include "train/rings.hpp"

#include <algorithm>
#include <numeric>

namespace dlsim::train {

namespace {

using Capacity = std::vector<std::vector<int>>;  // [a][b]: links between GPUs a and b

// Enough for any mesh of 8 GPUs (a DGX-1's V100s: six rings found in 0.04 ms); they bound
// the search on larger ones, which then keeps the best set found so far (a 16-GPU full
// mesh gets one cycle of its seven).
constexpr size_t kMostCycles = 1000;
constexpr size_t kMostTries = 2'000'000;

// Every Hamiltonian cycle from GPU 0 over pairs with links, each once (its second GPU
// numbered below its last), in lexicographic order.
void cycles_from(const Capacity& cap, Ring& path, std::vector<bool>& used, std::vector<Ring>& out) {
  const int n = static_cast<int>(cap.size());
  if (out.size() >= kMostCycles) return;
  if (static_cast<int>(path.size()) == n) {
    if (cap[static_cast<size_t>(path.back())][0] > 0 && path[1] < path.back()) out.push_back(path);
    return;
  }
  for (int next = 1; next < n; ++next) {
    const auto n_next = static_cast<size_t>(next);
    if (used[n_next] || cap[static_cast<size_t>(path.back())][n_next] == 0) continue;
    used[n_next] = true;
    path.push_back(next);
    cycles_from(cap, path, used, out);
    path.pop_back();
    used[n_next] = false;
  }
}

void take(Capacity& cap, const Ring& cycle, int sign) {
  for (size_t i = 0; i < cycle.size(); ++i) {
    const auto a = static_cast<size_t>(cycle[i]), b = static_cast<size_t>(cycle[(i + 1) % cycle.size()]);
    cap[a][b] -= sign;
    cap[b][a] -= sign;
  }
}

bool fits(const Capacity& cap, const Ring& cycle) {
  for (size_t i = 0; i < cycle.size(); ++i)
    if (cap[static_cast<size_t>(cycle[i])][static_cast<size_t>(cycle[(i + 1) % cycle.size()])] < 1) return false;
  return true;
}

// The largest multiset of cycles (from `first` on, repeats allowed) the capacities hold.
void most_cycles(const std::vector<Ring>& cycles, size_t first, Capacity& cap, std::vector<size_t>& chosen,
                 std::vector<size_t>& best, size_t& tries) {
  if (chosen.size() > best.size()) best = chosen;
  for (size_t c = first; c < cycles.size() && ++tries < kMostTries; ++c) {
    if (!fits(cap, cycles[c])) continue;
    take(cap, cycles[c], 1);
    chosen.push_back(c);
    most_cycles(cycles, c, cap, chosen, best, tries);
    chosen.pop_back();
    take(cap, cycles[c], -1);
  }
}

}  // namespace

std::vector<Ring> nvlink_rings(int gpus, const std::vector<platform::GpuPairLink>& links) {
  if (gpus < 2) return {};
  Capacity cap(static_cast<size_t>(gpus), std::vector<int>(static_cast<size_t>(gpus), 0));
  for (const auto& l : links)
    if (l.a != l.b && l.a >= 0 && l.b >= 0 && l.a < gpus && l.b < gpus) {
      cap[static_cast<size_t>(l.a)][static_cast<size_t>(l.b)] += l.links;
      cap[static_cast<size_t>(l.b)][static_cast<size_t>(l.a)] += l.links;
    }
  std::vector<Ring> out;
  if (gpus == 2) {
    for (int l = 0; l < cap[0][1]; ++l) out.push_back({0, 1});
    return out;
  }
  std::vector<Ring> cycles;
  Ring path{0};
  std::vector<bool> used(static_cast<size_t>(gpus), false);
  used[0] = true;
  cycles_from(cap, path, used, cycles);
  std::vector<size_t> chosen, best;
  size_t tries = 0;
  most_cycles(cycles, 0, cap, chosen, best, tries);
  for (size_t c : best) {
    out.push_back(cycles[c]);
    Ring reversed{0};
    reversed.insert(reversed.end(), cycles[c].rbegin(), cycles[c].rend() - 1);
    out.push_back(reversed);
  }
  return out;
}

std::vector<Ring> rank_order_ring(int gpus) {
  Ring ring(static_cast<size_t>(std::max(gpus, 0)));
  std::iota(ring.begin(), ring.end(), 0);
  return {ring};
}

}  // namespace dlsim::train
