#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "graph/kernel_signature.hpp"
#include "graph/zoo.hpp"
#include "perf/step_allocations.hpp"
#include "perf/step_plan.hpp"

namespace dlsim::perf {
namespace {

// A profile that answers every kernel: one "fallback" roofline, so that the plan's shape
// is what is tested here.
KernelTimes any_kernel(const Profile& empty) {
  LookupOptions o;
  o.allow_fallback = true;
  o.fallback_flops_per_s = 1e10;
  o.fallback_bytes_per_s = 1e10;
  return KernelTimes(empty, o);
}

size_t count(const StepPlan& plan, const std::string& phase, const std::string& op = "") {
  return static_cast<size_t>(std::count_if(plan.calls.begin(), plan.calls.end(), [&](const KernelCall& c) {
    return c.phase == phase && c.signature.rfind(op, 0) == 0;
  }));
}

TEST(StepPlan, LinearLayersRunOnBlasAndTheFirstLayerHasNoDataGradient) {
  const Profile empty;
  const auto times = any_kernel(empty);
  const auto g = graph::zoo_model("keras_mnist");
  FrameworkRules rules;
  rules.conv_layout = "plain";
  const StepPlan plan = training_plan(g, 32, "adam", 1, times, rules);
  EXPECT_EQ(count(plan, "blas_fwd"), 2u);          // two Dense layers
  EXPECT_EQ(count(plan, "blas_bwd_weights"), 2u);
  EXPECT_EQ(count(plan, "plain_bwd_weights"), 2u);  // two convolutions on oneDNN, NCHW as PyTorch hands them
  EXPECT_EQ(count(plan, "plain_bwd_data"), 1u);     // conv1 reads the input: no data gradient
  EXPECT_EQ(count(plan, "bwd_data"), 3u + 1u + 2u + 1u);  // relu x3, maxpool, dropout x2, loss
  EXPECT_EQ(plan.calls.back().signature, "adam fp32 p1199882 t8 max1179648");  // 4 weights, 4 biases; dense1 the largest
  EXPECT_EQ(plan.calls.back().stage, Stage::update);
}

TEST(StepPlan, InferenceRunsTheEvalForwardWhereTheProfileTimedIt) {
  // A profile that fits batch norm's inference forward and convolutions' training forward:
  // inference asks batch norm for "infer", convolutions for "fwd" (the forward it has), and
  // every operator the profile never timed for "infer" (the roofline prices an eval
  // forward); training never asks "infer".
  Profile profile;
  profile.fits.push_back({"batch_norm", "fp32", "infer", 1, {"one"}, {1e-6}, 0, 3});
  profile.fits.push_back({"conv2d", "fp32", "fwd", 1, {"one"}, {1e-6}, 0, 3});
  const auto times = any_kernel(profile);
  FrameworkRules rules;
  rules.kernels_from = "framework";
  const auto g = graph::zoo_model("resnet18");
  const StepPlan infer = inference_plan(g, 8, 1, times, rules);
  EXPECT_EQ(count(infer, "infer", "batch_norm"), 20u);  // ResNet-18's batch norms
  EXPECT_EQ(count(infer, "fwd"), 20u);                  // its convolutions, and nothing else
  EXPECT_EQ(count(infer, "fwd", "conv2d"), 20u);
  EXPECT_EQ(count(infer, "infer") + count(infer, "fwd"), infer.calls.size());
  EXPECT_EQ(count(training_plan(g, 8, "sgd_momentum", 1, times, rules), "infer"), 0u);
}

TEST(StepPlan, AGpuProfileTimedInTrainingRunsBatchNormsEvalForward) {
  // Training-mode timings only (dlsim-gpu-bench's default): on a GPU, inference asks batch
  // norm, whose eval forward reads less, for "infer" (carried from "fwd" by KernelTimes) and
  // the convolutions, whose eval forward is their forward, for "fwd"; on a CPU, "fwd" both.
  Profile profile;
  profile.fits.push_back({"batch_norm", "fp32", "fwd", 1, {"one"}, {1e-6}, 0, 3});
  profile.fits.push_back({"conv2d", "fp32", "fwd", 1, {"one"}, {1e-6}, 0, 3});
  FrameworkRules rules;
  rules.kernels_from = "cudnn";
  const auto g = graph::zoo_model("resnet18");
  LookupOptions on_gpu;
  on_gpu.allow_fallback = true;
  on_gpu.gpu = GpuTarget{{"g", 10, 10e12, 20e12, 0, 0, 500e9}, {"g", 10, 10e12, 20e12, 0, 0, 500e9}};
  const StepPlan gpu = inference_plan(g, 8, 1, KernelTimes(profile, on_gpu), rules);
  EXPECT_EQ(count(gpu, "infer", "batch_norm"), 20u);
  EXPECT_EQ(count(gpu, "fwd", "conv2d"), 20u);
  const StepPlan cpu = inference_plan(g, 8, 1, any_kernel(profile), rules);
  EXPECT_EQ(count(cpu, "fwd", "batch_norm"), 20u);
}

// ResNet-18's inference pass at batch 8 on `threads`, where `where` says, priced from
// `profile` (anything it lacks by the roofline).
StepPlan resnet18_pass(const Profile& profile, int threads, PassThreads where) {
  FrameworkRules rules;
  rules.kernels_from = "framework";
  return inference_plan(graph::zoo_model("resnet18"), 8, threads, any_kernel(profile), rules,
                        graph::DataType::fp32, where);
}
constexpr auto kAlone = PassThreads::own_cores;
constexpr auto kCrowded = PassThreads::one_request_thread;
constexpr auto kTurns = PassThreads::taking_turns;

TEST(StepPlan, AnOversubscribedPassRunsTheForwardTimedSoOnMoreThanOneThread) {
  // Batch norm timed as a request thread calls it beside another team (and plainly),
  // convolutions plainly: a crowded server's forward on two threads asks batch norm for
  // "infer_thread"; on one thread, or with its team alone, for "infer".
  Profile profile;
  profile.fits.push_back({"batch_norm", "fp32", "infer", 1, {"one"}, {1e-6}, 0, 3});
  profile.fits.push_back({"batch_norm", "fp32", kInferOnRequestThread, 1, {"one"}, {2e-6}, 0, 3});
  profile.fits.push_back({"conv2d", "fp32", "infer", 1, {"one"}, {1e-6}, 0, 3});
  const StepPlan served = resnet18_pass(profile, 2, kCrowded);
  EXPECT_EQ(count(served, kInferOnRequestThread), 20u);  // the batch norms
  EXPECT_EQ(count(served, kInferOnRequestThread, "batch_norm"), 20u);
  EXPECT_EQ(count(served, "infer", "conv2d"), 20u);
  EXPECT_EQ(count(resnet18_pass(profile, 1, kCrowded), kInferOnRequestThread), 0u);
  EXPECT_EQ(count(resnet18_pass(profile, 2, kAlone), kInferOnRequestThread), 0u);
}

TEST(StepPlan, APassRunsTheForwardTimedInsidePassesWhereTheProfileHasIt) {
  // Convolutions timed inside whole passes, on the main thread and on a request thread, as
  // well as each in a loop; batch norm in loops only.  A pass asks the convolutions for the
  // in-pass phase of its thread (the request thread's only where it is crowded, on more
  // than one thread) and batch norm for its loop-timed phases as before.
  Profile profile;
  for (const char* phase : {"infer", kInferOnRequestThread, kInferInPass, kInferInPassOnRequestThread})
    profile.fits.push_back({"conv2d", "fp32", phase, 1, {"one"}, {1e-6}, 0, 3});
  for (const char* phase : {"infer", kInferOnRequestThread})
    profile.fits.push_back({"batch_norm", "fp32", phase, 1, {"one"}, {1e-6}, 0, 3});
  const StepPlan alone = resnet18_pass(profile, 2, kAlone);
  EXPECT_EQ(count(alone, kInferInPass, "conv2d"), 20u);
  EXPECT_EQ(count(alone, kInferInPass), 20u);
  EXPECT_EQ(count(alone, "infer", "batch_norm"), 20u);
  const StepPlan crowded = resnet18_pass(profile, 2, kCrowded);
  EXPECT_EQ(count(crowded, kInferInPassOnRequestThread, "conv2d"), 20u);
  EXPECT_EQ(count(crowded, kInferOnRequestThread, "batch_norm"), 20u);
  EXPECT_EQ(count(crowded, kInferInPass), 0u);
  EXPECT_EQ(count(resnet18_pass(profile, 1, kCrowded), kInferInPass, "conv2d"), 20u);
  // Passes taking turns on request threads ask for the phase timed so where the profile
  // has it, and otherwise for one request thread's.
  EXPECT_EQ(count(resnet18_pass(profile, 2, kTurns), kInferInPassOnRequestThread, "conv2d"), 20u);
  profile.fits.push_back({"conv2d", "fp32", kInferInPassTakingTurns, 1, {"one"}, {1e-6}, 0, 3});
  const StepPlan turns = resnet18_pass(profile, 2, kTurns);
  EXPECT_EQ(count(turns, kInferInPassTakingTurns, "conv2d"), 20u);
  EXPECT_EQ(count(turns, kInferOnRequestThread, "batch_norm"), 20u);
  EXPECT_EQ(count(resnet18_pass(profile, 2, kCrowded), kInferInPassTakingTurns), 0u);
  EXPECT_EQ(count(resnet18_pass(profile, 1, kTurns), kInferInPass, "conv2d"), 20u);
}

// A profile that timed the team wake-up on two threads: 160 us after idle, 100 idle, 28
// back to back, so 32 us a wake; a crowded server's pass on two threads pays one per operator
// (ResNet-18 at batch 8: 68 operators), the caller's CPU spinning through them; a pass on
// one thread or with its team alone pays none.
TEST(StepPlan, BesideOtherTeamsEveryOperatorWakesItsTeam) {
  Profile profile;
  const std::string wake = team_wake_signature();
  profile.measured[{wake, "after_idle", 2}] = {160e-6, 160e-6, 160e-6, 5, 0};
  profile.measured[{wake, "idle", 2}] = {100e-6, 100e-6, 100e-6, 5, 0};
  profile.measured[{wake, "back_to_back", 2}] = {28e-6, 28e-6, 28e-6, 5, 0};
  profile.fits.push_back({kTeamWakeOp, "fp32", "after_idle", 2, {"one"}, {160e-6}, 0, 1});
  const StepPlan served = resnet18_pass(profile, 2, kCrowded);
  ASSERT_EQ(count(served, "wake"), 1u);
  const auto& wakes = *std::find_if(served.calls.begin(), served.calls.end(), [](const KernelCall& c) {
    return c.phase == "wake";
  });
  const double operators = double(served.calls.size() - 1);
  EXPECT_EQ(operators, 68.0);
  EXPECT_NEAR(wakes.answer.seconds, 32e-6 * operators, 1e-12);
  EXPECT_DOUBLE_EQ(wakes.cpu_s, wakes.answer.seconds);
  EXPECT_EQ(count(resnet18_pass(profile, 2, kAlone), "wake"), 0u);
  EXPECT_EQ(count(resnet18_pass(profile, 1, kCrowded), "wake"), 0u);
  EXPECT_EQ(count(resnet18_pass(Profile{}, 2, kCrowded), "wake"), 0u);
  // Operators timed inside passes taking turns hold their wakes: the other 48 pay one each.
  profile.fits.push_back({"conv2d", "fp32", kInferInPassTakingTurns, 2, {"one"}, {1e-6}, 0, 3});
  const StepPlan turns = resnet18_pass(profile, 2, kTurns);
  EXPECT_EQ(count(turns, kInferInPassTakingTurns), 20u);
  const auto& turn_wakes = *std::find_if(turns.calls.begin(), turns.calls.end(), [](const KernelCall& c) {
    return c.phase == "wake";
  });
  EXPECT_NEAR(turn_wakes.answer.seconds, 32e-6 * 48, 1e-12);
}

// Convolutions timed inside passes on the main thread (100 us), on one request thread (300
// us, its team apart) and with the team on the caller's core (`shared` us), and a team wake
// of 32 us.  Of the passes taking turns, a share runs with the team apart, set by the share
// of work the team adds on the caller's core: none, and it is the shared pass, without
// wakes; at least 1 / kApartPerWorkerShare, and it is the apart pass, wakes and all;
// between, each operator priced at the mean of its two prices, and what the apart pass
// adds kept.  A profile that never timed the shared core prices the pass as before.
TEST(StepPlan, APassTakingTurnsRunsWithItsTeamOnTheCallersCoreOrApart) {
  const auto profile_with = [](double shared) {
    Profile p;
    p.fits.push_back({"conv2d", "fp32", kInferInPass, 2, {"one"}, {100e-6}, 0, 3});
    p.fits.push_back({"conv2d", "fp32", kInferInPassOnRequestThread, 2, {"one"}, {300e-6}, 0, 3});
    if (shared > 0) p.fits.push_back({"conv2d", "fp32", kInferInPassSharedCore, 2, {"one"}, {shared}, 0, 3});
    const std::string wake = team_wake_signature();
    p.measured[{wake, "after_idle", 2}] = {160e-6, 160e-6, 160e-6, 5, 0};
    p.measured[{wake, "idle", 2}] = {100e-6, 100e-6, 100e-6, 5, 0};
    p.measured[{wake, "back_to_back", 2}] = {28e-6, 28e-6, 28e-6, 5, 0};
    p.fits.push_back({kTeamWakeOp, "fp32", "after_idle", 2, {"one"}, {160e-6}, 0, 1});
    return p;
  };
  const auto seconds = [](const StepPlan& plan) { return plan.totals().seconds; };
  const Profile none = profile_with(100e-6);
  EXPECT_NEAR(seconds(resnet18_pass(none, 2, kTurns)), seconds(resnet18_pass(none, 2, PassThreads::shared_core)), 1e-12);
  EXPECT_EQ(count(resnet18_pass(none, 2, kTurns), "wake"), 0u);
  EXPECT_EQ(count(resnet18_pass(none, 2, kTurns), kInferInPassSharedCore, "conv2d"), 20u);

  const Profile busy = profile_with(1e-3);
  EXPECT_NEAR(seconds(resnet18_pass(busy, 2, kTurns)), seconds(resnet18_pass(busy, 2, kCrowded)), 1e-12);
  EXPECT_EQ(count(resnet18_pass(busy, 2, kTurns), "wake"), 1u);

  const Profile some = profile_with(400e-6);
  const double shared = seconds(resnet18_pass(some, 2, PassThreads::shared_core));
  const double apart = seconds(resnet18_pass(some, 2, kCrowded));
  const double main = seconds(resnet18_pass(some, 2, kAlone));
  const double toward = kApartPerWorkerShare * (shared / main - 1);
  ASSERT_GT(toward, 0.05);
  ASSERT_LT(toward, 0.95);
  const StepPlan turns = resnet18_pass(some, 2, kTurns);
  EXPECT_NEAR(seconds(turns), shared + toward * (apart - shared), 1e-9);
  EXPECT_NEAR(turns.apart_share, toward, 1e-12);
  EXPECT_NEAR(turns.totals().apart_beyond_s, apart - shared, 1e-9);
  EXPECT_EQ(resnet18_pass(none, 2, kTurns).apart_share, 0);
  EXPECT_EQ(resnet18_pass(busy, 2, kTurns).apart_share, 1);

  Profile turns_only = profile_with(0);
  turns_only.fits.push_back({"conv2d", "fp32", kInferInPassTakingTurns, 2, {"one"}, {200e-6}, 0, 3});
  EXPECT_EQ(count(resnet18_pass(turns_only, 2, kTurns), kInferInPassTakingTurns, "conv2d"), 20u);
}

TEST(StepPlan, AKernelsCpuTimeIsWhatItsProfileTimedElseItsTimeOnEveryThread) {
  // ResNet-18's first convolution timed with 1.5 core-ms of CPU time in 1 ms on two
  // threads; every other kernel priced by the roofline, its CPU time counted on both.
  Profile profile;
  const auto g = graph::zoo_model("resnet18");
  const std::string conv1 = graph::kernel_signature(g, g.nodes()[1], 8, graph::DataType::fp32);
  profile.measured[{conv1, "fwd", 2}] = {1e-3, 1e-3, 1e-3, 5, 1.5e-3};
  const auto times = any_kernel(profile);
  FrameworkRules rules;
  rules.kernels_from = "framework";
  const StepPlan plan = inference_plan(g, 8, 2, times, rules);
  EXPECT_EQ(std::count_if(plan.calls.begin(), plan.calls.end(), [&](const KernelCall& c) { return c.signature == conv1; }), 1);
  for (const auto& c : plan.calls)
    EXPECT_DOUBLE_EQ(c.cpu_s, c.signature == conv1 ? 1.5e-3 : 2 * c.answer.seconds) << c.signature;
  double sum = 0;
  for (const auto& c : plan.calls) sum += c.cpu_s;
  EXPECT_DOUBLE_EQ(plan.totals().cpu_seconds, sum);
}

// ResNet-18's first convolution timed keeping one of two cores busy for its 1 ms; every
// other kernel keeps both.  With its team alone on its cores the other thread spins through
// that millisecond where the profile's spin outlasts it (4 ms, as on the Granite Rapids VM),
// and for the spin only where it is shorter (0.4 ms); the spin takes CPU, not time.  A
// pass beside other teams, on one thread, or priced from a profile that never timed the
// spin counts none.
TEST(StepPlan, OnItsOwnCoresATeamsIdleThreadsSpinBeforeTheySleep) {
  const auto g = graph::zoo_model("resnet18");
  const std::string conv1 = graph::kernel_signature(g, g.nodes()[1], 8, graph::DataType::fp32);
  const auto pass = [&](double spin, int threads, PassThreads where) {
    Profile profile;
    profile.measured[{conv1, "fwd", 2}] = {1e-3, 1e-3, 1e-3, 5, 1e-3};
    const std::string sig = team_spin_signature();
    if (spin > 0) {
      profile.measured[{sig, "after_long_idle", 2}] = {30.1e-3, 30.1e-3, 30.1e-3, 5, 30.04e-3 + spin};
      profile.measured[{sig, "long_idle", 2}] = {30e-3, 30e-3, 30e-3, 5, 30e-3};
      profile.measured[{sig, "back_to_back", 2}] = {20e-6, 20e-6, 20e-6, 5, 40e-6};
    }
    return resnet18_pass(profile, threads, where);
  };
  const auto spun = [](const StepPlan& plan) {
    double cpu_s = 0;
    for (const auto& c : plan.calls)
      if (c.phase == "spin") {
        EXPECT_EQ(c.answer.seconds, 0.0);
        cpu_s += c.cpu_s;
      }
    return cpu_s;
  };
  const StepPlan spinning = pass(4e-3, 2, kAlone);
  EXPECT_NEAR(spun(spinning), 1e-3, 1e-9);
  const StepTotals totals = spinning.totals();
  EXPECT_NEAR(totals.cpu_seconds, 2 * totals.seconds, 1e-9);
  EXPECT_NEAR(spun(pass(0.4e-3, 2, kAlone)), 0.4e-3, 1e-9);
  EXPECT_DOUBLE_EQ(pass(4e-3, 2, kAlone).totals().seconds, pass(0, 2, kAlone).totals().seconds);
  EXPECT_EQ(count(pass(0, 2, kAlone), "spin"), 0u);
  EXPECT_EQ(count(pass(4e-3, 2, kCrowded), "spin"), 0u);
  EXPECT_EQ(count(pass(4e-3, 2, kTurns), "spin"), 0u);
  EXPECT_EQ(count(pass(4e-3, 1, kAlone), "spin"), 0u);
}

TEST(StepPlan, OnGlibcAnInferencePassPaysTheHeapItRefaults) {
  const Profile empty;
  const auto times = any_kernel(empty);
  FrameworkRules rules;
  rules.kernels_from = "framework";
  rules.host_allocator = "glibc";
  const auto g = graph::zoo_model("resnet50");
  const StepPlan plan = inference_plan(g, 4, 1, times, rules);
  ASSERT_EQ(count(plan, "refault"), 1u);
  const auto& heap = plan.calls.back();
  EXPECT_EQ(heap.stage, Stage::forward);
  EXPECT_EQ(heap.signature, first_touch_signature(inference_page_faults(g, 4)));
}

// ResNet-50's pass at batch 8 on a framework over glibc's heap (an empty allocator: none),
// its pages priced at 0.5 s the reference's inside passes, its heap state `refault_factor`.
StepPlan resnet50_pass(const std::string& allocator, double refault_factor = 1) {
  Profile profile;
  profile.measured[{first_touch_signature(kFirstTouchPages), kInPassPagePhase, 1}] = {0.5, 0.5, 0.5, 5};
  FrameworkRules rules;
  rules.kernels_from = "framework";
  rules.host_allocator = allocator;
  rules.refault_factor = refault_factor;
  return inference_plan(graph::zoo_model("resnet50"), 8, 1, any_kernel(profile), rules);
}

// A pass's refaults are a draw of the heap's state: its band spans none of them to half as
// many again; the point is the model's.
TEST(StepPlan, AnInferencePassesRefaultsWidenItsBandToTheirSpread) {
  const StepPlan with = resnet50_pass("glibc"), without = resnet50_pass("");
  const double refaults = with.calls.back().answer.seconds;
  ASSERT_GT(refaults, 0);
  const StepTotals a = with.totals(), b = without.totals();
  EXPECT_NEAR(a.seconds, b.seconds + refaults, 1e-12);
  EXPECT_NEAR(a.p10_seconds, b.p10_seconds + kServedPassFaultSpread.p10 * refaults, 1e-12);
  EXPECT_NEAR(a.p90_seconds, b.p90_seconds + kServedPassFaultSpread.p90 * refaults, 1e-12);
}

// A scenario's heap state scales the pass's refaulted pages; the band stays the spread of
// states about the model's count.
TEST(StepPlan, TheHeapStateScalesAPassesRefaultsNotItsBand) {
  const StepPlan model = resnet50_pass("glibc"), slow = resnet50_pass("glibc", kServedPassFaultSpread.p90);
  const int64_t pages = inference_page_faults(graph::zoo_model("resnet50"), 8);
  EXPECT_EQ(slow.calls.back().signature, first_touch_signature(std::llround(1.5 * double(pages))));
  EXPECT_NEAR(slow.calls.back().answer.seconds, 1.5 * model.calls.back().answer.seconds, 1e-6);
  EXPECT_NE(slow.calls.back().answer.basis.find("1.50 times the model's"), std::string::npos);
  EXPECT_NEAR(slow.totals().p90_seconds, model.totals().p90_seconds, 1e-12);
  const StepPlan fast = resnet50_pass("glibc", kServedPassFaultSpread.p10);
  EXPECT_EQ(count(fast, "refault"), 0u);
  EXPECT_NEAR(fast.totals().p90_seconds, model.totals().p90_seconds, 1e-12);
}

// A pass whose pages were counted on its stack refaults that count, at the same price a page,
// and its band is the price's alone: the count is not a draw.
TEST(StepPlan, ACountedPassRefaultsItsCountNotTheModels) {
  const StepPlan model = resnet50_pass("glibc");
  const int64_t pages = inference_page_faults(graph::zoo_model("resnet50"), 8);
  Profile profile;
  profile.measured[{first_touch_signature(kFirstTouchPages), kInPassPagePhase, 1}] = {0.5, 0.5, 0.5, 5};
  FrameworkRules rules;
  rules.kernels_from = "framework";
  rules.host_allocator = "glibc";
  rules.refault_pages = 3 * pages;
  const StepPlan counted = inference_plan(graph::zoo_model("resnet50"), 8, 1, any_kernel(profile), rules);
  EXPECT_EQ(counted.calls.back().signature, first_touch_signature(3 * pages));
  EXPECT_NEAR(counted.calls.back().answer.seconds, 3 * model.calls.back().answer.seconds, 1e-6);
  EXPECT_NE(counted.calls.back().answer.basis.find("counted; the model's " + std::to_string(pages)), std::string::npos)
      << counted.calls.back().answer.basis;
  const StepTotals t = counted.totals();
  EXPECT_LT(t.p10_seconds, t.seconds);  // the kernels' and the page price's errors remain
  EXPECT_GT(t.p10_seconds, model.totals().p10_seconds + 2.5 * model.calls.back().answer.seconds);
  rules.refault_pages = 0;
  const StepPlan none = inference_plan(graph::zoo_model("resnet50"), 8, 1, any_kernel(profile), rules);
  EXPECT_EQ(count(none, "refault"), 0u);
  EXPECT_NEAR(none.totals().p90_seconds + model.calls.back().answer.seconds * kServedPassFaultSpread.p90,
              model.totals().p90_seconds, 1e-6);
}

// Where the profile timed a page inside passes, the refaults cost that, not fresh less warm.
TEST(StepPlan, APageTimedInsidePassesPricesTheRefaults) {
  Profile profile;
  const std::string reference = first_touch_signature(kFirstTouchPages);
  profile.measured[{reference, "fresh", 1}] = {0.4, 0.4, 0.4, 5};
  profile.measured[{reference, "warm", 1}] = {0.01, 0.01, 0.01, 5};
  FrameworkRules rules;
  rules.kernels_from = "framework";
  rules.host_allocator = "glibc";
  const auto g = graph::zoo_model("resnet50");
  const double pages = double(inference_page_faults(g, 4));
  const auto refaults = [&](const Profile& p) { return inference_plan(g, 4, 1, any_kernel(p), rules).calls.back(); };
  EXPECT_NEAR(refaults(profile).answer.seconds, 0.39 * pages / kFirstTouchPages, 1e-9);
  profile.measured[{reference, kInPassPagePhase, 1}] = {0.5, 0.5, 0.5, 5};
  const KernelCall priced = refaults(profile);
  EXPECT_NEAR(priced.answer.seconds, 0.5 * pages / kFirstTouchPages, 1e-9);
  EXPECT_NE(priced.answer.basis.find("inside passes"), std::string::npos) << priced.answer.basis;
}

TEST(StepPlan, BlockedLayoutAddsReordersAroundConvolutions) {
  const Profile empty;
  const auto times = any_kernel(empty);
  FrameworkRules rules;
  rules.conv_layout = "blocked";
  const StepPlan plan = training_plan(graph::zoo_model("keras_mnist"), 32, "adam", 1, times, rules);
  EXPECT_EQ(count(plan, "bwd_weights"), 2u);
  EXPECT_EQ(count(plan, "reorder_src"), 2u + 1u);  // forward twice, backward once (conv1 has no data gradient)
  EXPECT_EQ(count(plan, "reorder_dst"), 4u);
}

TEST(StepPlan, KernelsTimedThroughTheFrameworkNeedNoDispatchRules) {
  const Profile empty;
  const auto times = any_kernel(empty);
  FrameworkRules rules;
  rules.kernels_from = "framework";
  for (int threads : {1, 2}) {
    const StepPlan plan = training_plan(graph::zoo_model("resnet50"), 4, "sgd_momentum", threads, times, rules);
    for (const auto& c : plan.calls)
      EXPECT_TRUE(c.phase == "fwd" || c.phase == "bwd_data" || c.phase == "bwd_weights" || c.phase == "update")
          << c.layer << " " << c.phase;
    EXPECT_EQ(count(plan, "bwd_weights"), 53u + 1u);  // 53 convolutions and the classifier
  }
}

TEST(StepPlan, PointwiseConvolutionsLeaveOneDnnOnlyForSmallBatchesOnOneThread) {
  const Profile empty;
  const auto times = any_kernel(empty);
  const auto g = graph::zoo_model("resnet50");
  const FrameworkRules rules;
  EXPECT_GT(count(training_plan(g, 4, "sgd_momentum", 1, times, rules), "blas_fwd"), 0u);
  EXPECT_EQ(count(training_plan(g, 4, "sgd_momentum", 2, times, rules), "blas_fwd"), 1u);   // fc only
  EXPECT_EQ(count(training_plan(g, 16, "sgd_momentum", 1, times, rules), "blas_fwd"), 1u);
}

TEST(StepPlan, ResidualBranchesSumTheirGradients) {
  const Profile empty;
  const auto times = any_kernel(empty);
  const auto g = graph::zoo_model("resnet18");
  const StepPlan plan = training_plan(g, 8, "sgd_momentum", 2, times, FrameworkRules{});
  const auto sums = std::count_if(plan.calls.begin(), plan.calls.end(), [](const KernelCall& c) {
    return c.stage == Stage::backward && c.signature.rfind("add ", 0) == 0;
  });
  EXPECT_EQ(sums, 8);  // one per basic block: its input feeds the block and the shortcut
}

TEST(StepPlan, InferenceRunsForwardOnlyWithoutDropoutOrLoss) {
  const Profile empty;
  const auto times = any_kernel(empty);
  const auto g = graph::zoo_model("keras_mnist");
  const StepPlan plan = inference_plan(g, 32, 1, times, FrameworkRules{});
  for (const auto& c : plan.calls) {
    EXPECT_EQ(c.stage, Stage::forward);
    EXPECT_EQ(c.signature.find("dropout"), std::string::npos);
    EXPECT_EQ(c.signature.find("softmax_cross_entropy"), std::string::npos);
  }
}

// A machine at another pace than its calibration's runs every call, its CPU time and its
// pages' band that many times as long.
TEST(StepPlan, APlanAtAnotherPaceScalesEveryCallAndItsBand) {
  StepPlan plan;
  plan.calls.push_back({Stage::forward, "a", "x", "fwd", {1.0, 0.0, Source::measured, ""}, 0.0, 2.0});
  plan.calls.push_back({Stage::forward, "heap", "y", "refault", {3.0, 0.0, Source::measured, ""}, 0.0, 3.0});
  plan.refault_p10_s = 0;
  plan.refault_p90_s = 4.5;
  const StepTotals before = plan.totals();
  at_pace(plan, 0.9);
  const StepTotals after = plan.totals();
  EXPECT_DOUBLE_EQ(after.seconds, 0.9 * before.seconds);
  EXPECT_DOUBLE_EQ(after.cpu_seconds, 0.9 * before.cpu_seconds);
  EXPECT_DOUBLE_EQ(after.p90_seconds, 0.9 * before.p90_seconds);
  EXPECT_DOUBLE_EQ(plan.refault_p90_s, 0.9 * 4.5);
}

// An operator with a pace of its own (the reference BLAS's linear layers) runs at that
// pace, every other call at the machine's.
TEST(StepPlan, AnOperatorsOwnPaceReplacesTheMachinesForItsCalls) {
  StepPlan plan;
  plan.calls.push_back({Stage::forward, "fc", "linear fp32 n1 in512 out1000 bias", "fwd", {2.0, 0.0, Source::measured, ""}, 0.0, 2.0});
  plan.calls.push_back({Stage::forward, "conv", "conv2d fp32 n1 c3 h8 w8 k8 r3 s3", "fwd", {1.0, 0.0, Source::measured, ""}, 0.0, 2.0});
  at_pace(plan, 1.1, {{"linear", 0.95}});
  EXPECT_DOUBLE_EQ(plan.calls[0].answer.seconds, 2.0 * 0.95);
  EXPECT_DOUBLE_EQ(plan.calls[0].cpu_s, 2.0 * 0.95);
  EXPECT_DOUBLE_EQ(plan.calls[1].answer.seconds, 1.1);
  EXPECT_DOUBLE_EQ(plan.calls[1].cpu_s, 2.0 * 1.1);
}

TEST(StepPlan, TotalsAddUpAndTheBandWidensWithError) {
  StepPlan plan;
  plan.calls.push_back({Stage::forward, "a", "x", "fwd", {1.0, 0.0, Source::measured, ""}});
  plan.calls.push_back({Stage::forward, "b", "y", "fwd", {3.0, 0.1, Source::fitted, ""}});
  const StepTotals t = plan.totals();
  EXPECT_DOUBLE_EQ(t.seconds, 4.0);
  EXPECT_DOUBLE_EQ(t.seconds_by_source.at(Source::fitted), 3.0);
  EXPECT_NEAR(t.p90_seconds, 4.0 + 1.2816 * 0.3, 1e-12);
  EXPECT_NEAR(t.p10_seconds, 4.0 - 1.2816 * 0.3, 1e-12);
}

}  // namespace
}  // namespace dlsim::perf

namespace dlsim::perf {
namespace {

TEST(StepPlan, AGlibcHostPricesTheHeapsRefaultedPagesPerStage) {
  const Profile empty;
  const auto times = any_kernel(empty);
  const auto g = graph::zoo_model("keras_mnist");
  FrameworkRules rules;
  EXPECT_EQ(count(training_plan(g, 32, "adam", 1, times, rules), "refault"), 0u);
  rules.host_allocator = "glibc";
  const StepPlan plan = training_plan(g, 32, "adam", 1, times, rules);
  ASSERT_EQ(count(plan, "refault"), 2u);  // forward and backward; Adam's temporaries stay warm
  const auto faults = training_page_faults(g, 32, "adam");
  EXPECT_EQ(plan.calls[plan.calls.size() - 2].signature, first_touch_signature(faults.forward));
  EXPECT_EQ(plan.calls.back().signature, first_touch_signature(faults.backward));
}

}  // namespace
}  // namespace dlsim::perf
