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
  p.fits.push_back({"relu", "fp32", "fwd", 2, {"one", "bytes"}, {1e-6, 2.5e-11}, 0.125, 7});
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
  ASSERT_EQ(q.fits.size(), 1u);
  EXPECT_EQ(q.fits[0].coefficients, p.fits[0].coefficients);
  EXPECT_EQ(q.fits[0].points, 7);
  EXPECT_EQ(perf::profile_toml(q), text);  // deterministic round trip
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

}  // namespace
}  // namespace dlsim::scenario
