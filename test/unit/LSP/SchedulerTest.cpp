//===--- SchedulerTest.cpp - Tests of the server's worker -----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "LSP/Scheduler.h"

#include "gtest/gtest.h"

#include <atomic>
#include <future>
#include <mutex>
#include <string>
#include <vector>

using namespace skc;
using namespace std::chrono_literals;

namespace {

TEST(SchedulerTest, ACheckScheduledAgainWaitsForTheNewestEdit) {
  std::mutex Mutex;
  std::vector<std::string> Ran;
  std::promise<void> Done;
  {
    Scheduler S(/*Synchronous=*/false, /*Debounce=*/200ms);
    for (int Edit = 1; Edit <= 5; ++Edit)
      S.scheduleDebounced("check a.cpp", [&, Edit] {
        std::lock_guard<std::mutex> Lock(Mutex);
        Ran.push_back("a.cpp " + std::to_string(Edit));
      });
    S.scheduleDebounced(
        "check b.cpp",
        [&] {
          std::lock_guard<std::mutex> Lock(Mutex);
          Ran.push_back("b.cpp");
          Done.set_value();
        },
        0ms);
    // A request does not wait for a.cpp's delay.
    std::promise<void> Answered;
    S.schedule([&] {
      std::lock_guard<std::mutex> Lock(Mutex);
      Ran.push_back("request");
      Answered.set_value();
    });
    Answered.get_future().wait();
    Done.get_future().wait();
    // Wait out a.cpp's delay.
    std::this_thread::sleep_for(400ms);
  }
  // The request and b.cpp's check in either order (the worker may start
  // b.cpp's before the request comes), a.cpp's newest edit alone, last.
  ASSERT_EQ(Ran.size(), 3u);
  EXPECT_EQ(Ran.back(), "a.cpp 5");
  EXPECT_TRUE((Ran[0] == "request" && Ran[1] == "b.cpp") ||
              (Ran[0] == "b.cpp" && Ran[1] == "request"));
}

TEST(SchedulerTest, StoppingRunsRequestsAndDropsChecks) {
  std::atomic<int> Requests{0}, Checks{0};
  {
    Scheduler S(/*Synchronous=*/false, /*Debounce=*/10s);
    S.scheduleDebounced("check", [&] { ++Checks; });
    S.scheduleIdle([&] { ++Checks; });
    S.schedule([&] { ++Requests; });
    S.schedule([&] { ++Requests; });
  }
  EXPECT_EQ(Requests, 2);
  EXPECT_EQ(Checks, 0);
}

TEST(SchedulerTest, SynchronousRunsEverythingAtOnce) {
  std::vector<int> Ran;
  Scheduler S(/*Synchronous=*/true, /*Debounce=*/10s);
  S.scheduleDebounced("check", [&] { Ran.push_back(1); });
  S.scheduleIdle([&] { Ran.push_back(2); });
  S.schedule([&] { Ran.push_back(3); });
  EXPECT_EQ(Ran, (std::vector<int>{1, 2, 3}));
}

} // namespace
