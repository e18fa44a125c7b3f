// Study C's findings about ring all-reduce (../shared/SEEDS.md), from dlsim's predictions
// for 1 to 16 K80s of a p2.16xlarge.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/run_command.hpp"

namespace {

nlohmann::json predict(const std::string& model, int gpus) {
  const auto r = dlsim::testing::run_command(
      DLSIM_BINARY,
      {"run", DLSIM_SOURCE_DIR "/scenarios/study_c_allreduce.toml", "--set", "workload.model=" + model, "--set",
       "system.devices=" + std::to_string(gpus), "--set",
       std::string("training.strategy=") + (gpus == 1 ? "single" : "allreduce"), "--format", "json"},
      false);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return nlohmann::json::parse(r.output);
}

// "Ring all-reduce scales ... nearly linearly for the lighter ones": ResNet-50, ResNet-152
// and Inception-v4 keep at least 90% efficiency up to 16 GPUs, and every doubling adds
// throughput.
TEST(StudyC, RingAllreduceScalesNearlyLinearlyForTheLighterModels) {
  for (const char* model : {"resnet50", "resnet152", "inception_v4"}) {
    double previous = 0;
    for (int gpus : {1, 2, 4, 8, 16}) {
      const auto j = predict(model, gpus);
      const double throughput = j["throughput_images_per_s"].get<double>();
      EXPECT_GT(throughput, 1.8 * previous) << model << " on " << gpus;
      EXPECT_GE(j["scaling_efficiency"].get<double>(), 0.9) << model << " on " << gpus;
      previous = throughput;
    }
  }
}

}  // namespace
