#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "perf/profile_writer.hpp"
#include "scenario/profile_reader.hpp"

namespace dlsim::scenario {
namespace {

TEST(ProfileReader, ReadsBackWhatTheWriterWrote) {
  perf::Profile p;
  p.machine = "box \"one\"";
  p.cpu = "xeon-emerald-rapids-kvm";
  p.sources = {"a.json", "b.json"};
  p.identity["cpu_model"] = "Test";
  p.framework.pointwise_conv_blas_below_batch = 8;
  p.measured[{"relu fp32 n2 e8", "fwd", 2}] = {10e-6, 9e-6, 12.5e-6, 5};
  p.measured[{"relu fp32 n2 e8", "infer", 2}] = {10e-6, 9e-6, 12.5e-6, 5, 15e-6};  // its CPU time too
  p.fits.push_back({"relu", "fp32", "fwd", 2, {"one", "bytes"}, {1e-6, 2.5e-11}, 0.125, 7});
  p.stalls[2] = {30.0, {250e-6, 4e-3}, {0.020, {0.9125, 1.0, 1.25}}};
  const std::string text = perf::profile_toml(p);
  const perf::Profile q = parse_profile(text, "p.toml");
  EXPECT_EQ(q.machine, p.machine);
  EXPECT_EQ(q.cpu, p.cpu);
  EXPECT_EQ(q.sources, p.sources);
  EXPECT_EQ(q.identity, p.identity);
  EXPECT_EQ(q.framework.pointwise_conv_blas_below_batch, 8);
  const auto& t = q.measured.at({"relu fp32 n2 e8", "fwd", 2});
  EXPECT_NEAR(t.median_s, 10e-6, 1e-15);
  EXPECT_NEAR(t.p90_s, 12.5e-6, 1e-15);
  EXPECT_EQ(t.cpu_s, 0);
  EXPECT_NEAR(q.measured.at({"relu fp32 n2 e8", "infer", 2}).cpu_s, 15e-6, 1e-15);
  ASSERT_EQ(q.fits.size(), 1u);
  EXPECT_EQ(q.fits[0].coefficients, p.fits[0].coefficients);
  EXPECT_EQ(q.fits[0].points, 7);
  ASSERT_EQ(q.stalls.count(2), 1u);
  EXPECT_EQ(q.stalls.at(2).traced_s, 30.0);
  EXPECT_EQ(q.stalls.at(2).durations_s.size(), 2u);
  EXPECT_NEAR(q.stalls.at(2).durations_s[1], 4e-3, 1e-15);
  EXPECT_NEAR(q.stalls.at(2).speed.window_s, 0.020, 1e-15);
  EXPECT_EQ(q.stalls.at(2).speed.slowdowns, p.stalls.at(2).speed.slowdowns);
  EXPECT_EQ(perf::profile_toml(q), text);  // deterministic round trip
}

// The message a profile whose [[stalls]] table ends with `entries` is refused with.
std::string refusal_of_stalls(const std::string& entries) {
  try {
    parse_profile("[profile]\ndevice = \"cpu\"\nmachine = \"m\"\n\n[[stalls]]\nthreads = 2\ntraced_s = 30\n" + entries,
                  "bad.toml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(ProfileReader, RefusesAStallOfNoTime) {
  const std::string refusal = refusal_of_stalls("durations_us = [250, 0]\n");
  EXPECT_NE(refusal.find("durations_us"), std::string::npos) << refusal;
}

TEST(ProfileReader, RefusesASpeedTraceWithoutItsWindow) {
  const std::string refusal = refusal_of_stalls("durations_us = [250]\nspeed = [1.0, 1.2]\n");
  EXPECT_NE(refusal.find("speed_window_ms"), std::string::npos) << refusal;
}

TEST(ProfileReader, NamesTheLineAndKeyOfABadEntry) {
  const std::string text =
      "[profile]\ndevice = \"cpu\"\nmachine = \"m\"\n[kernels]\nmeasured = [\n"
      "  { signature = \"relu fp32 n1 e1\", phase = \"fwd\", threads = 1, median_us = -3, p10_us = 1, p90_us = 1, "
      "reps = 5 },\n]\n";
  try {
    parse_profile(text, "bad.toml");
    FAIL();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("bad.toml:6"), std::string::npos) << what;
    EXPECT_NE(what.find("median_us"), std::string::npos) << what;
  }
}

TEST(ProfileReader, GpuProfilesKeepTheirGpuAndDataTypes) {
  perf::Profile p;
  p.device = "gpu";
  p.gpu = "v100-sxm2";
  p.machine = "m";
  p.framework.kernels_from = "cudnn";
  p.sources = {"deepbench.json"};
  p.measured[{"relu fp16 n2 e8", "fwd", 1}] = {1e-5, 1e-5, 1e-5, 1};
  p.fits.push_back({"conv2d", "fp16", "fwd", 1, {"one", "flops"}, {1e-5, 1e-14}, 0.3, 9});
  const perf::Profile q = parse_profile(perf::profile_toml(p), "g.toml");
  EXPECT_EQ(q.gpu, "v100-sxm2");
  EXPECT_EQ(q.framework.kernels_from, "cudnn");
  ASSERT_EQ(q.fits.size(), 1u);
  EXPECT_EQ(q.fits[0].dtype, "fp16");
  EXPECT_THROW(parse_profile("[profile]\ndevice = \"gpu\"\nmachine = \"m\"\n", "nogpu.toml"), InputError);
}

TEST(ProfileReader, ADerivedProfileLoadsItsBaseAndSaysSo) {
  const auto dir = std::filesystem::temp_directory_path() / "dlsim_derived_profile_test";
  std::filesystem::create_directories(dir);
  perf::Profile base;
  base.device = "gpu";
  base.gpu = "m40";
  base.machine = "measured";
  base.sources = {"deepbench.json"};
  base.measured[{"relu fp32 n2 e8", "fwd", 1}] = {1e-5, 1e-5, 1e-5, 1};
  std::ofstream(dir / "m40.toml") << perf::profile_toml(base);
  const std::string derived = "[profile]\ndevice = \"gpu\"\nmachine = \"derived\"\ngpu = \"k80\"\n";
  std::ofstream(dir / "k80.toml") << derived << "base = \"m40.toml\"\nnote = \"nearest\"\n";
  const perf::Profile k80 = load_profile((dir / "k80.toml").string());
  EXPECT_EQ(k80.gpu, "m40");  // the kernels' own GPU; the scenario's GPU is the target
  EXPECT_NE(k80.derivation.find("(k80): nearest"), std::string::npos) << k80.derivation;
  std::ofstream(dir / "twice.toml") << derived << "base = \"k80.toml\"\n";
  EXPECT_THROW(load_profile((dir / "twice.toml").string()), InputError);
  std::filesystem::remove_all(dir);
}

// Profiles are parsed once a process (every point of a search reads the same one), so a
// file written since, or its base, must be read again.
TEST(ProfileReader, AProfileWrittenAgainIsReadAgain) {
  const auto dir = std::filesystem::temp_directory_path() / "dlsim_profile_reread_test";
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& machine, const std::string& extra) {
    std::ofstream(dir / name) << "[profile]\ndevice = \"gpu\"\ngpu = \"m40\"\nmachine = \"" << machine << "\"\n" << extra;
  };
  write("base.toml", "first", "");
  write("derived.toml", "derived", "base = \"base.toml\"\n");
  EXPECT_EQ(load_profile((dir / "base.toml").string()).machine, "first");
  EXPECT_EQ(load_profile((dir / "derived.toml").string()).machine, "first");
  write("base.toml", "second one", "");  // another size, whatever the clock's resolution
  EXPECT_EQ(load_profile((dir / "base.toml").string()).machine, "second one");
  EXPECT_EQ(load_profile((dir / "derived.toml").string()).machine, "second one");
  std::filesystem::remove(dir / "base.toml");
  EXPECT_THROW(load_profile((dir / "derived.toml").string()), InputError);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dlsim::scenario
