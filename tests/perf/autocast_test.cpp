// Autocast's casts in a GPU plan: one per weight tensor of each convolution and fully
// connected layer, and one for the input batch, each priced by the GPU's roofline.
#include <gtest/gtest.h>

#include "graph/zoo.hpp"
#include "perf/autocast.hpp"
#include "perf/features.hpp"
#include "perf/gpu_roofline.hpp"
#include "signature.hpp"
#include "support/plan_calls.hpp"

namespace dlsim::perf {
namespace {

const GpuRates gpu{"gpu", 10, 10e12, 20e12, 0, 0, 500e9};

KernelTimes roofline_times() {
  static const Profile empty;
  LookupOptions options;
  options.gpu = GpuTarget{gpu, gpu};
  options.allow_fallback = true;
  return KernelTimes(empty, options);
}

TEST(Autocast, ACastReadsFp32AndWritesFp16) {
  const auto cast = kernels::parse_signature(cast_signature(1, 1000));
  EXPECT_DOUBLE_EQ(kernel_features(cast, "fwd").bytes, 6000.0);
  EXPECT_DOUBLE_EQ(elements_written(cast), 1000.0);
}

TEST(Autocast, CastsTheInputOnceAndEveryWeightBeforeItsLayer) {
  const auto g = graph::zoo_model("resnet50");
  StepPlan plan;
  for (const auto& node : g.nodes()) plan.calls.push_back(testing::call(Stage::forward, 1e-6, node.name));
  plan.calls.push_back(testing::call(Stage::backward, 1e-6, "fc", "bwd_data"));
  const size_t before = plan.calls.size();
  add_autocast_casts(plan, g, 8, roofline_times());
  // 53 convolutions without bias, the classifier's weight and bias, the input.
  ASSERT_EQ(plan.calls.size() - before, 53u + 2u + 1u);
  EXPECT_EQ(plan.calls[1].signature, "cast fp16 n8 e150528");  // 3x224x224 per image
  EXPECT_EQ(plan.calls[2].signature, "cast fp16 n1 e9408");    // conv1: 64x3x7x7
  EXPECT_EQ(plan.calls[3].layer, "conv1");
  EXPECT_EQ(plan.calls[3].signature, "sig");
  EXPECT_EQ(plan.calls[2].answer.source, Source::fallback);
  EXPECT_NEAR(plan.calls[2].answer.seconds,
              gpu_roofline(kernels::parse_signature("cast fp16 n1 e9408"), "fwd", gpu).seconds(), 1e-15);
  int in_backward = 0;
  for (const auto& call : plan.calls)
    if (call.signature.rfind("cast", 0) == 0 && call.stage != Stage::forward) ++in_backward;
  EXPECT_EQ(in_backward, 0);
}

}  // namespace
}  // namespace dlsim::perf
