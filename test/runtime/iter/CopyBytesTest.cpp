//===--- CopyBytesTest.cpp - copyBytes against memcpy ---------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/CopyBytes.h"

#include <hwy/targets.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

/// Copies every length around the vector loop's steps and the memcpy
/// cut-off, at every offset of a vector, and checks each byte, and that
/// no byte past the end was written.
void expectCopiesLikeMemcpy() {
  constexpr size_t kMax = (size_t(1) << 16) + 200;
  std::vector<uint8_t> Src(kMax + 64), Dst(kMax + 64 + 8);
  for (size_t I = 0; I != Src.size(); ++I)
    Src[I] = static_cast<uint8_t>(I * 131 + 7);
  std::vector<size_t> Lengths = {0,    1,    63,    4095,           4096,
                                 4097, 5000, 65535, size_t(1) << 16};
  for (size_t N = 4096 - 130; N != 4096 + 130; ++N)
    Lengths.push_back(N);
  for (size_t N : Lengths)
    for (size_t SrcOffset : {0, 1, 31, 32}) {
      size_t DstOffset = (SrcOffset * 7 + 3) % 64;
      std::fill(Dst.begin(), Dst.end(), uint8_t(0xA5));
      sk::copyBytes(Dst.data() + DstOffset, Src.data() + SrcOffset, N);
      SCOPED_TRACE("N " + std::to_string(N) + ", offsets " +
                   std::to_string(SrcOffset) + "/" + std::to_string(DstOffset));
      for (size_t I = 0; I != N; ++I)
        ASSERT_EQ(Dst[DstOffset + I], Src[SrcOffset + I]) << I;
      for (size_t I = 0; I != DstOffset; ++I)
        ASSERT_EQ(Dst[I], 0xA5) << "before, at " << I;
      for (size_t I = DstOffset + N; I != Dst.size(); ++I)
        ASSERT_EQ(Dst[I], 0xA5) << "past the end, at " << I;
    }
}

TEST(CopyBytesTest, EveryTarget_CopiesExactlyTheBytes) {
  int64_t Supported = hwy::SupportedTargets();
  for (int64_t T : {HWY_AVX3, HWY_AVX2, HWY_SSE4, HWY_EMU128}) {
    if (!(Supported & T))
      continue;
    SCOPED_TRACE(hwy::TargetName(T));
    // Every better target (a lower bit) off: dispatch picks this one, or
    // the best the source was compiled for below it.
    hwy::DisableTargets(T - 1);
    expectCopiesLikeMemcpy();
    hwy::DisableTargets(0);
  }
}

} // namespace
