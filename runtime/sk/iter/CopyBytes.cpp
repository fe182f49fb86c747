//===--- CopyBytes.cpp - Bulk copies of bytes -----------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

// A copy streams through memory: AVX2 at most (Note [AVX-512 and
// bandwidth-bound kernels] in sk/iter/Loops.h).
#undef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (SKC_HWY_DISABLED_TARGETS | HWY_AVX3 | HWY_AVX3_DL)

#include "sk/iter/CopyBytes.h"

#include <cstdint>
#include <cstring>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "sk/iter/CopyBytes.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace sk {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void copyBytesImpl(void *Dst, const void *Src, size_t N) {
  const hn::ScalableTag<uint8_t> D;
  const size_t L = hn::Lanes(D);
  auto *To = static_cast<uint8_t *>(Dst);
  const auto *From = static_cast<const uint8_t *>(Src);
  size_t I = 0;
  // Four vectors per step: one load and one store in flight per port.
  for (; I + 4 * L <= N; I += 4 * L) {
    auto V0 = hn::LoadU(D, From + I);
    auto V1 = hn::LoadU(D, From + I + L);
    auto V2 = hn::LoadU(D, From + I + 2 * L);
    auto V3 = hn::LoadU(D, From + I + 3 * L);
    hn::StoreU(V0, D, To + I);
    hn::StoreU(V1, D, To + I + L);
    hn::StoreU(V2, D, To + I + 2 * L);
    hn::StoreU(V3, D, To + I + 3 * L);
  }
  std::memcpy(To + I, From + I, N - I);
}

} // namespace HWY_NAMESPACE
} // namespace sk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sk {
HWY_EXPORT(copyBytesImpl);

void copyBytes(void *Dst, const void *Src, size_t N) {
  // A short copy touches a page or two: memcpy is as fast, and saves the
  // dispatch.
  if (N < 4096) {
    std::memcpy(Dst, Src, N);
    return;
  }
  HWY_DYNAMIC_DISPATCH(copyBytesImpl)(Dst, Src, N);
}
} // namespace sk
#endif
