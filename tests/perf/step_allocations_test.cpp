#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "graph/onnx_import.hpp"
#include "graph/zoo.hpp"
#include "perf/step_allocations.hpp"

namespace dlsim::perf {
namespace {

graph::Graph tiny() {
  graph::Graph g("tiny");
  auto x = g.input("x", {16});
  x = g.relu("fc1.relu", g.linear("fc1", x, 32));
  g.softmax_cross_entropy("loss", g.linear("fc2", x, 10));
  return g;
}

// Every tensor of a small dense net is far below the 64 KiB that can trim glibc's heap.
TEST(StepAllocations, ASmallNetFaultsNothingOnceWarm) {
  EXPECT_EQ(training_page_faults(tiny(), 32, "adam").total(), 0);
}

// Study B's MNIST net at batch 32 frees 2.8-4.7 MB activations: its heap is trimmed and
// regrown every step.  Measured with PyTorch 1.13 on the Zen 5 VM (validation/data/README.md):
// 4,544 pages per step more than with trimming switched off; the model gives 4,100.
TEST(StepAllocations, TheMnistNetRefaultsItsActivationsEveryStep) {
  const auto faults = training_page_faults(graph::zoo_model("keras_mnist"), 32, "adam");
  EXPECT_GT(faults.forward, 0);
  EXPECT_GT(faults.backward, 0);
  EXPECT_NEAR(static_cast<double>(faults.total()), 4544.0, 0.25 * 4544.0);
}

// A fresh process serving inference alone trims its heap too.  Measured with getrusage
// over 10 no-grad passes after 3, PyTorch 1.13 on the Zen 5 VM, each in a new process:
// the MNIST net at batch 32 2,948 pages a pass (the model: 3,354), ResNet-50 at batch 4
// 26,562 (27,360).  ResNet-18 at batch 8 measured 15,805-16,902 and the model gives 12,517.
// MobileNet-v2 at batch 8 on two threads 62,268-72,964 in five processes (the model: 62,726),
// four of them 36.75 MiB mappings (strace); on one thread 35,251, since PyTorch then runs
// its unstrided 1x1 convolutions at batches under 16 without oneDNN's blocked buffers.
TEST(StepAllocations, AnInferenceProcessRefaultsItsActivationsEveryPass) {
  EXPECT_NEAR(static_cast<double>(inference_page_faults(graph::zoo_model("keras_mnist"), 32)), 2948.0, 0.2 * 2948.0);
  EXPECT_NEAR(static_cast<double>(inference_page_faults(graph::zoo_model("resnet50"), 4)), 26562.0, 0.1 * 26562.0);
  EXPECT_NEAR(static_cast<double>(inference_page_faults(graph::zoo_model("mobilenet_v2"), 8)), 67000.0, 0.1 * 67000.0);
  EXPECT_EQ(inference_page_faults(tiny(), 32), 0);
}

TEST(StepAllocations, IsDeterministicAndRejectsUnknownOptimizers) {
  const auto g = graph::zoo_model("resnet18");
  EXPECT_EQ(training_page_faults(g, 8, "sgd_momentum").total(), training_page_faults(g, 8, "sgd_momentum").total());
  EXPECT_THROW(training_page_faults(g, 8, "lamb"), std::invalid_argument);
}

TEST(StepAllocations, TheReferenceSignatureNamesPagesOfFp32) {
  EXPECT_EQ(first_touch_signature(kFirstTouchPages), "first_touch fp32 n32768 e1024");
}

// A served network: the zoo's, or else its training-mode ONNX export, as the campaigns'
// case files name the networks the zoo lacks.
graph::Graph served_network(const std::string& name) {
  if (auto zoo = graph::find_zoo_model(name)) return *zoo;
  return graph::import_onnx_file(DLSIM_SOURCE_DIR "/validation/oracle/onnx/" + name + "_train.onnx");
}

// kServedPassFaultSpread is what the CPU serving campaigns counted: for every one-thread
// deployment whose pass the model gives at least 1,000 pages, the request thread's faults
// in its locked phase (the pass), median over the last three quarters of its requests,
// over the model's count; the tenths of those ratios.  Passes the model gives fewer pages
// faulted none on the Zen 4 and Zen 5 (171 deployments, at batch 1); those that faulted
// some are on the Zen 3 Milan: ShuffleNetV2's (13 of 187 by 2026-11-29 21:52), whose passes
// the model misses (step_allocations.hpp), and MobileNetV3-Small's at batch 1 (2026-11-30
// 04:09), 532 and 1,186 pages in process and over HTTP against the model's 501, and
// ShuffleNetV2 1.5x's and 2.0x's on the Granite Rapids (2026-12-01 02:57 and 05:39),
// 147-484 and 1,126-1,930 pages served at batch 1 and 4,410-5,490 and 3,137-9,168 at batch 8,
// and RegNetY-3.2GF's at batch 1 there (08:45), 1,979-4,613 pages where the model counts none;
// any other network's fails this.  The repeats of 21:36 measure three of the 19:48 campaign's
// configurations three times more: left out, so that no deployment weighs four times (with
// them the P90 is 1.67, VGG-19's one-thread passes 1.74-2.0 times).
TEST(StepAllocations, TheServedSpreadIsTheCampaignsTenths) {
  std::map<std::pair<std::string, int64_t>, int64_t> model;
  std::vector<double> ratios;
  int none_faulted = 0, small = 0;
  std::set<std::string> small_that_faulted;
  for (const auto& file : std::filesystem::directory_iterator(DLSIM_VALIDATION_DATA)) {
    const std::string name = file.path().filename().string();
    if (name.rfind("serving_latencies_devbox_", 0) != 0 || file.path().extension() != ".jsonl") continue;
    if (name.find("_repeats_") != std::string::npos) continue;
    std::ifstream in(file.path());
    for (std::string line; std::getline(in, line);) {
      const auto row = nlohmann::json::parse(line);
      if (row.at("server_threads") != 1 || !row.contains("page_faults") || !row["page_faults"].contains("locked"))
        continue;
      auto counts = row["page_faults"]["locked"].get<std::vector<double>>();
      counts.erase(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(counts.size() / 4));
      std::sort(counts.begin(), counts.end());
      const double served = counts.at(counts.size() / 2);
      const std::pair key{row.at("model").get<std::string>(), row.at("batch").get<int64_t>()};
      if (!model.count(key)) model[key] = inference_page_faults(served_network(key.first), key.second);
      if (model[key] < 1000) {
        ++small;
        if (served == 0)
          ++none_faulted;
        else
          small_that_faulted.insert(key.first);
        continue;
      }
      ratios.push_back(served / static_cast<double>(model[key]));
    }
  }
  ASSERT_GE(ratios.size(), 334u);
  EXPECT_EQ(small_that_faulted,
            (std::set<std::string>{"mobilenet_v3_small", "regnet_y_3_2gf", "shufflenet_v2_x0_5", "shufflenet_v2_x1_0",
                                   "shufflenet_v2_x1_5", "shufflenet_v2_x2_0"}));
  std::sort(ratios.begin(), ratios.end());
  const auto tenth = [&](double q) {
    return ratios.at(static_cast<size_t>(std::lround(q * static_cast<double>(ratios.size() - 1))));
  };
  std::printf("%zu one-thread deployments: P10 %.2f, median %.2f, P90 %.2f of the model's pages; "
              "of %d given fewer, %d faulted any\n",
              ratios.size(), tenth(0.1), tenth(0.5), tenth(0.9), small, small - none_faulted);
  EXPECT_NEAR(tenth(0.1), kServedPassFaultSpread.p10, 0.05);
  EXPECT_NEAR(tenth(0.9), kServedPassFaultSpread.p90, 0.05);
}

}  // namespace
}  // namespace dlsim::perf
