#include <gtest/gtest.h>

#include "core/error.hpp"
#include "scenario/catalog_loader.hpp"
#include "scenario/scenario.hpp"

namespace dlsim::scenario {
namespace {

RunSpec parse(const std::string& text, const std::vector<std::string>& sets = {}) {
  std::vector<Override> overrides;
  for (const auto& s : sets) overrides.push_back(parse_override(s));
  return parse_scenario(text, "test.toml", overrides, builtin_catalog());
}

std::string error_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  try {
    parse(text, sets);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// An inference scenario of `model` at `batch` on the [system] lines given, its [serving]
// table open for more lines.
std::string inference(const std::string& model, const std::string& batch, const std::string& system) {
  return "[workload]\nkind = \"infer\"\nmodel = \"" + model + "\"\nbatch = " + batch + "\n[system]\n" + system +
         "\n[serving]\n";
}

const char* kTrain = R"(
[workload]
kind = "train"
model = "resnet50"
batch = 32

[system]
instance = "p2.16xlarge"
devices = 16

[training]
strategy = "allreduce"
)";

TEST(Scenario, FillsDefaultsFromTheInstance) {
  const RunSpec spec = parse(kTrain);
  EXPECT_EQ(spec.workload.kind, WorkloadKind::train);
  EXPECT_EQ(spec.workload.precision, Precision::fp32);
  EXPECT_EQ(spec.system.device, "k80");
  EXPECT_EQ(spec.system.devices, 16);
  EXPECT_EQ(spec.system.nodes, 1);
  EXPECT_EQ(spec.system.threads, 64);
  EXPECT_EQ(spec.training->strategy, "allreduce");
  EXPECT_EQ(spec.training->optimizer, "sgd_momentum");
  EXPECT_FALSE(spec.serving);
}

TEST(Scenario, DevicesBeyondOneInstanceMakeNodes) {
  EXPECT_EQ(parse(kTrain, {"system.devices=64"}).system.nodes, 4);
}

TEST(Scenario, OverridesAreTypedLikeTheFile) {
  const RunSpec spec = parse(kTrain, {"workload.batch=64", "workload.model=vgg16", "workload.precision=amp"});
  EXPECT_EQ(spec.workload.batch, 64);
  EXPECT_EQ(spec.workload.model, "vgg16");
  EXPECT_EQ(spec.workload.precision, Precision::amp);
  const std::string err = error_of(kTrain, {"workload.batch=many"});
  EXPECT_NE(err.find("--set workload.batch=many"), std::string::npos) << err;
  EXPECT_NE(err.find("expected an integer"), std::string::npos) << err;
}

TEST(Scenario, QuantitiesNeedUnits) {
  const RunSpec spec = parse(kTrain, {"system.network_bandwidth=\"25Gbps\"", "system.network_latency=5us"});
  EXPECT_DOUBLE_EQ(spec.system.network_bandwidth_Bps, 25e9 / 8);
  EXPECT_DOUBLE_EQ(spec.system.network_latency_s, 5e-6);
  EXPECT_NE(error_of(kTrain, {"system.network_bandwidth=25"}).find("a bare number has no unit"), std::string::npos);
}

TEST(Scenario, TheLaunchBandSurroundsTheMedian) {
  const RunSpec spec = parse(kTrain, {"system.launch_overhead=\"25us\"", "system.launch_overhead_p10=\"20us\"",
                                      "system.launch_overhead_p90=\"31us\""});
  EXPECT_DOUBLE_EQ(spec.system.launch_overhead_p10_s, 20e-6);
  EXPECT_DOUBLE_EQ(spec.system.launch_overhead_p90_s, 31e-6);
  const RunSpec plain = parse(kTrain, {"system.launch_overhead=\"25us\""});
  EXPECT_DOUBLE_EQ(plain.system.launch_overhead_p10_s, 25e-6);
  EXPECT_DOUBLE_EQ(plain.system.launch_overhead_p90_s, 25e-6);
  std::string err = error_of(kTrain, {"system.launch_overhead=\"25us\"", "system.launch_overhead_p10=\"30us\""});
  EXPECT_NE(err.find("at most system.launch_overhead"), std::string::npos) << err;
  err = error_of(kTrain, {"system.launch_overhead=\"25us\"", "system.launch_overhead_p90=\"20us\""});
  EXPECT_NE(err.find("at least system.launch_overhead"), std::string::npos) << err;
  err = error_of(kTrain, {"system.launch_overhead_p90=\"40us\""});
  EXPECT_NE(err.find("give system.launch_overhead"), std::string::npos) << err;
}

// A CPU's pace on the day is its kernels' (a ratio to its calibration's); a GPU's host has
// its launches instead.
TEST(Scenario, TheCpuPaceIsACpusRatioToItsCalibration) {
  const std::string cpu = inference("resnet18", "1", "device = \"cpu\"");
  EXPECT_DOUBLE_EQ(parse(cpu).system.cpu_pace, 1.0);
  EXPECT_DOUBLE_EQ(parse(cpu, {"system.cpu_pace=0.92"}).system.cpu_pace, 0.92);
  std::string err = error_of(cpu, {"system.cpu_pace=0"});
  EXPECT_NE(err.find("system.cpu_pace"), std::string::npos) << err;
  err = error_of(kTrain, {"system.cpu_pace=0.92"});
  EXPECT_NE(err.find("a CPU device"), std::string::npos) << err;
}

// An operator's own pace (system.cpu_pace_by_op) is read by the signature's operator name;
// a name no signature has is refused with the closest, its value shown as written.
TEST(Scenario, AnOperatorsOwnPaceNamesAKernelOperator) {
  const std::string cpu = inference("resnet18", "1", "device = \"cpu\"");
  const auto spec = parse(cpu, {"system.cpu_pace=1.3", "system.cpu_pace_by_op.linear=1.1"});
  EXPECT_DOUBLE_EQ(spec.system.cpu_pace, 1.3);
  EXPECT_EQ(spec.system.cpu_pace_by_op, (std::map<std::string, double>{{"linear", 1.1}}));
  EXPECT_TRUE(parse(cpu).system.cpu_pace_by_op.empty());
  std::string err = error_of(cpu, {"system.cpu_pace_by_op.conv=0.95"});
  EXPECT_NE(err.find("value '0.95'"), std::string::npos) << err;
  EXPECT_NE(err.find("did you mean 'conv2d'?"), std::string::npos) << err;
  err = error_of(cpu, {"system.cpu_pace_by_op.relu=20"});
  EXPECT_NE(err.find("from 0.1 to 10"), std::string::npos) << err;
}

// A page census (system.page_census) names its file from the scenario's folder and the
// model it counted: its only one, or the one system.page_census_model names.
TEST(Scenario, APageCensusNamesItsModelAndPricesPassesAlone) {
  const std::string cpu = inference("resnet18", "8", "device = \"cpu\"");
  const std::string census = "system.page_census=\"" DLSIM_SOURCE_DIR "/validation/data/page_census_devbox_granite_1108.csv\"";
  const RunSpec spec = parse(cpu, {census, "system.page_census_model=\"efficientnet_b3\""});
  EXPECT_NE(spec.system.page_census.find("page_census_devbox_granite_1108.csv"), std::string::npos);
  EXPECT_EQ(spec.system.page_census_model, "efficientnet_b3");
  std::string err = error_of(cpu, {census});
  EXPECT_NE(err.find("naming one of its 3 (densenet169, efficientnet_b3, regnet_x_3_2gf)"), std::string::npos) << err;
  err = error_of(cpu, {census, "system.page_census_model=\"efficientnet_b4\""});
  EXPECT_NE(err.find("did you mean 'efficientnet_b3'?"), std::string::npos) << err;
  err = error_of(cpu, {census, "system.page_census_model=\"efficientnet_b3\"", "system.pass_page_faults=100"});
  EXPECT_NE(err.find("a census alone"), std::string::npos) << err;
  err = error_of(cpu, {"system.page_census=\"no_census.csv\""});
  EXPECT_NE(err.find("names a page census that does not exist"), std::string::npos) << err;
  err = error_of(cpu, {"system.page_census_model=\"efficientnet_b3\""});
  EXPECT_NE(err.find("system.page_census beside it"), std::string::npos) << err;
}

// A file name the system refuses (longer than a path may be) is a file that does not exist,
// reported as such, not an exception from the file system (the scenario fuzzer's find).
TEST(Scenario, AFileNameTooLongForTheSystemNamesNoFile) {
  const std::string cpu = inference("resnet18", "8", "device = \"cpu\"");
  const std::string name = std::string(5000, 'D') + ".toml";
  for (const char* key : {"system.profile", "system.input_profile", "system.page_census", "workload.model"}) {
    const std::string err = error_of(cpu, {std::string(key) + "=\"" + name + "\""});
    EXPECT_NE(err.find("that does not exist"), std::string::npos) << key << ": " << err;
  }
}

TEST(Scenario, TheLaunchSpreadIsNineAscendingRatios) {
  const std::string spread = "system.launch_spread=[0.7, 0.8, 0.9, 0.95, 1, 1.05, 1.2, 1.3, 1.6]";
  const RunSpec spec = parse(kTrain, {"system.launch_overhead=\"25us\"", spread});
  ASSERT_EQ(spec.system.launch_spread.size(), 9u);
  EXPECT_DOUBLE_EQ(spec.system.launch_spread.back(), 1.6);
  EXPECT_TRUE(parse(kTrain, {"system.launch_overhead=\"25us\""}).system.launch_spread.empty());
  std::string err = error_of(kTrain, {"system.launch_overhead=\"25us\"", "system.launch_spread=[1.2, 1, 1.3]"});
  EXPECT_NE(err.find("9 ratios in (0, 10], ascending"), std::string::npos) << err;
  err = error_of(kTrain, {"system.launch_overhead=\"25us\"",
                          "system.launch_spread=[0.7, 0.8, 0.9, 1.2, 1, 1.05, 1.2, 1.3, 1.6]"});
  EXPECT_NE(err.find("ascending"), std::string::npos) << err;
  err = error_of(kTrain, {spread});
  EXPECT_NE(err.find("give system.launch_overhead"), std::string::npos) << err;
}

TEST(Scenario, TheHandedOverPaceNeedsTheMedianAndIsTheSlowTenthsUnlessGiven) {
  EXPECT_DOUBLE_EQ(parse(kTrain, {"system.launch_overhead=\"25us\"", "system.launch_overhead_handoff=\"35us\""})
                       .system.launch_overhead_handoff_s,
                   35e-6);
  EXPECT_DOUBLE_EQ(parse(kTrain, {"system.launch_overhead=\"25us\"", "system.launch_overhead_p90=\"31us\""})
                       .system.launch_overhead_handoff_s,
                   31e-6);
  EXPECT_DOUBLE_EQ(parse(kTrain, {"system.launch_overhead=\"25us\""}).system.launch_overhead_handoff_s, 25e-6);
  const std::string err = error_of(kTrain, {"system.launch_overhead_handoff=\"35us\""});
  EXPECT_NE(err.find("give system.launch_overhead"), std::string::npos) << err;
}

TEST(Scenario, ServingDefaultsAndRules) {
  const RunSpec spec = parse(R"(
[workload]
kind = "infer"
model = "resnet50"
batch = 8
[system]
instance = "p3.2xlarge"
[serving]
deployment = "remote"
protocol = "grpc"
mode = "async"
concurrency = 4
client_instance = "t3.2xlarge"
)");
  EXPECT_EQ(spec.serving->deployment, "remote");
  EXPECT_EQ(spec.serving->concurrency, 4);
  EXPECT_FALSE(spec.training);
}

// The threads a serving process runs passes on, each with a team of its own: an in-process
// caller's clients; a C++ server's model instances; Python's HTTP server a thread per
// connection, its gRPC server a pool of up to 8 (one thread more than the requests in
// flight where the host's cores are all taken).
TEST(Scenario, PassThreadsFollowTheServersThreading) {
  const std::string cpu = inference("resnet18", "1", "device = \"cpu\"\nthreads = 2");
  const auto pass_threads = [&](const std::vector<std::string>& sets) { return parse(cpu, sets).serving->pass_threads; };
  EXPECT_EQ(pass_threads({}), 1);
  EXPECT_EQ(pass_threads({"serving.concurrency=3"}), 3);
  const std::vector<std::string> python = {"serving.deployment=\"local\"", "serving.stack=\"python\""};
  auto with = [](std::vector<std::string> sets, const std::vector<std::string>& more) {
    sets.insert(sets.end(), more.begin(), more.end());
    return sets;
  };
  EXPECT_EQ(pass_threads(with(python, {"serving.protocol=\"http\"", "serving.concurrency=12"})), 12);
  EXPECT_EQ(pass_threads(with(python, {"serving.protocol=\"grpc\"", "serving.concurrency=12"})), 8);
  // On 2 cores the pool's worker is not back before a closed loop's next request: one more.
  EXPECT_EQ(pass_threads(with(python, {"serving.protocol=\"grpc\"", "serving.concurrency=2"})), 3);
  EXPECT_EQ(pass_threads(with(python, {"serving.protocol=\"grpc\"", "serving.concurrency=1"})), 2);
  EXPECT_EQ(pass_threads(with(python, {"serving.protocol=\"grpc\"", "serving.mode=\"async\""})), 2);
  EXPECT_EQ(pass_threads(with(python, {"serving.protocol=\"http\"", "serving.concurrency=1"})), 1);
  // A remote client's CPU is its own: on 2 cores a team of 2 and the poller still crowd them.
  EXPECT_EQ(pass_threads(with(python, {"serving.protocol=\"grpc\"", "serving.deployment=\"remote\"",
                                       "system.network_bandwidth=\"5Gbps\""})),
            2);
  EXPECT_EQ(pass_threads(with(python, {"serving.protocol=\"grpc\"", "serving.deployment=\"remote\"",
                                       "system.network_bandwidth=\"5Gbps\"", "system.threads=1",
                                       "system.cpu=\"epyc-genoa-kvm\""})),
            1);
  // On a 48-core socket it is: the requests in flight.
  EXPECT_EQ(pass_threads(with(python, {"serving.protocol=\"grpc\"", "serving.concurrency=2", "system.cpu=\"epyc-7r13\""})),
            2);
  EXPECT_EQ(pass_threads(with(python, {"serving.protocol=\"grpc\"", "serving.arrival=\"poisson\"",
                                       "serving.request_rate=10"})),
            8);
  EXPECT_EQ(pass_threads({"serving.deployment=\"local\"", "serving.protocol=\"grpc\"", "serving.concurrency=12"}),
            1);  // a C++ server's one model instance
  EXPECT_EQ(pass_threads({"serving.pass_threads=2"}), 2);  // a harness that warmed up on another thread
  EXPECT_NE(error_of(cpu, {"serving.pass_threads=0"}).find("serving.pass_threads"), std::string::npos);
  // A loader thread's team is said apart from the passes' threads.
  EXPECT_FALSE(parse(cpu, {}).serving->loader_team);
  EXPECT_TRUE(parse(cpu, {"serving.loader_team=true"}).serving->loader_team);
  EXPECT_EQ(pass_threads({"serving.loader_team=true"}), 1);
  EXPECT_NE(error_of(cpu, {"serving.loader_team=2"}).find("serving.loader_team"), std::string::npos);
}

TEST(Scenario, ReportsEveryProblemInOnePass) {
  try {
    parse(R"(
[workload]
kind = "train"
model = "resnet5"
batch = 0
colour = "blue"
[system]
device = "v10"
)");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.problems().size(), 4u) << e.what();
  }
}

TEST(Scenario, OverrideNeedsAnEqualsSign) {
  EXPECT_THROW(parse_override("workload.batch"), InputError);
  EXPECT_THROW(parse_override("=5"), InputError);
  EXPECT_EQ(parse_override("a.b=c=d").value, "c=d");
}

TEST(Scenario, AnEmptyOverrideRemovesTheKey) {
  const std::string text =
      inference("resnet50", "8", "device = \"v100-sxm2\"") + "deployment = \"local\"\nprotocol = \"grpc\"\nconcurrency = 4\n";
  EXPECT_EQ(parse(text).serving->concurrency, 4);
  EXPECT_EQ(parse(text, {"serving.concurrency="}).serving->concurrency, 1);  // the default
  // An open loop refuses a closed loop's concurrency unless it is removed.
  EXPECT_THROW(parse(text, {"serving.arrival=\"poisson\"", "serving.request_rate=100"}), InputError);
  EXPECT_EQ(parse(text, {"serving.arrival=\"poisson\"", "serving.request_rate=100", "serving.concurrency="})
                .serving->arrival,
            "poisson");
  EXPECT_EQ(parse(text, {"serving.nothing.here="}).serving->concurrency, 4);  // nothing to remove
}

}  // namespace
}  // namespace dlsim::scenario
