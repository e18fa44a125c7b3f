// Child processes: dlsim validate's predictions run in forked children, several at a time.
#include <unistd.h>

#include <string>

#include <gtest/gtest.h>

#include "cli/process.hpp"

namespace dlsim::cli {
namespace {

// Children that end in the reverse of their order still give their results in order, each
// with its whole output (more than one pipe buffer) and its exit status.
TEST(RunInChildren, ResultsComeInOrderWithTheirWholeOutputAndStatus) {
  const size_t count = 5;
  const auto results = run_in_children(
      count,
      [](size_t i, std::string& output) {
        usleep(static_cast<useconds_t>((count - i) * 20000));
        output = std::string(100000 + i, static_cast<char>('a' + i));
        return static_cast<int>(i % 2);
      },
      3);
  ASSERT_EQ(results.size(), count);
  for (size_t i = 0; i < count; ++i) {
    EXPECT_EQ(results[i].status, static_cast<int>(i % 2));
    EXPECT_EQ(results[i].output, std::string(100000 + i, static_cast<char>('a' + i)));
  }
}

TEST(RunInChildren, ACrashIsAStatusNotALostResult) {
  const auto results = run_in_children(
      2,
      [](size_t i, std::string& output) {
        output = "partial";
        if (i == 1) abort();
        return 0;
      },
      2);
  EXPECT_EQ(results[0].status, 0);
  EXPECT_EQ(results[0].output, "partial");
  EXPECT_GT(results[1].status, 128);
}

TEST(RunInChildren, NoneAskedNoneRun) { EXPECT_TRUE(run_in_children(0, [](size_t, std::string&) { return 0; }, 2).empty()); }

}  // namespace
}  // namespace dlsim::cli
