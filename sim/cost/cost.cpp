#include "cost/cost.hpp"

#include <algorithm>
#include <cmath>

namespace dlsim::cost {

double JobTimes::sum() const {
  double s = 0;
  for (const auto& [name, t] : terms()) s += t;
  return s;
}

std::vector<std::pair<std::string, double>> JobTimes::terms() const {
  return {{"startup", startup_s}, {"install", install_s}, {"data_load", data_load_s}, {"start", start_s},
          {"learn", learn_s},     {"verify", verify_s},   {"save_data", save_data_s}, {"poweroff", poweroff_s}};
}

double billed_seconds(double seconds, const hardware::BillingRule& rule) {
  double billed = seconds;
  if (rule.granularity_s > 0) {
    // A whole number of steps, forgiving the rounding error of the sum that fed it.
    const double steps = std::ceil(seconds / rule.granularity_s - 1e-9);
    billed = steps * rule.granularity_s;
  }
  return std::max(billed, rule.minimum_s);
}

JobCost training_cost(const JobTimes& times, int epochs, double usd_per_hour, const hardware::BillingRule& rule) {
  JobCost c;
  c.times = times;
  c.billed_s = billed_seconds(times.sum(), rule);
  c.usd_per_hour = usd_per_hour;
  c.usd = c.billed_s / 3600 * usd_per_hour;
  c.usd_per_epoch = epochs > 0 ? times.learn_s / epochs / 3600 * usd_per_hour : 0;
  c.billing = rule.name;
  return c;
}

double usd_per_million_images(double images_per_s, double usd_per_hour) {
  return images_per_s > 0 ? usd_per_hour / (images_per_s * 3600) * 1e6 : 0;
}

}  // namespace dlsim::cost
