#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "graph/zoo.hpp"
#include "perf/handler_buffers.hpp"
#include "perf/step_allocations.hpp"

namespace dlsim::perf {
namespace {

constexpr int64_t kImage = 224 * 224 * 3 * 4;  // one fp32 image, 602,112 bytes

std::vector<int64_t> resnet50() { return parameter_tensor_bytes(graph::zoo_model("resnet50")); }

// Measured on the lent H100's host (validation/data/serving_gpu_h100_1641_latencies.jsonl):
// Python's HTTP server at batch 32 faulted 4,672 pages reading each request and 4,704
// copying it, every request.
TEST(HandlerBuffers, HttpAtBatch32RefaultsBothBuffersEveryRequest) {
  const HandlerFreshPages fresh = handler_fresh_pages(resnet50(), 32 * kImage, true);
  EXPECT_NEAR(static_cast<double>(fresh.read), 4672.0, 32.0);
  EXPECT_NEAR(static_cast<double>(fresh.copy), 4704.0, 32.0);
}

// At batch 8 (4.8 MB) both buffers fit under the trim threshold the model's 9.4 MB weights
// set: none faulted there.
TEST(HandlerBuffers, HttpAtBatch8StaysWarm) {
  const HandlerFreshPages fresh = handler_fresh_pages(resnet50(), 8 * kImage, true);
  EXPECT_EQ(fresh.read, 0);
  EXPECT_EQ(fresh.copy, 0);
}

// gRPC's bytes come from its poller's thread: each arena holds one buffer, under its trim
// threshold (the copy faulted none at batch 32).
TEST(HandlerBuffers, BytesFromAnotherThreadLeaveTheCopyWarm) {
  const HandlerFreshPages fresh = handler_fresh_pages(resnet50(), 32 * kImage, false);
  EXPECT_EQ(fresh.read, 0);
  EXPECT_EQ(fresh.copy, 0);
}

// Without the model's weights to raise the threshold, a 4.8 MB request is mapped afresh
// every time (the threshold rises to it, but two buffers then trim); over the 32 MiB cap
// every request is mapped whatever came before.
TEST(HandlerBuffers, TheModelsWeightsDecideWhichSizesStayWarm) {
  EXPECT_GT(handler_fresh_pages({}, 8 * kImage, true).copy, 0);
  const HandlerFreshPages huge = handler_fresh_pages(resnet50(), 64 * kImage, false);
  EXPECT_EQ(huge.copy, 64 * kImage / 4096);
  EXPECT_THROW(handler_fresh_pages({}, 0, true), std::invalid_argument);
}

TEST(HandlerBuffers, TheLargestParameterTensorIsAThreeByThreeConvolutionsWeights) {
  const auto bytes = resnet50();
  EXPECT_EQ(*std::max_element(bytes.begin(), bytes.end()), int64_t{512} * 512 * 9 * 4);
}

}  // namespace
}  // namespace dlsim::perf
