// kernels/pytorch/torch_op_bench.py times every operator kind dlsim emits
// (tests/data/kernels/every_op.sig) through PyTorch without an error row, writes Google
// Benchmark JSON that names the framework, and dlsim fits a profile from it that says its
// kernels came through the framework.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/benchmark_rows.hpp"
#include "support/run_command.hpp"

namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Times the signatures in `sigs` (one a line) once each, quickly; returns the JSON written.
nlohmann::json time_quickly(const std::string& name, const std::string& sigs, const std::string& threads) {
  const fs::path dir = fs::temp_directory_path() / "dlsim_torch_op_bench_test";
  fs::create_directories(dir);
  const auto sig_file = (dir / (name + ".sig")).string();
  std::ofstream(sig_file) << sigs;
  const auto raw = (dir / (name + ".json")).string();
  const auto run = dlsim::testing::run_command(
      DLSIM_PYTHON, {DLSIM_SOURCE_DIR "/kernels/pytorch/torch_op_bench.py", "--signatures", sig_file, "--threads",
                     threads, "--repetitions", "1", "--min-time", "0.001", "--out", raw}, true);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  return run.exit_code == 0 ? nlohmann::json::parse(read(raw)) : nlohmann::json::object();
}

TEST(TorchOpBench, EveryOperatorKindRunsAndFitsIntoAFrameworkProfile) {
  const std::string sig_file = DLSIM_SOURCE_DIR "/tests/data/kernels/every_op.sig";
  const fs::path dir = fs::temp_directory_path() / "dlsim_torch_op_bench_test";
  fs::create_directories(dir);
  const auto raw = (dir / "every_op.json").string();
  const auto run = dlsim::testing::run_command(
      DLSIM_PYTHON, {DLSIM_SOURCE_DIR "/kernels/pytorch/torch_op_bench.py", "--signatures", sig_file, "--threads",
                     "1,2", "--repetitions", "2", "--min-time", "0.001", "--out", raw}, true);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto j = nlohmann::json::parse(read(raw));
  EXPECT_EQ(j["context"]["framework"], "pytorch");
  EXPECT_FALSE(j["context"]["torch_version"].get<std::string>().empty());
  dlsim::testing::expect_every_signature_timed(j, sig_file);

  const auto profile = (dir / "every_op.toml").string();
  const auto fit = dlsim::testing::run_command(DLSIM_BINARY, {"calibrate", raw, "--machine", "test", "-o", profile}, true);
  ASSERT_EQ(fit.exit_code, 0) << fit.output;
  EXPECT_NE(read(profile).find("kernels_from = \"framework\""), std::string::npos);
}

TEST(TorchOpBench, AnUnknownOperatorIsAnErrorRowAndTheRestRun) {
  const auto j = time_quickly("bad", "frobnicate fp32 n4 e16\nrelu fp32 n4 e16\n", "1");
  int errors = 0, timed = 0;
  for (const auto& b : j["benchmarks"]) (b.value("error_occurred", false) ? errors : timed) += 1;
  EXPECT_EQ(errors, 1);
  EXPECT_EQ(timed, 4);  // relu: fwd, infer, infer_thread and bwd_data, one repetition each
}

// Once a request thread has run a team of two, every later two-thread region of the main
// thread wakes its team (Adam's update of ResNet-18: 10 ms alone, 30 ms after one
// request-thread call), so the request thread's phases come after every main-thread one,
// and the heap serves every output warm: nothing mapped, nothing trimmed, one arena.
TEST(TorchOpBench, RequestThreadPhasesComeAfterEveryMainThreadPhase) {
  const auto j = time_quickly("order", "relu fp32 n4 e16\nadd fp32 n4 e16 x2\n", "1,2");
  EXPECT_EQ(j["context"]["allocator"], "glibc: no mappings, heap never trimmed, one arena for every thread");
  std::vector<std::string> phases;
  for (const auto& b : j["benchmarks"]) {
    const auto name = b["name"].get<std::string>();
    phases.push_back(name.substr(name.rfind("| ") + 2));
  }
  // Two thread counts: relu fwd, infer, bwd_data; add fwd, infer; then each one's infer_thread.
  ASSERT_EQ(phases.size(), 14u);
  const auto first_request = std::find(phases.begin(), phases.end(), "infer_thread");
  EXPECT_EQ(first_request - phases.begin(), 10);
  EXPECT_EQ(std::count(first_request, phases.end(), "infer_thread"), 4);
}

