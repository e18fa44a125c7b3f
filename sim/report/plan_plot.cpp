#include "report/plan_plot.hpp"

#include "plan/front.hpp"

namespace dlsim::report {

Plot plan_plot(const std::vector<const plan::PointRecord*>& feasible, const plan::PointRecord* best) {
  Plot p{"pareto", "Configurations meeting the target: time against cost", "", "", false, {}};
  const plan::Axes axes = feasible.empty() ? plan::Axes::throughput : plan::axes_of(*feasible.front());
  double x_scale = 1;  // from plan::time_of's units to the axis's
  switch (axes) {
    case plan::Axes::job:
      p.x_label = "billed time (hours)", p.y_label = "USD per job", x_scale = 1.0 / 3600;
      break;
    case plan::Axes::open_loop:
      p.x_label = "p99 latency (ms)", p.y_label = "USD per hour", x_scale = 1e3;
      break;
    case plan::Axes::throughput:
      p.x_label = "images/s", p.y_label = "USD per million images", x_scale = -1;
      break;
  }
  auto point = [&](const plan::PointRecord* r) { return std::pair{x_scale * plan::time_of(*r), plan::cost_of(*r)}; };
  Series all{"simulated", {}, "points pointtype 6 pointsize 1.2", 8};
  for (const auto* r : feasible) all.points.push_back(point(r));
  Series front{"Pareto front", {}, "linespoints pointtype 7", 1};
  for (const auto* r : plan::pareto_front(feasible)) front.points.push_back(point(r));
  Series answer{"the answer", {}, "points pointtype 5 pointsize 2", 7};
  if (best) answer.points.push_back(point(best));
  p.series = {all, front, answer};
  return p;
}

}  // namespace dlsim::report
