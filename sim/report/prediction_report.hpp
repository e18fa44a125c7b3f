#pragma once
// The prediction part of `dlsim run`'s report (DESIGN.md's keys): training gives
// throughput_images_per_s and step_time_s, inference throughput_images_per_s and
// latency_ms; both give a P10/P50/P90 band and provenance.
#include <string>

#include <nlohmann/json.hpp>

#include "report/prediction.hpp"

namespace dlsim::report {

// Adds the prediction's keys to a run report.
void add_prediction(nlohmann::ordered_json& out, const Prediction& prediction, int64_t batch);
// The same as table lines.
std::string prediction_table(const nlohmann::ordered_json& run);

}  // namespace dlsim::report
