//===--- CUDACachingAllocatorTest.cpp - The CUDA caching allocator --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CUDATestUtils.h"

#include "sk/cuda/CUDACachingAllocator.h"
#include "sk/cuda/CUDAException.h"
#include "sk/ops/Factories.h"

#include <atomic>
#include <thread>

using namespace sk;
using namespace sk::cuda;
namespace CCA = sk::cuda::CUDACachingAllocator;

// The rounding needs no GPU.
TEST(CUDACachingAllocatorRoundingTest, SmallSizes_RoundTo512Bytes) {
  EXPECT_EQ(CCA::roundSize(1), 512u);
  EXPECT_EQ(CCA::roundSize(512), 512u);
  EXPECT_EQ(CCA::roundSize(513), 1024u);
  EXPECT_EQ(CCA::roundSize(1000), 1024u);
  EXPECT_EQ(CCA::roundSize((1 << 20) - 1), size_t(1) << 20);
  EXPECT_EQ(CCA::roundSize(1 << 20), size_t(1) << 20);
}

TEST(CUDACachingAllocatorRoundingTest, LargeSizes_RoundTo2MiB) {
  EXPECT_EQ(CCA::roundSize((1 << 20) + 1), size_t(2) << 20);
  EXPECT_EQ(CCA::roundSize(size_t(2) << 20), size_t(2) << 20);
  EXPECT_EQ(CCA::roundSize((size_t(2) << 20) + 1), size_t(4) << 20);
  EXPECT_EQ(CCA::roundSize(size_t(1) << 30), size_t(1) << 30);
}

TEST(CUDACachingAllocatorRoundingTest, BlockFits_SmallExactLargeWithinHalf) {
  // Small blocks serve their own size only.
  EXPECT_TRUE(CCA::blockFits(1024, 1024));
  EXPECT_FALSE(CCA::blockFits(1536, 1024));
  EXPECT_FALSE(CCA::blockFits(512, 1024));
  // Large blocks serve requests of at least half their size.
  constexpr size_t MiB = size_t(1) << 20;
  EXPECT_TRUE(CCA::blockFits(4 * MiB, 2 * MiB));
  EXPECT_TRUE(CCA::blockFits(8 * MiB, 4 * MiB));
  EXPECT_FALSE(CCA::blockFits(10 * MiB, 4 * MiB));
  EXPECT_FALSE(CCA::blockFits(2 * MiB, 4 * MiB));
  // A large block never serves a small request.
  EXPECT_FALSE(CCA::blockFits(2 * MiB, MiB));
}

class CUDACachingAllocatorTest : public test::CUDATest {
protected:
  void SetUp() override {
    test::CUDATest::SetUp();
    if (IsSkipped())
      return;
    set_device(0);
    device_synchronize();
    CCA::emptyCache();
    CCA::resetAccumulatedStats(0);
  }
};

TEST_F(CUDACachingAllocatorTest, FreedBlock_IsReusedForTheSameBucket) {
  void *First;
  {
    DataPtr P = CCA::get()->allocate(1000);
    First = P.get();
    EXPECT_EQ(P.device(), Device("cuda:0"));
    EXPECT_EQ(CCA::getDeviceStats(0).AllocatedBytes, 1024u);
  }
  EXPECT_EQ(CCA::getDeviceStats(0).AllocatedBytes, 0u);
  EXPECT_EQ(CCA::getDeviceStats(0).ReservedBytes, 1024u);
  // 600 bytes round to the same 1024-byte bucket.
  DataPtr Q = CCA::get()->allocate(600);
  EXPECT_EQ(Q.get(), First);
  EXPECT_EQ(CCA::getDeviceStats(0).NumCudaMallocs, 1u);
  // Another bucket needs a new block.
  DataPtr R = CCA::get()->allocate(2048);
  EXPECT_NE(R.get(), First);
  EXPECT_EQ(CCA::getDeviceStats(0).NumCudaMallocs, 2u);
}

TEST_F(CUDACachingAllocatorTest, LargeBlock_ServesSmallerLargeRequests) {
  constexpr size_t MiB = size_t(1) << 20;
  void *First;
  {
    DataPtr P = CCA::get()->allocate(6 * MiB);
    First = P.get();
  }
  DataPtr Q = CCA::get()->allocate(4 * MiB);
  EXPECT_EQ(Q.get(), First);
  EXPECT_EQ(CCA::getDeviceStats(0).AllocatedBytes, 6 * MiB);
}

TEST_F(CUDACachingAllocatorTest, EmptyCache_ReturnsFreeBlocks) {
  {
    DataPtr P = CCA::get()->allocate(3 << 20);
    DataPtr Q = CCA::get()->allocate(100);
  }
  DataPtr Kept = CCA::get()->allocate(100);
  EXPECT_GT(CCA::getDeviceStats(0).ReservedBytes, 512u);
  CCA::emptyCache();
  CCA::DeviceStats S = CCA::getDeviceStats(0);
  EXPECT_EQ(S.ReservedBytes, 512u);
  EXPECT_EQ(S.AllocatedBytes, 512u);
  EXPECT_EQ(S.NumCudaFrees, 1u);
}

