#include "plan/front.hpp"

#include <algorithm>
#include <limits>

namespace dlsim::plan {

double metric(const PointRecord& r, const std::string& key) {
  const auto it = r.metrics.find(key);
  return it == r.metrics.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
}

Axes axes_of(const PointRecord& r) {
  if (r.metrics.count("cost.job.usd")) return Axes::job;
  return r.metrics.count("offered_images_per_s") ? Axes::open_loop : Axes::throughput;
}

double time_of(const PointRecord& r) {
  switch (axes_of(r)) {
    case Axes::job: return metric(r, "cost.job.t_sum_s");
    case Axes::open_loop: return metric(r, "latency_ms.p99") / 1e3;
    case Axes::throughput: break;
  }
  return -metric(r, "throughput_images_per_s");
}

double cost_of(const PointRecord& r) {
  switch (axes_of(r)) {
    case Axes::job: return metric(r, "cost.job.usd");
    case Axes::open_loop: return metric(r, "cost.usd_per_hour");
    case Axes::throughput: break;
  }
  return metric(r, "cost.usd_per_million_images");
}

std::vector<const PointRecord*> pareto_front(const std::vector<const PointRecord*>& points) {
  std::vector<const PointRecord*> front;
  for (const auto* a : points) {
    bool dominated = false;
    for (const auto* b : points)
      dominated = dominated || (b != a && time_of(*b) <= time_of(*a) && cost_of(*b) <= cost_of(*a) &&
                                (time_of(*b) < time_of(*a) || cost_of(*b) < cost_of(*a)));
    if (!dominated) front.push_back(a);
  }
  std::stable_sort(front.begin(), front.end(), [](auto* x, auto* y) { return time_of(*x) < time_of(*y); });
  return front;
}

}  // namespace dlsim::plan