// team_spin is timed on the main thread only, three phases a thread count: a ReLU back to
// back, 30 ms of the caller's own work, and that work then the ReLU, whose process CPU time
// holds the team's spin (sim/perf/step_plan.hpp) and so at least the work's.  Each phase's
// CPU time holds the 30 ms; the two are not compared, since a loaded machine stretches the
// work more in one than the other (43.6 ms idle against 39.9 after, in a CI run under ctest -j2).
TEST(TorchOpBench, TheTeamsSpinIsTimedOnTheMainThreadAfterTheCallersWork) {
  const auto j = time_quickly("spin", "team_spin fp32 n1 e200704\n", "1,2");
  std::vector<std::string> phases;
  double idle_cpu = 0, after_cpu = 0;
  for (const auto& b : j["benchmarks"]) {
    const auto name = b["name"].get<std::string>();
    phases.push_back(name.substr(name.rfind("| ") + 2));
    if (name.find("threads=2") == std::string::npos) continue;
    if (phases.back() == "long_idle") idle_cpu = b["process_cpu_time"].get<double>();
    if (phases.back() == "after_long_idle") after_cpu = b["process_cpu_time"].get<double>();
  }
  const std::vector<std::string> expected = {"back_to_back", "long_idle", "after_long_idle"};
  ASSERT_EQ(phases.size(), 6u);
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), phases.begin()));
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), phases.begin() + 3));
  EXPECT_GE(idle_cpu, 29e3);  // microseconds
  EXPECT_GE(after_cpu, 29e3);
}

// --in-pass times every call of ResNet-18's inference pass (dlsim model --format csv, the
// loss left out) inside whole passes: phase infer_pass on the main thread for every thread
// count, then infer_pass_thread on the request thread, then infer_pass_turns on two request
// threads taking turns, then infer_pass_shared on a request thread whose team shares its
// core; a signature the pass calls four times counts four calls a pass.  --pass-threads
// picks some of the four.  A listing that is not that CSV, or a place that is none of them,
// is refused.
TEST(TorchOpBench, InPassTimesEveryCallOfAPassOnEachThread) {
  const fs::path dir = fs::temp_directory_path() / "dlsim_torch_op_bench_test";
  fs::create_directories(dir);
  const auto listing = (dir / "resnet18_b1.csv").string();
  const auto model = dlsim::testing::run_command(DLSIM_BINARY, {"model", "resnet18", "--format", "csv"}, false);
  ASSERT_EQ(model.exit_code, 0) << model.output;
  std::ofstream(listing) << model.output;
  const auto raw = (dir / "resnet18_b1_in_pass.json").string();
  const auto bench = [&](const std::string& file, const std::string& places = "main,request,turns,shared") {
    return dlsim::testing::run_command(
        DLSIM_PYTHON, {DLSIM_SOURCE_DIR "/kernels/pytorch/torch_op_bench.py", "--signatures", file, "--in-pass",
                       "--pass-threads", places, "--threads", "1,2", "--repetitions", "1", "--min-time", "0.001",
                       "--out", raw}, true);
  };
  const auto phases_timed = [&] {
    const auto j = nlohmann::json::parse(read(raw));
    EXPECT_EQ(j["context"]["mode"], "passes");
    std::vector<std::string> phases;
    for (const auto& b : j["benchmarks"]) {
      EXPECT_FALSE(b.value("error_occurred", false)) << b.dump();
      const auto name = b["name"].get<std::string>();
      phases.push_back(name.substr(name.rfind("| ") + 2));
      if (name == "conv2d fp32 n1 c64 h56 w56 k64 r3 s3 pad1,1,1,1 str1,1 dil1,1 g1 | threads=2 | infer_pass") {
        EXPECT_EQ(b["iterations"], 4);  // layer1's four convolutions, one pass
      }
    }
    return phases;
  };
  const auto run = bench(listing);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  // 28 signatures (the loss left out), on two thread counts, each phase after the other.
  const auto phases = phases_timed();
  ASSERT_EQ(phases.size(), 8u * 28u);
  EXPECT_EQ(std::count(phases.begin(), phases.begin() + 56, "infer_pass"), 56);
  EXPECT_EQ(std::count(phases.begin() + 56, phases.begin() + 112, "infer_pass_thread"), 56);
  EXPECT_EQ(std::count(phases.begin() + 112, phases.begin() + 168, "infer_pass_turns"), 56);
  EXPECT_EQ(std::count(phases.begin() + 168, phases.end(), "infer_pass_shared"), 56);

  const auto turns = bench(listing, "turns");
  ASSERT_EQ(turns.exit_code, 0) << turns.output;
  const auto turns_only = phases_timed();
  EXPECT_EQ(turns_only.size(), 56u);
  EXPECT_EQ(std::count(turns_only.begin(), turns_only.end(), "infer_pass_turns"), 56);
  const auto shared = bench(listing, "shared");
  ASSERT_EQ(shared.exit_code, 0) << shared.output;
  const auto shared_only = phases_timed();
  EXPECT_EQ(std::count(shared_only.begin(), shared_only.end(), "infer_pass_shared"), 56);
  const auto nowhere = bench(listing, "main,elsewhere");
  EXPECT_EQ(nowhere.exit_code, 2);
  EXPECT_NE(nowhere.output.find("--pass-threads main,elsewhere: expected some of main,request,turns,shared"),
            std::string::npos) << nowhere.output;

  const auto kernels = (dir / "resnet18_b1.kernels").string();
  std::ofstream(kernels) << "relu fp32 n4 e16\n";
  const auto refused = bench(kernels);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.output.find("not `dlsim model --format csv` output"), std::string::npos) << refused.output;
}

}  // namespace
