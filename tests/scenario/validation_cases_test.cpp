// validation/cases/*.toml: how measured rows become cases.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "scenario/validation_cases.hpp"

namespace dlsim::scenario {
namespace {

namespace fs = std::filesystem;

fs::path write_suite(const std::string& name, const std::string& set) {
  const fs::path dir = fs::path(::testing::TempDir()) / name;
  fs::create_directories(dir);
  std::ofstream(dir / "runs.csv") << "model,threads,images_per_s\nresnet18,2,47.3\n";
  std::ofstream(dir / "cases.toml") << "[[suite]]\ndata = \"runs.csv\"\nscenario = \"s.toml\"\nset = " << set
                                    << "\nid = \"{model} t{threads}\"\ngroup = \"g\"\nmeasured = \"images_per_s\"\n"
                                       "predicted = \"throughput_images_per_s\"\nbound_mape_pct = 10\n";
  return dir / "cases.toml";
}

// A set value may be a boolean or a number, passed on as TOML writes it; before, a
// boolean became an empty value, which removes the key and silently predicted the default.
TEST(ValidationCases, SetValuesMayBeBooleansAndNumbers) {
  const auto cases = load_cases(
      write_suite("dlsim_cases_scalars", R"({ "system.allow_fallback" = true, "system.threads" = "{threads}", "workload.batch" = 8 })")
          .string());
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].id, "resnet18 t2");
  ASSERT_EQ(cases[0].overrides.size(), 3u);
  EXPECT_EQ(cases[0].overrides[0].value, "true");
  EXPECT_EQ(cases[0].overrides[1].value, "2");
  EXPECT_EQ(cases[0].overrides[2].value, "8");
}

TEST(ValidationCases, ASetValueThatIsATableIsAnError) {
  EXPECT_THROW(load_cases(write_suite("dlsim_cases_table", R"({ "system.threads" = { a = 1 } })").string()), InputError);
}

fs::path write_repeats(const std::string& name, const std::string& rows, const std::string& repeated) {
  const fs::path dir = fs::path(::testing::TempDir()) / name;
  fs::create_directories(dir);
  std::ofstream(dir / "runs.csv") << "model,threads,images_per_s\n" << rows;
  std::ofstream(dir / "cases.toml") << "[[suite]]\ndata = \"runs.csv\"\nscenario = \"s.toml\"\n"
                                       "set = { \"system.threads\" = \"{threads}\" }\nid = \"{model}\"\n"
                                       "group = \"g\"\nmeasured = \"images_per_s\"\n"
                                       "predicted = \"throughput_images_per_s\"\nbound_mape_pct = 10\n"
                                    << repeated;
  return dir / "cases.toml";
}

// Three campaigns of one configuration are one case at their median; without the key each
// row stays a case.
TEST(ValidationCases, RepeatedRowsOfOneIdAreOneCaseAtTheirMedian) {
  const std::string rows = "resnet18,2,47.3\nresnet50,2,20.0\nresnet18,2,41.0\nresnet18,2,52.9\n";
  const auto cases = load_cases(write_repeats("dlsim_cases_repeats", rows, "repeated = \"median\"\n").string());
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].id, "resnet18");
  EXPECT_DOUBLE_EQ(cases[0].measured, 47.3);
  EXPECT_EQ(cases[0].row.line, 2);
  EXPECT_DOUBLE_EQ(cases[1].measured, 20.0);
  EXPECT_EQ(load_cases(write_repeats("dlsim_cases_no_repeats", rows, "").string()).size(), 4u);
}

TEST(ValidationCases, RepeatsAskingForDifferentPredictionsAreAnError) {
  const std::string rows = "resnet18,1,47.3\nresnet18,2,41.0\n";
  try {
    load_cases(write_repeats("dlsim_cases_repeats_differ", rows, "repeated = \"median\"\n").string());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("put the column that tells them apart into the id"), std::string::npos);
  }
  EXPECT_THROW(load_cases(write_repeats("dlsim_cases_repeats_mean", rows, "repeated = \"mean\"\n").string()),
               InputError);
}

