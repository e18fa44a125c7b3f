#include "core/suggest.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace dlsim {

int edit_distance(std::string_view a, std::string_view b, bool fold_case) {
  // Optimal string alignment distance; a transposition is a common typo ("Gbsp").
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
  for (size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
  auto lower = [fold_case](char c) {
    return fold_case ? static_cast<char>(std::tolower(static_cast<unsigned char>(c))) : c;
  };
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      const int cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::optional<std::string> closest_name(std::string_view name,
                                        const std::vector<std::string>& candidates) {
  // Rank by case-blind distance, then by exact distance ("Gbsp" is nearer "Gbps" than "GBps").
  std::optional<std::string> best;
  int best_distance = 0, best_exact = 0;
  for (const auto& candidate : candidates) {
    const int distance = edit_distance(name, candidate);
    const int exact = edit_distance(name, candidate, false);
    if (!best || distance < best_distance || (distance == best_distance && exact < best_exact)) {
      best = candidate;
      best_distance = distance;
      best_exact = exact;
    }
  }
  // Close enough: a third of the longer name, at least one edit, at most three.
  const int limit = std::clamp(static_cast<int>(std::max(name.size(), best ? best->size() : 0)) / 3, 1, 3);
  if (best && best_distance <= limit) return best;
  return std::nullopt;
}

std::string suggest(std::string_view name, const std::vector<std::string>& candidates) {
  if (auto best = closest_name(name, candidates)) return fmt::format("did you mean '{}'?", *best);
  // One name is a short form of the other: "v100" of "v100-pcie" and "v100-sxm2",
  // "conv" of "convolution", "train" of "training".
  std::vector<std::string> extensions;
  for (const auto& c : candidates) {
    const size_t common = std::min(name.size(), c.size());
    if (common >= 2 && c.size() != name.size() && edit_distance(c.substr(0, common), name.substr(0, common)) == 0)
      extensions.push_back("'" + c + "'");
  }
  if (!extensions.empty() && extensions.size() <= 4)
    return fmt::format("did you mean {}?", fmt::join(extensions, " or "));
  if (candidates.size() <= 24) return fmt::format("valid: {}", fmt::join(candidates, ", "));
  return fmt::format("{} valid names; see the documentation", candidates.size());
}

}  // namespace dlsim
