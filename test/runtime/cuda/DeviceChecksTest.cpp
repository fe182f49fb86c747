//===--- DeviceChecksTest.cpp - Checks kernels make, reported later -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The table of Note [Device checks] driven directly: a check's record is
// written by a copy where an operator's kernel would write it, so each
// path (handed, dropped, another stream's, a full table) is reached on
// purpose rather than by a race.
//
//===----------------------------------------------------------------------===//

#include "CUDATestUtils.h"

#include "sk/cuda/CUDAException.h"
#include "sk/cuda/CUDAFunctions.h"
#include "sk/cuda/DeviceChecks.h"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace sk;
using namespace sk::cuda;

namespace {

/// Records a failure in \p C on the current stream, after the zeroing its
/// constructor queued there, as a kernel would.
void fail(const DeviceCheck &C, unsigned long long Code,
          unsigned long long Value) {
  // Pageable: the call returns once it has taken the bytes.
  DeviceCheckRecord R{Code, Value};
  SK_CUDA_CHECK(cudaMemcpyAsync(C.get(), &R, sizeof(R), cudaMemcpyHostToDevice,
                                getCurrentCUDAStream().stream()));
}

class DeviceChecksTest : public test::CUDATest {
protected:
  void SetUp() override {
    // Each check is read at reportLater under CUDA_LAUNCH_BLOCKING=1; the
    // tests choose, and TearDown puts it back.
    if (const char *E = std::getenv("CUDA_LAUNCH_BLOCKING"))
      LaunchBlocking = E;
    ::unsetenv("CUDA_LAUNCH_BLOCKING");
    test::CUDATest::SetUp();
    if (IsSkipped())
      return;
    set_device(0);
    // No failure of an earlier test is left for this one's waits.
    device_synchronize();
  }

  void TearDown() override {
    if (LaunchBlocking)
      ::setenv("CUDA_LAUNCH_BLOCKING", LaunchBlocking->c_str(), 1);
    else
      ::unsetenv("CUDA_LAUNCH_BLOCKING");
  }

  /// A report that throws "check <Code> failed at <Value>", and counts
  /// its calls (in a count that outlives the test, as a failure the test
  /// did not expect outlives it in the table).
  DeviceCheckReport report() {
    return [Count = Reports](int64_t Code, int64_t Value) {
      ++*Count;
      SK_CHECK(false, "check ", Code, " failed at ", Value);
    };
  }

  /// A check made on \p S that failed with \p Code and \p Value, handed
  /// back.
  void failedCheckOn(CUDAStream S, unsigned long long Code,
                     unsigned long long Value) {
    CUDAStreamGuard Guard(S);
    DeviceCheck C;
    fail(C, Code, Value);
    C.reportLater(report());
  }