fs::path write_with_defaults(const std::string& name, const std::string& defaults) {
  const fs::path dir = fs::path(::testing::TempDir()) / name;
  fs::create_directories(dir);
  std::ofstream(dir / "runs.csv") << "model,threads,images_per_s\nresnet18,1,20.5\nresnet18,2,47.3\n";
  std::ofstream(dir / "cases.toml") << defaults
                                    << "\n[[suite]]\nwhere = { threads = \"1\" }\ngroup = \"one\"\n"
                                       "set = { \"system.threads\" = \"{threads}\" }\n"
                                       "\n[[suite]]\nwhere = { threads = \"2\" }\ngroup = \"two\"\n"
                                       "set = { \"system.profile\" = \"other.toml\" }\nbound_mape_pct = 20\n";
  return dir / "cases.toml";
}

// What every suite of a file shares is written once: a suite takes each key it leaves out
// from [defaults], and its set entries join the defaults' (its own winning).
TEST(ValidationCases, SuitesTakeWhatTheyLeaveOutFromDefaults) {
  const auto cases = load_cases(write_with_defaults("dlsim_cases_defaults",
                                                    "[defaults]\ndata = \"runs.csv\"\nscenario = \"s.toml\"\n"
                                                    "set = { \"system.profile\" = \"p.toml\", \"workload.batch\" = 8 }\n"
                                                    "id = \"{model} t{threads}\"\nmeasured = \"images_per_s\"\n"
                                                    "predicted = \"throughput_images_per_s\"\nbound_mape_pct = 10\n")
                                    .string());
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].id, "resnet18 t1");
  EXPECT_EQ(cases[0].group, "one");
  EXPECT_DOUBLE_EQ(cases[0].bound_mape_pct, 10);
  ASSERT_EQ(cases[0].overrides.size(), 3u);
  EXPECT_EQ(cases[0].overrides[0].key, "system.profile");
  EXPECT_EQ(cases[0].overrides[0].value, "p.toml");
  EXPECT_EQ(cases[0].overrides[2].key, "system.threads");
  EXPECT_EQ(cases[0].overrides[2].value, "1");
  EXPECT_EQ(cases[1].group, "two");
  EXPECT_DOUBLE_EQ(cases[1].bound_mape_pct, 20);
  ASSERT_EQ(cases[1].overrides.size(), 2u);
  EXPECT_EQ(cases[1].overrides[0].value, "other.toml");
}

// What loading a file with these [defaults] reports; empty when it loads.
std::string error_with_defaults(const std::string& name, const std::string& defaults) {
  try {
    load_cases(write_with_defaults(name, defaults).string());
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

const std::string kDefaultsStart =
    "[defaults]\ndata = \"runs.csv\"\nscenario = \"s.toml\"\nmeasured = \"images_per_s\"\n"
    "predicted = \"throughput_images_per_s\"\nbound_mape_pct = 10\n";

// A wrong key in [defaults] is reported once, at the line that wrote it.
TEST(ValidationCases, AWrongDefaultIsReportedOnceAtItsLine) {
  const std::string message =
      error_with_defaults("dlsim_cases_defaults_wrong", kDefaultsStart + "id = \"{model}\"\nbound_mape = 12\n");
  EXPECT_EQ(count(message, "defaults.bound_mape'"), 1u) << message;
  EXPECT_NE(message.find("cases.toml:8"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean 'bound_mape_pct'"), std::string::npos) << message;
}

// A default every suite takes, wrong for every row, is one problem, not one per suite and row.
TEST(ValidationCases, AWrongDefaultPlaceholderIsReportedOnce) {
  const std::string message =
      error_with_defaults("dlsim_cases_defaults_placeholder", kDefaultsStart + "id = \"{model} {thread}\"\n");
  EXPECT_EQ(count(message, "defaults.id"), 1u) << message;
  EXPECT_NE(message.find("'threads'"), std::string::npos) << message;
}

}  // namespace
}  // namespace dlsim::scenario