TEST_F(CUDACachingAllocatorTest, ZeroBytes_GivesNullWithoutMalloc) {
  DataPtr P = CCA::get()->allocate(0);
  EXPECT_FALSE(P);
  EXPECT_EQ(CCA::getDeviceStats(0).NumCudaMallocs, 0u);
}

TEST_F(CUDACachingAllocatorTest, BlocksBelongToTheirAllocationStream) {
  CUDAStream Side = getStreamFromPool(0);
  void *OnDefault;
  {
    DataPtr P = CCA::get()->allocate(4096);
    OnDefault = P.get();
  }
  CUDAStreamGuard Guard(Side);
  DataPtr Q = CCA::get()->allocate(4096);
  EXPECT_NE(Q.get(), OnDefault);
}

// A block used on a second stream is reused only once the work queued on
// that stream at its free has completed. The second stream is held by a
// host function that waits for the test.
TEST_F(CUDACachingAllocatorTest, RecordStream_DelaysReuseUntilStreamDone) {
  CUDAStream Side = getStreamFromPool(0);
  std::atomic<bool> Release{false};
  auto Wait = [](void *Flag) {
    while (!static_cast<std::atomic<bool> *>(Flag)->load())
      std::this_thread::yield();
  };
  void *Freed;
  {
    DataPtr P = CCA::get()->allocate(8192);
    Freed = P.get();
    SK_CUDA_CHECK(cudaLaunchHostFunc(Side.stream(), Wait, &Release));
    CCA::recordStream(P, Side);
  }
  EXPECT_EQ(CCA::getDeviceStats(0).PendingFreeBytes, 8192u);
  {
    DataPtr Busy = CCA::get()->allocate(8192);
    EXPECT_NE(Busy.get(), Freed) << "reused while its stream was busy";
  }
  Release = true;
  Side.synchronize();
  DataPtr Later = CCA::get()->allocate(8192);
  EXPECT_EQ(CCA::getDeviceStats(0).PendingFreeBytes, 0u);
  // The freed block and the one allocated meanwhile are both cached now;
  // best fit takes the lower address, so check membership instead.
  DataPtr Other = CCA::get()->allocate(8192);
  EXPECT_TRUE(Later.get() == Freed || Other.get() == Freed);
}

TEST_F(CUDACachingAllocatorTest, RecordStream_OnOwnStreamIsANoOp) {
  {
    DataPtr P = CCA::get()->allocate(512);
    CCA::recordStream(P, getCurrentCUDAStream(0));
  }
  EXPECT_EQ(CCA::getDeviceStats(0).PendingFreeBytes, 0u);
}

TEST_F(CUDACachingAllocatorTest, RecordStream_OfForeignPointerFails) {
  int Host = 0;
  DataPtr Foreign(&Host, nullptr, Device("cuda:0"));
  SK_EXPECT_ERROR(CCA::recordStream(Foreign, getCurrentCUDAStream(0)),
                  "was not allocated by the CUDA caching allocator");
}

TEST_F(CUDACachingAllocatorTest, RecordStream_OfStorage) {
  Tensor T = zeros({256}, Device("cuda:0"));
  CUDAStream Side = getStreamFromPool(0);
  CCA::recordStream(T, Side);
  T = Tensor();
  Side.synchronize();
  DataPtr P = CCA::get()->allocate(1024); // processes the finished events
  EXPECT_EQ(CCA::getDeviceStats(0).PendingFreeBytes, 0u);
}

TEST_F(CUDACachingAllocatorTest, OutOfMemory_ReleasesCacheRetriesAndThrows) {
  { DataPtr Cached = CCA::get()->allocate(4 << 20); }
  EXPECT_EQ(CCA::getDeviceStats(0).ReservedBytes, size_t(4) << 20);
  SK_EXPECT_ERROR_TYPE(CCA::get()->allocate(size_t(1) << 50), CUDAError,
                       "CUDA out of memory: tried to allocate");
  CCA::DeviceStats S = CCA::getDeviceStats(0);
  EXPECT_EQ(S.NumOOMRetries, 1u);
  // The retry released the cached block.
  EXPECT_EQ(S.ReservedBytes, 0u);
  // The error was cleared: the next allocation works.
  EXPECT_TRUE(CCA::get()->allocate(512));
}

TEST_F(CUDACachingAllocatorTest, TempStorage_ComesFromTheCache) {
  void *First;
  {
    DataPtr Temp = CCA::allocateTempStorage(3000);
    First = Temp.get();
    EXPECT_EQ(CCA::getDeviceStats(0).AllocatedBytes, 3072u);
  }
  DataPtr Again = CCA::allocateTempStorage(3000);
  EXPECT_EQ(Again.get(), First);
}
