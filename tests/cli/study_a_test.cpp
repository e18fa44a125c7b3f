// Study A's findings about serving ResNet-50 from a p3.2xlarge (../shared/SEEDS.md), from
// dlsim's predictions for its three deployments (scenarios/study_a/): the application calling
// TensorFlow in its own process; a TensorRT inference server on the same host; the server
// across a 5 Gbit/s network from a t3.2xlarge client.  Every client reads its images from
// files and decodes them unless a test says otherwise.  Host costs (TensorFlow's and
// TensorRT's launches, file decoding, the protocol stacks) are stated or calibrated in the
// scenarios and profiles, not fitted to the study, whose plotted values were lost.
//
// Not reproduced, and so not asserted: GPU utilisation near 50% in-process and 75-80% in
// async gRPC (dlsim predicts 63-83% and 87-97%: the ordering holds, tested below), and the
// async mode's peak memory at 4-4.4 times the synchronous one for long batches (dlsim: 2-3
// times at 32-64 images, 4 times for short ones).
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/run_command.hpp"

namespace {

const int kBatches[] = {1, 2, 4, 8, 16, 32, 64};

// A synchronous client has one request in flight; the asynchronous one keeps the scenario's four.
nlohmann::json predict(const std::string& deployment, int batch, std::vector<std::string> sets = {}) {
  std::vector<std::string> args = {"run", DLSIM_SOURCE_DIR "/scenarios/study_a/" + deployment + ".toml", "--set",
                                   "workload.batch=" + std::to_string(batch), "--format", "json"};
  for (const auto& s : sets) args.insert(args.end(), {"--set", s});
  const auto r = dlsim::testing::run_command(DLSIM_BINARY, args, false);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return nlohmann::json::parse(r.output);
}

nlohmann::json served(const std::string& where, const std::string& protocol, const std::string& mode, int batch,
                      const std::string& input = "files") {
  return predict(where + "_grpc", batch,
                 {"serving.protocol=\"" + protocol + "\"", "serving.mode=\"" + mode + "\"",
                  mode == "sync" ? "serving.concurrency=1" : "serving.concurrency=4",
                  "serving.input=\"" + input + "\""});
}

double images_per_s(const nlohmann::json& j) { return j["throughput_images_per_s"].get<double>(); }

// "Asynchronous modes are the fastest": faster than every synchronous variant and than
// the in-process deployment, at every batch size.
TEST(StudyA, AsyncModesAreTheFastest) {
  for (int b : kBatches) {
    const double in_process = images_per_s(predict("in_process", b));
    for (const char* where : {"local", "remote"})
      for (const char* protocol : {"http", "grpc"}) {
        const double async = images_per_s(served(where, protocol, "async", b));
        EXPECT_GT(async, in_process) << where << " " << protocol << " b" << b;
        for (const char* sync_protocol : {"http", "grpc"})
          EXPECT_GT(async, images_per_s(served(where, sync_protocol, "sync", b))) << where << " " << protocol << " b" << b;
      }
  }
}

// "... and almost independent of protocol": HTTP within 5% of gRPC across the network at
// every batch and on the local host up to 8 images.  Beyond that, locally, dlsim predicts
// HTTP's heavier per-byte cost (cpp-httplib against gRPC, calibration/profiles/protocols)
// showing: 20% slower at 16 images, 31% at 64, which the study did not report.
TEST(StudyA, AsyncModesAreAlmostIndependentOfProtocol) {
  for (int b : kBatches)
    for (const char* where : {"local", "remote"}) {
      if (std::string(where) == "local" && b > 8) continue;
      const double http = images_per_s(served(where, "http", "async", b));
      const double grpc = images_per_s(served(where, "grpc", "async", b));
      EXPECT_NEAR(http / grpc, 1.0, 0.05) << where << " b" << b;
    }
}

// "In synchronous mode every other variant is slower than simple."
TEST(StudyA, InSyncModeEveryServerVariantIsSlowerThanInProcess) {
  for (int b : kBatches) {
    const double in_process = images_per_s(predict("in_process", b));
    for (const char* where : {"local", "remote"})
      for (const char* protocol : {"http", "grpc"})
        EXPECT_LT(images_per_s(served(where, protocol, "sync", b)), in_process) << where << " " << protocol << " b" << b;
  }
}

// "Simple without file loading is exceptionally fast: loading the files is the simple
// architecture's bottleneck": at least 1.3 times faster from 8 images on (the loading
// grows with the batch, the host's fixed costs do not; so does the batch's copy to the
// V100 from the host's memory, which both variants pay; the study's values were lost).
TEST(StudyA, InProcessWithoutFilesIsFarFaster) {
  for (int b : kBatches) {
    const double ratio = images_per_s(predict("in_process", b, {"serving.input=\"tensors\""})) /
                         images_per_s(predict("in_process", b));
    EXPECT_GT(ratio, 1.0) << "b" << b;
    if (b >= 8) {
      EXPECT_GE(ratio, 1.3) << "b" << b;
    }
  }
}

// "Distributed loses to microservice for batches up to about 10 images because of the
// transfer delay."
TEST(StudyA, DistributedIsBelowMicroserviceForSmallBatches) {
  for (int b : {1, 2, 4, 8})
    for (const char* mode : {"sync", "async"})
      EXPECT_LT(images_per_s(served("remote", "grpc", mode, b)), images_per_s(served("local", "grpc", mode, b)))
          << mode << " b" << b;
}

// "NVIDIA's perf client on the same node: 458 images/s, against 410 for the study's async
// gRPC client": the perf client sends tensors it holds and loads no files, yet it is only
// 458/410 = 1.12 times faster, because the asynchronous client loads its next files while
// the server works.  dlsim: within 10% of each other at every batch, the files hiding
// entirely (from 8 images on the client from files even comes out 3-5% faster, not the
// study's direction and not yet explained; its decoding may space out sends that would
// otherwise contend for the host's cores), while the synchronous client, loading as the
// GPU waits, falls to under 60% of the perf client's rate from 8 images on.
TEST(StudyA, TheAsyncClientComesCloseToNvidiasPerfClient) {
  for (int b : kBatches) {
    const double perf_client = images_per_s(served("local", "grpc", "async", b, "tensors"));
    EXPECT_NEAR(images_per_s(served("local", "grpc", "async", b)) / perf_client, 1.0, 0.1) << "b" << b;
    if (b >= 8) {
      EXPECT_LT(images_per_s(served("local", "grpc", "sync", b)) / perf_client, 0.6) << "b" << b;
    }
  }
}

// "Mean GPU utilisation: about 50% for simple, 75-80% for the others in async gRPC": the
// in-process GPU waits while its application loads files; an asynchronous client loads the
// next batch while the GPU works on the last.
TEST(StudyA, TheGpuIsBusierBehindAnAsyncServerThanInProcess) {
  for (int b : kBatches) {
    const double in_process = predict("in_process", b)["gpu_utilization"].get<double>();
    EXPECT_GT(served("local", "grpc", "async", b)["gpu_utilization"].get<double>(), in_process + 0.1) << "b" << b;
  }
}

// "Server memory is the critical resource for async gRPC": the asynchronous client's
// requests wait in the server's memory, the synchronous client's one at a time.
TEST(StudyA, AsyncHoldsMoreRequestsInTheServersMemory) {
  for (int b : kBatches) {
    const auto sync = served("local", "grpc", "sync", b)["server_queue_peak"];
    const auto async = served("local", "grpc", "async", b)["server_queue_peak"];
    EXPECT_EQ(sync["requests"].get<int>(), 1) << "b" << b;
    EXPECT_GE(async["bytes"].get<double>(), 2 * sync["bytes"].get<double>()) << "b" << b;
  }
}

}  // namespace
