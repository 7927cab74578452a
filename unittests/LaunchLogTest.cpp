//===- LaunchLogTest.cpp - Tests for the runtime's launch records ---------===//
//
// Part of the ThreadBind project.
//
//===----------------------------------------------------------------------===//

#include "../lib/Runtime/LaunchLog.h"

#include "gtest/gtest.h"

using threadbind::runtime::LaunchLog;

namespace {

TEST(LaunchLogTest, CountsEveryLaunchAndKeepsTheLatest) {
  LaunchLog<int> log(4);
  for (int i = 0; i < 4; ++i)
    EXPECT_FALSE(log.push(i).has_value());
  // The fifth pushes out the first, which the caller releases.
  std::optional<int> dropped = log.push(4);
  ASSERT_TRUE(dropped.has_value());
  EXPECT_EQ(*dropped, 0);
  for (int i = 5; i < 10; ++i)
    log.push(i);
  EXPECT_EQ(log.count(), 10);
  EXPECT_EQ(log.find(5), nullptr);
  for (int i = 6; i < 10; ++i) {
    ASSERT_NE(log.find(i), nullptr) << i;
    EXPECT_EQ(*log.find(i), i);
  }
  EXPECT_EQ(log.find(10), nullptr);
  EXPECT_EQ(log.find(-1), nullptr);
}

TEST(LaunchLogTest, ClearStartsAgainAndHandsBackWhatItKept) {
  LaunchLog<int> log(3);
  for (int i = 0; i < 5; ++i)
    log.push(i);
  std::deque<int> kept = log.clear();
  EXPECT_EQ(kept, (std::deque<int>{2, 3, 4}));
  EXPECT_EQ(log.count(), 0);
  EXPECT_EQ(log.find(0), nullptr);
  log.push(7);
  ASSERT_NE(log.find(0), nullptr);
  EXPECT_EQ(*log.find(0), 7);
}

} // namespace
