// Every malformed input of tests/data/bad_inputs.toml, run through the dlsim executable:
// the exit code is 2 (3 for a valid configuration that cannot run) and the message names
// the file, line and column, the key, the value, what was expected and a suggestion.
#include <string>

#include <gtest/gtest.h>
#include <toml++/toml.h>

#include "support/run_command.hpp"

namespace {

const std::string kDataDir = DLSIM_SOURCE_DIR "/tests/data";

struct Case {
  std::string name;
  std::vector<std::string> args;
  std::vector<std::string> expect;
  std::vector<std::string> env;  // "NAME=value", set for this run only
  int exit_code = 2;
};

std::vector<Case> load_cases() {
  std::vector<Case> cases;
  const auto manifest = toml::parse_file(kDataDir + "/bad_inputs.toml");
  for (const auto& node : *manifest["case"].as_array()) {
    const auto& t = *node.as_table();
    Case c;
    c.name = t["name"].value_or(std::string{});
    for (const auto& a : *t["args"].as_array()) {
      std::string arg = a.value_or(std::string{});
      if (auto pos = arg.find("{dir}"); pos != std::string::npos) arg.replace(pos, 5, kDataDir);
      c.args.push_back(arg);
    }
    for (const auto& e : *t["expect"].as_array()) c.expect.push_back(e.value_or(std::string{}));
    c.exit_code = static_cast<int>(t["exit"].value_or(int64_t{2}));
    if (const auto* env = t["env"].as_table())
      for (const auto& [k, v] : *env) c.env.push_back(std::string(k.str()) + "=" + v.value_or(std::string{}));
    cases.push_back(c);
  }
  return cases;
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class BadInput : public ::testing::TestWithParam<Case> {};

TEST_P(BadInput, ExitsWithAClearMessage) {
  const Case& c = GetParam();
  std::vector<std::string> args = c.env;  // run through env(1) so that the variables reach dlsim
  args.push_back(DLSIM_BINARY);
  args.insert(args.end(), c.args.begin(), c.args.end());
  const auto [code, output] = dlsim::testing::run_command("env", args);
  EXPECT_EQ(code, c.exit_code) << output;
  for (const auto& e : c.expect) EXPECT_NE(output.find(e), std::string::npos) << "missing: " << e << "\n" << output;
  EXPECT_EQ(output.find("internal error"), std::string::npos) << output;
  EXPECT_EQ(output.find("Sanitizer"), std::string::npos) << output;
}

INSTANTIATE_TEST_SUITE_P(Manifest, BadInput, ::testing::ValuesIn(load_cases()),
                         [](const auto& info) { return info.param.name; });

TEST(BadInputManifest, HasAtLeastThirtyCases) { EXPECT_GE(load_cases().size(), 30u); }

}  // namespace