  std::shared_ptr<int> Reports = std::make_shared<int>(0);
  std::optional<std::string> LaunchBlocking;
};

TEST_F(DeviceChecksTest, PassedCheck_ReportsNothing) {
  DeviceCheck C;
  C.reportLater(report());
  EXPECT_NO_THROW(getCurrentCUDAStream().synchronize());
  EXPECT_NO_THROW(device_synchronize());
  EXPECT_EQ(*Reports, 0);
}

TEST_F(DeviceChecksTest, HandedFailure_ThrowsAtTheStreamsWaitOnce) {
  DeviceCheck C;
  fail(C, 2, 42);
  C.reportLater(report());
  SK_EXPECT_ERROR(getCurrentCUDAStream().synchronize(), "check 2 failed at 42");
  EXPECT_NO_THROW(getCurrentCUDAStream().synchronize());
  EXPECT_NO_THROW(device_synchronize());
  EXPECT_EQ(*Reports, 1);
}

TEST_F(DeviceChecksTest, DroppedFailure_IsNeverReported) {
  {
    DeviceCheck C; // destroyed without reportLater: an operator that threw
    fail(C, 2, 42);
  }
  EXPECT_NO_THROW(getCurrentCUDAStream().synchronize());
  EXPECT_NO_THROW(device_synchronize());
}

TEST_F(DeviceChecksTest, SeveralFailuresOfAStream_TheFirstMadeThrows) {
  DeviceCheck First, Second;
  fail(Second, 3, 7);
  fail(First, 2, 42);
  // Handed in the other order: what counts is the order they were made.
  Second.reportLater(report());
  First.reportLater(report());
  SK_EXPECT_ERROR(getCurrentCUDAStream().synchronize(), "check 2 failed at 42");
  // The second's input may be the first's wrong result: dropped.
  EXPECT_NO_THROW(getCurrentCUDAStream().synchronize());
  EXPECT_EQ(*Reports, 1);
}

TEST_F(DeviceChecksTest, AnotherStreamsFailure_WaitsForThatStream) {
  CUDAStream Side = getStreamFromPool(0);
  failedCheckOn(Side, 2, 42);
  EXPECT_NO_THROW(getCurrentCUDAStream().synchronize());
  SK_EXPECT_ERROR(Side.synchronize(), "check 2 failed at 42");
  EXPECT_NO_THROW(Side.synchronize());
}

TEST_F(DeviceChecksTest, DeviceWait_ThrowsTheFirstOfAnyStreamAndKeepsTheRest) {
  CUDAStream A = getStreamFromPool(0), B = getStreamFromPool(0);
  ASSERT_NE(A, B);
  failedCheckOn(A, 5, 1);
  failedCheckOn(B, 5, 2);
  SK_EXPECT_ERROR(device_synchronize(), "check 5 failed at 1");
  // B's failure stays for B's next wait (or the device's).
  EXPECT_NO_THROW(A.synchronize());
  SK_EXPECT_ERROR(B.synchronize(), "check 5 failed at 2");
  EXPECT_NO_THROW(device_synchronize());
}

TEST_F(DeviceChecksTest, ConcurrentWaitsForAStream_OneThrows) {
  CUDAStream Side = getStreamFromPool(0);
  for (int Round = 0; Round < 100; ++Round) {
    failedCheckOn(Side, 2, Round);
    std::atomic<int> Thrown{0};
    auto Wait = [&] {
      try {
        Side.synchronize();
      } catch (const Error &) {
        ++Thrown;
      }
    };
    std::thread Other(Wait);
    Wait();
    Other.join();
    ASSERT_EQ(Thrown.load(), 1) << "round " << Round;
  }
  EXPECT_EQ(*Reports, 100);
}

TEST_F(DeviceChecksTest, FullTable_ReadsItselfAndKeepsFailuresForTheirStream) {
  CUDAStream Side = getStreamFromPool(0);
  failedCheckOn(Side, 2, 42);
  // Enough passed checks on this stream that a new one finds every slot
  // pending and reads them all, the side stream's failure with them.
  for (int I = 0; I < kDeviceCheckSlots + 1; ++I)
    DeviceCheck().reportLater(report());
  EXPECT_NO_THROW(getCurrentCUDAStream().synchronize());
  SK_EXPECT_ERROR(Side.synchronize(), "check 2 failed at 42");
  EXPECT_EQ(*Reports, 1);
}

TEST_F(DeviceChecksTest, EverySlotOpen_ThrowsThatTooManyAreChecking) {
  std::vector<std::unique_ptr<DeviceCheck>> Open;
  for (int I = 0; I < kDeviceCheckSlots; ++I)
    Open.push_back(std::make_unique<DeviceCheck>());
  SK_EXPECT_ERROR(DeviceCheck OneTooMany,
                  "more than 1024 CUDA operators are checking their input at "
                  "once on device 0");
  // Dropped, they are read and their slots freed by the next check.
  Open.clear();
  std::unique_ptr<DeviceCheck> Next;
  EXPECT_NO_THROW(Next = std::make_unique<DeviceCheck>());
  Next->reportLater(report());
  EXPECT_NO_THROW(device_synchronize());
}

TEST_F(DeviceChecksTest, LaunchBlocking_ReportLaterThrows) {
  ::setenv("CUDA_LAUNCH_BLOCKING", "1", /*overwrite=*/1);
  DeviceCheck C;
  fail(C, 2, 42);
  SK_EXPECT_ERROR(C.reportLater(report()), "check 2 failed at 42");
  // Thrown once: not again at the wait.
  EXPECT_NO_THROW(getCurrentCUDAStream().synchronize());
}

} // namespace
