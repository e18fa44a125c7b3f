#include "core/error.hpp"

#include <gtest/gtest.h>

namespace dlsim {
namespace {

Problem bad_batch(const std::string& value) {
  return Problem{{"scenario.toml", 3, 1}, "workload.batch", value, "a positive integer", ""};
}

size_t problems_thrown(const ProblemList& list) {
  try {
    list.throw_if_any();
  } catch (const InputError& e) {
    return e.problems().size();
  }
  return 0;
}

// A problem met twice (a case file's [defaults] meets every suite; one bad --set given
// twice) is listed once, whether added alone or within an error; different ones all stay.
TEST(ProblemList, ListsAProblemOnceHoweverItArrives) {
  ProblemList list;
  list.add(bad_batch("-1"));
  list.add(bad_batch("-1"));
  list.add(InputError(std::vector<Problem>{bad_batch("-1"), bad_batch("0")}));
  list.add(InputError(bad_batch("0")));
  EXPECT_EQ(problems_thrown(list), 2u);
}

TEST(ProblemList, ThrowsNothingWhenEmpty) {
  ProblemList list;
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(problems_thrown(list), 0u);
}

}  // namespace
}  // namespace dlsim
