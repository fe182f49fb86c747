//===--- FreeListCacheTest.cpp - Per-thread caches of freed blocks --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/util/FreeListCache.h"

#include "sk/core/Allocator.h"
#include "sk/core/EmptyTensor.h"

#include "gtest/gtest.h"

#include <atomic>
#include <thread>
#include <vector>

using namespace sk;

namespace {

/// A policy that counts what it hands out; each test uses its own \p Tag,
/// so that every test starts with empty caches.
template <int Tag> struct CountingPolicy {
  static constexpr unsigned kNumClasses = 2;
  static constexpr size_t kBlockBytes = 32;
  /// Blocks allocated and not yet released, over all threads.
  static inline std::atomic<int> Live{0};
  /// Calls of allocateNew.
  static inline std::atomic<int> Fresh{0};

  static unsigned maxCached(unsigned Class) { return Class == 0 ? 4 : 2; }
  static void *allocateNew(unsigned) {
    ++Live;
    ++Fresh;
    return ::operator new(kBlockBytes);
  }
  static void release(void *Block, unsigned) noexcept {
    --Live;
    ::operator delete(Block);
  }
};

#define SKIP_WITHOUT_CACHES()                                                  \
  if (!kFreeListCachesEnabled)                                                 \
  GTEST_SKIP() << "free-list caches are off in this build (ASan)"

TEST(FreeListCacheTest, FreedBlock_IsReusedByTheNextAllocation) {
  SKIP_WITHOUT_CACHES();
  using P = CountingPolicy<1>;
  using Cache = FreeListCache<P>;
  void *A = Cache::allocate();
  Cache::deallocate(A);
  EXPECT_EQ(Cache::cachedCount(), 1u);
  void *B = Cache::allocate();
  EXPECT_EQ(A, B);
  EXPECT_EQ(P::Fresh, 1);
  EXPECT_EQ(Cache::cachedCount(), 0u);
  Cache::deallocate(B);
  Cache::trim();
  EXPECT_EQ(P::Live, 0);
}

TEST(FreeListCacheTest, Classes_AreSeparate) {
  SKIP_WITHOUT_CACHES();
  using P = CountingPolicy<2>;
  using Cache = FreeListCache<P>;
  void *A = Cache::allocate(0);
  Cache::deallocate(A, 0);
  void *B = Cache::allocate(1);
  EXPECT_NE(A, B);
  EXPECT_EQ(Cache::cachedCount(0), 1u);
  Cache::deallocate(B, 1);
  EXPECT_EQ(Cache::cachedCount(1), 1u);
  Cache::trim();
  EXPECT_EQ(Cache::cachedCount(0), 0u);
  EXPECT_EQ(Cache::cachedCount(1), 0u);
  EXPECT_EQ(P::Live, 0);
}

TEST(FreeListCacheTest, ManyFrees_CacheIsBounded) {
  SKIP_WITHOUT_CACHES();
  using P = CountingPolicy<3>;
  using Cache = FreeListCache<P>;
  std::vector<void *> Blocks;
  for (int I = 0; I != 10; ++I)
    Blocks.push_back(Cache::allocate());
  for (void *B : Blocks)
    Cache::deallocate(B);
  // Class 0 keeps 4; the other 6 went back to the system.
  EXPECT_EQ(Cache::cachedCount(), 4u);
  EXPECT_EQ(P::Live, 4);
  Cache::trim();
  EXPECT_EQ(P::Live, 0);
}

TEST(FreeListCacheTest, FreeOnAnotherThread_IsCachedThereAndFreedAtExit) {
  SKIP_WITHOUT_CACHES();
  using P = CountingPolicy<4>;
  using Cache = FreeListCache<P>;
  void *Block = Cache::allocate();
  size_t CachedThere = 0;
  std::thread T([&] {
    Cache::deallocate(Block);
    CachedThere = Cache::cachedCount();
  });
  T.join();
  EXPECT_EQ(CachedThere, 1u);
  EXPECT_EQ(Cache::cachedCount(), 0u); // not on this thread
  EXPECT_EQ(P::Live, 0);               // the exiting thread freed it
}

TEST(FreeListCacheTest, ThreadExit_FreesEveryCachedBlock) {
  SKIP_WITHOUT_CACHES();
  using P = CountingPolicy<5>;
  using Cache = FreeListCache<P>;
  std::thread T([] {
    std::vector<void *> Blocks;
    for (int I = 0; I != 3; ++I) {
      Blocks.push_back(Cache::allocate(0));
      Blocks.push_back(Cache::allocate(1));
    }
    for (size_t I = 0; I != Blocks.size(); ++I)
      Cache::deallocate(Blocks[I], static_cast<unsigned>(I % 2));
  });
  T.join();
  EXPECT_EQ(P::Fresh, 6);
  EXPECT_EQ(P::Live, 0);
}

/// Frees a block when the thread that owns it exits.
template <typename Cache> struct FreeAtExit {
  void *Block = nullptr;
  ~FreeAtExit() { Cache::deallocate(Block); }
};

TEST(FreeListCacheTest, FreeAfterTheReaperRan_GoesStraightToTheSystem) {
  SKIP_WITHOUT_CACHES();
  using P = CountingPolicy<6>;
  using Cache = FreeListCache<P>;
  std::thread T([] {
    // Constructed before the reaper is armed, so destroyed after it ran.
    static thread_local FreeAtExit<Cache> Late;
    Late.Block = Cache::allocate();
    Cache::deallocate(Cache::allocate()); // arms the reaper
  });
  T.join();
  EXPECT_EQ(P::Live, 0);
}

TEST(FreeListCacheTest, ConcurrentThreads_KeepTheirOwnLists) {
  SKIP_WITHOUT_CACHES();
  using P = CountingPolicy<7>;
  using Cache = FreeListCache<P>;
  auto Churn = [] {
    for (int I = 0; I != 1000; ++I) {
      void *A = Cache::allocate(I % 2);
      void *B = Cache::allocate(I % 2);
      Cache::deallocate(A, I % 2);
      Cache::deallocate(B, I % 2);
    }
  };
  std::thread T1(Churn), T2(Churn);
  T1.join();
  T2.join();
  EXPECT_EQ(P::Live, 0);
  // Each thread allocated fresh blocks only until its lists had some.
  EXPECT_LE(P::Fresh, 8);
}

TEST(FreeListCacheTest, TensorImpls_AreReused) {
  SKIP_WITHOUT_CACHES();
  Tensor A = detail::empty_meta({2, 3}, kFloat);
  const TensorImpl *First = A.unsafeGetTensorImpl();
  A.reset();
  Tensor B = detail::empty_meta({4}, kHalf);
  EXPECT_EQ(B.unsafeGetTensorImpl(), First);
  EXPECT_EQ(B.sizes(), IntArrayRef({4}));
  EXPECT_EQ(B.dtype(), kHalf);
  B.unsafeGetTensorImpl()->checkInvariants();
}

TEST(FreeListCacheTest, SmallCPUBlocks_AreReusedAndStayAligned) {
  SKIP_WITHOUT_CACHES();
  detail::trimCPUBlockCache();
  for (int64_t Numel : {1, 16, 17, 100, 256}) {
    size_t Bytes = static_cast<size_t>(Numel) * sizeof(float);
    Tensor A = detail::empty_cpu({Numel}, kFloat);
    void *First = A.data_ptr();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(First) % kCPUAlignment, 0u);
    A.reset();
    EXPECT_EQ(detail::cachedCPUBlocks(Bytes), 1u) << Numel;
    Tensor B = detail::empty_cpu({Numel}, kFloat);
    EXPECT_EQ(B.data_ptr(), First) << Numel;
    EXPECT_EQ(detail::cachedCPUBlocks(Bytes), 0u) << Numel;
  }
  // Blocks of one power-of-two class serve each other's sizes.
  Tensor C = detail::empty_cpu({20}, kFloat); // 80 bytes: the 128 class
  void *Data = C.data_ptr();
  C.reset();
  Tensor D = detail::empty_cpu({32}, kFloat); // 128 bytes
  EXPECT_EQ(D.data_ptr(), Data);
}

TEST(FreeListCacheTest, LargeCPUBlocks_AreNotCached) {
  Tensor A = detail::empty_cpu({4096}, kFloat);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(A.data_ptr()) % kCPUAlignment, 0u);
  A.reset();
  EXPECT_EQ(detail::cachedCPUBlocks(4096 * sizeof(float)), 0u);
}

} // namespace
