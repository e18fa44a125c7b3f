#include "report/trace.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include <nlohmann/json.hpp>

namespace dlsim::report {
namespace {

// "gpu2" < "gpu10": runs of digits compare as numbers.
bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ei = i, ej = j;
      while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei]))) ++ei;
      while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej]))) ++ej;
      const auto na = std::stoull(a.substr(i, ei - i)), nb = std::stoull(b.substr(j, ej - j));
      if (na != nb) return na < nb;
      i = ei;
      j = ej;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

}  // namespace

std::string chrome_trace(const train::Trace& trace, const std::string& title) {
  using nlohmann::ordered_json;
  double origin = 0;
  if (!trace.events.empty())
    origin = std::min_element(trace.events.begin(), trace.events.end(), [](const auto& a, const auto& b) {
               return a.start_s < b.start_s;
             })->start_s;
  ordered_json events = ordered_json::array();
  // Tracks in natural order: gpu2 before gpu10, a GPU's kernels before its transfers.
  std::vector<std::string> tracks;
  for (const auto& e : trace.events)
    if (std::find(tracks.begin(), tracks.end(), e.track) == tracks.end()) tracks.push_back(e.track);
  std::sort(tracks.begin(), tracks.end(), natural_less);
  std::map<std::string, int> tid;
  for (const auto& t : tracks) tid.emplace(t, static_cast<int>(tid.size()) + 1);
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"args", {{"name", title}}}});
  for (const auto& t : tracks)
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", tid[t]}, {"args", {{"name", t}}}});
  for (const auto& e : trace.events)
    events.push_back({{"name", e.name},
                      {"ph", "X"},
                      {"pid", 1},
                      {"tid", tid[e.track]},
                      {"ts", (e.start_s - origin) * 1e6},
                      {"dur", e.duration_s * 1e6}});
  return ordered_json{{"traceEvents", events}, {"displayTimeUnit", "ms"}}.dump(1) + "\n";
}

}  // namespace dlsim::report
