#include <gtest/gtest.h>

#include "core/csv.hpp"
#include "core/error.hpp"

namespace dlsim {
namespace {

TEST(Csv, ReadsQuotedFieldsAndLines) {
  const auto t = parse_csv("a,b,c\n1,\"x, y\",\"say \"\"hi\"\"\"\r\n\n2,,\"multi\nline\"\n3,z,w", "t.csv");
  ASSERT_EQ(t.columns, (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[0].fields.at("b"), "x, y");
  EXPECT_EQ(t.rows[0].fields.at("c"), "say \"hi\"");
  EXPECT_EQ(t.rows[1].line, 4);
  EXPECT_EQ(t.rows[1].fields.at("c"), "multi\nline");
  EXPECT_EQ(t.rows[2].line, 6);
}

TEST(Csv, NamesTheLineOfARaggedRow) {
  try {
    parse_csv("a,b\n1,2\n3\n", "r.csv");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("r.csv:3"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_csv("a\n\"open\n", "q.csv"), InputError);
}

}  // namespace
}  // namespace dlsim
