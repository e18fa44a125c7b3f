// Charts as gnuplot scripts: the data inline, titles quoted, the ideal-scaling line, and
// only the charts a sweep has data for.
#include <gtest/gtest.h>

#include "plan/sweep_records.hpp"
#include "report/plan_plot.hpp"
#include "report/plot.hpp"
#include "report/sweep_plots.hpp"

namespace dlsim::report {
namespace {

TEST(Plot, TheScriptHoldsItsDataAndQuotesItsTitles) {
  Plot p{"chart", "A \"quoted\" title", "GPUs", "images/s", true, {{"measured", {{1, 10}, {2, 19.5}}, "linespoints", 3}}};
  const std::string script = gnuplot_script(p);
  EXPECT_NE(script.find("set output \"chart.svg\""), std::string::npos) << script;
  EXPECT_NE(script.find("$s0 << EOD\n1 10\n2 19.5\nEOD\n"), std::string::npos) << script;
  EXPECT_NE(script.find("set title \"A \\\"quoted\\\" title\""), std::string::npos) << script;
  EXPECT_NE(script.find("set logscale x 2"), std::string::npos);
  EXPECT_NE(script.find("with linespoints linecolor 3 title \"measured\""), std::string::npos) << script;
}

plan::PointRecord record(size_t index, const std::string& model, int devices, double images_per_s, double efficiency) {
  return {{index, {{"workload.model", model}, {"system.devices", std::to_string(devices)}}},
          0,
          "",
          {{"throughput_images_per_s", images_per_s}, {"scaling_efficiency", efficiency}}};
}

TEST(SweepPlots, GpuCountsGetThroughputWithIdealScalingAndEfficiency) {
  const std::vector<plan::Vary> varies{{"workload.model", {"a", "b"}}, {"system.devices", {"2", "4"}}};
  std::map<size_t, plan::PointRecord> records{{0, record(0, "a", 2, 100, 1.0)},
                                              {1, record(1, "a", 4, 150, 0.75)},
                                              {2, record(2, "b", 2, 50, 1.0)},
                                              {3, plan::PointRecord{{3, {{"workload.model", "b"}, {"system.devices", "4"}}}, 3, "no", {}}}};
  const auto plots = sweep_plots(varies, records);
  ASSERT_EQ(plots.size(), 2u);  // no latency, no job cost
  EXPECT_EQ(plots[0].name, "throughput");
  EXPECT_TRUE(plots[0].log_x);
  // a: measured and ideal (100 at 2 GPUs -> 200 at 4); b: one point, no ideal line.
  ASSERT_EQ(plots[0].series.size(), 3u);
  EXPECT_EQ(plots[0].series[0].title, "workload.model=a");
  EXPECT_EQ(plots[0].series[1].title, "ideal: workload.model=a");
  EXPECT_EQ(plots[0].series[1].points.back(), (std::pair<double, double>{4, 200}));
  EXPECT_EQ(plots[0].series[1].color, plots[0].series[0].color);
  EXPECT_EQ(plots[0].series[2].points.size(), 1u);  // the failed point is left out
  EXPECT_EQ(plots[1].name, "scaling_efficiency");
  EXPECT_EQ(plots[1].series[0].points.back(), (std::pair<double, double>{4, 75}));
}

TEST(SweepPlots, ServingGetsLatencyAgainstThroughput) {
  const std::vector<plan::Vary> varies{{"serving.mode", {"sync"}}};
  std::map<size_t, plan::PointRecord> records{
      {0, {{0, {{"serving.mode", "sync"}}}, 0, "", {{"throughput_images_per_s", 900}, {"latency_ms.p99", 12}}}}};
  const auto plots = sweep_plots(varies, records);
  ASSERT_EQ(plots.size(), 1u);
  EXPECT_EQ(plots[0].name, "latency_throughput");
  EXPECT_EQ(plots[0].series[0].points.front(), (std::pair<double, double>{900, 12}));
}

TEST(PlanPlot, AJobIsDrawnInHoursAndDollarsWithItsFront) {
  const plan::PointRecord fast{{0, {}}, 0, "", {{"cost.job.t_sum_s", 3600}, {"cost.job.usd", 20}}};
  const plan::PointRecord cheap{{1, {}}, 0, "", {{"cost.job.t_sum_s", 7200}, {"cost.job.usd", 10}}};
  const plan::PointRecord worse{{2, {}}, 0, "", {{"cost.job.t_sum_s", 7200}, {"cost.job.usd", 30}}};
  const Plot p = plan_plot({&fast, &cheap, &worse}, &cheap);
  EXPECT_EQ(p.x_label, "billed time (hours)");
  ASSERT_EQ(p.series.size(), 3u);
  EXPECT_EQ(p.series[0].points.size(), 3u);
  EXPECT_EQ(p.series[1].points, (std::vector<std::pair<double, double>>{{1, 20}, {2, 10}}));
  EXPECT_EQ(p.series[2].points, (std::vector<std::pair<double, double>>{{2, 10}}));
}

}  // namespace
}  // namespace dlsim::report
