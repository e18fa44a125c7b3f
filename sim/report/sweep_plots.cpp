#include "report/sweep_plots.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <optional>

namespace dlsim::report {
namespace {

constexpr size_t kMostLines = 8;  // more are unreadable; the CSV has them all

std::optional<double> number(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') return std::nullopt;
  return v;
}

std::optional<double> metric(const plan::PointRecord& r, const std::string& key) {
  if (r.exit_code != 0) return std::nullopt;
  const auto it = r.metrics.find(key);
  return it == r.metrics.end() ? std::nullopt : std::optional<double>(it->second);
}

// The varied key a chart's x axis shows: system.devices, else the first with numeric values.
std::optional<size_t> x_axis(const std::vector<plan::Vary>& varies) {
  std::optional<size_t> first;
  for (size_t i = 0; i < varies.size(); ++i) {
    bool numeric = true;
    for (const auto& v : varies[i].values) numeric = numeric && number(v).has_value();
    if (!numeric) continue;
    if (varies[i].key == "system.devices") return i;
    if (!first) first = i;
  }
  return first;
}

// The records in lines: one per combination of the keys other than `x`, in sweep order.
std::vector<std::pair<std::string, std::vector<const plan::PointRecord*>>> lines(
    const std::map<size_t, plan::PointRecord>& records, std::optional<size_t> x) {
  std::vector<std::pair<std::string, std::vector<const plan::PointRecord*>>> out;
  for (const auto& [i, r] : records) {
    std::string title;
    for (size_t k = 0; k < r.point.values.size(); ++k)
      if (!x || k != *x) title += (title.empty() ? "" : " ") + r.point.values[k].first + "=" + r.point.values[k].second;
    if (title.empty()) title = "predicted";
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& l) { return l.first == title; });
    if (it == out.end()) {
      if (out.size() == kMostLines) continue;
      out.push_back({title, {}});
      it = out.end() - 1;
    }
    it->second.push_back(&r);
  }
  return out;
}

Series series(const std::string& title, const std::vector<const plan::PointRecord*>& points,
              const std::function<std::optional<double>(const plan::PointRecord&)>& x,
              const std::function<std::optional<double>(const plan::PointRecord&)>& y, const std::string& style) {
  Series s{title, {}, style};
  for (const auto* r : points)
    if (auto a = x(*r), b = y(*r); a && b) s.points.push_back({*a, *b});
  return s;
}

bool any(const std::vector<Series>& series) {
  for (const auto& s : series)
    if (!s.points.empty()) return true;
  return false;
}

}  // namespace

std::vector<Plot> sweep_plots(const std::vector<plan::Vary>& varies, const std::map<size_t, plan::PointRecord>& records) {
  std::vector<Plot> plots;
  const auto x = x_axis(varies);
  const auto grouped = lines(records, x);
  auto m = [](const char* key) { return [key](const plan::PointRecord& r) { return metric(r, key); }; };
  auto percent = [](const char* key) {
    return [key](const plan::PointRecord& r) {
      const auto v = metric(r, key);
      return v ? std::optional<double>(100 * *v) : std::nullopt;
    };
  };
  if (x) {
    const std::string key = varies[*x].key;
    const bool devices = key == "system.devices";
    auto x_value = [i = *x](const plan::PointRecord& r) { return number(r.point.values[i].second); };
    Plot p{"throughput", "Throughput against " + key, key, "images/s", devices, {}};
    for (size_t i = 0; i < grouped.size(); ++i) {
      const auto& [title, points] = grouped[i];
      p.series.push_back(series(title, points, x_value, m("throughput_images_per_s"), "linespoints"));
      p.series.back().color = static_cast<int>(i) + 1;
      const auto measured = p.series.back().points;
      if (devices && measured.size() > 1) {
        Series ideal{"ideal: " + title, {}, "lines dashtype 2", static_cast<int>(i) + 1};
        for (const auto& [d, t] : measured) ideal.points.push_back({d, measured.front().second * d / measured.front().first});
        p.series.push_back(ideal);
      }
    }
    if (any(p.series)) plots.push_back(p);
    if (devices) {
      Plot e{"scaling_efficiency", "Scaling efficiency", key, "% of one device's kernels alone", true, {}};
      for (const auto& [title, points] : grouped)
        e.series.push_back(series(title, points, x_value, percent("scaling_efficiency"), "linespoints"));
      if (any(e.series)) plots.push_back(e);
    }
  }
  Plot l{"latency_throughput", "Latency against throughput", "images/s", "p99 latency (ms)", false, {}};
  for (const auto& [title, points] : grouped)
    l.series.push_back(series(title, points, m("throughput_images_per_s"), m("latency_ms.p99"), "linespoints"));
  if (any(l.series)) plots.push_back(l);
  Plot c{"cost_time", "A training job's cost against its billed time", "billed time (hours)", "USD", false, {}};
  auto hours = [](const plan::PointRecord& r) {
    const auto s = metric(r, "cost.job.t_sum_s");
    return s ? std::optional<double>(*s / 3600) : std::nullopt;
  };
  for (const auto& [title, points] : grouped) c.series.push_back(series(title, points, hours, m("cost.job.usd"), "points pointsize 1.5"));
  if (any(c.series)) plots.push_back(c);
  return plots;
}

}  // namespace dlsim::report
