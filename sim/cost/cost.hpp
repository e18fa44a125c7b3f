#pragma once
// What a run costs on rented machines.  A training job is billed for (study B)
//   t_sum = t_startup + t_install + t_data_load + t_start + t_learn + t_verify + t_save_data + t_poweroff
// rounded up to the provider's billing step and at least its minimum, at the instance's
// hourly price times the nodes.  Serving is priced per hour and per million images.
#include <string>
#include <utility>
#include <vector>

#include "hardware/catalog.hpp"

namespace dlsim::cost {

struct JobTimes {
  double startup_s = 0;    // booting the instance
  double install_s = 0;    // software, drivers, container images
  double data_load_s = 0;  // copying and preparing the data
  double start_s = 0;      // starting the framework or container
  double learn_s = 0;      // training: the simulation's
  double verify_s = 0;     // testing the trained model
  double save_data_s = 0;  // saving weights and results
  double poweroff_s = 0;
  double sum() const;
  std::vector<std::pair<std::string, double>> terms() const;  // ("startup", s), ... in t_sum's order
};

// Rounded up to a multiple of the rule's granularity, and at least its minimum.
double billed_seconds(double seconds, const hardware::BillingRule& rule);

struct JobCost {
  JobTimes times;
  double billed_s = 0;
  double usd = 0;            // the job
  double usd_per_epoch = 0;  // learning alone, unrounded: what one more epoch adds
  double usd_per_hour = 0;   // every node together
  std::string billing;       // the rule's name
};

JobCost training_cost(const JobTimes& times, int epochs, double usd_per_hour, const hardware::BillingRule& rule);

// Serving at `images_per_s` on machines costing `usd_per_hour` in all.
double usd_per_million_images(double images_per_s, double usd_per_hour);

}  // namespace dlsim::cost
