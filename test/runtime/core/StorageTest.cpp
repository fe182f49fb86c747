//===--- StorageTest.cpp - Growing a storage ------------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/Storage.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

using namespace sk;

namespace {

/// A device allocator whose memory the host may not read: copies go
/// through copyData, which it counts.
class CountingAllocator final : public Allocator {
public:
  DataPtr allocate(size_t NBytes) override {
    return DataPtr(NBytes ? std::malloc(NBytes) : nullptr, &std::free,
                   Device(DeviceType::PrivateUse1, 0));
  }
  void copyData(void *Dst, const void *Src, size_t N) const override {
    ++Copies;
    CopiedBytes += N;
    std::memcpy(Dst, Src, N);
  }
  mutable int Copies = 0;
  mutable size_t CopiedBytes = 0;
};

TEST(StorageTest, Grow_CopiesThroughTheAllocator) {
  CountingAllocator Alloc;
  Storage S = Storage::make(16, &Alloc, /*Resizable=*/true);
  std::memset(S->data(), 7, 16);
  S->grow(64);
  EXPECT_EQ(S->nbytes(), 64u);
  EXPECT_EQ(Alloc.Copies, 1);
  EXPECT_EQ(Alloc.CopiedBytes, 16u);
  for (int I = 0; I < 16; ++I)
    EXPECT_EQ(static_cast<const char *>(S->data())[I], 7) << I;
  // Nothing to keep, nothing copied; no growth, no allocation.
  Storage Empty = Storage::make(0, &Alloc, /*Resizable=*/true);
  Empty->grow(32);
  S->grow(8);
  EXPECT_EQ(Alloc.Copies, 1);
}

} // namespace
