//===--- Allocator.cpp - Device memory allocation -------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/Allocator.h"
#include "sk/util/Exception.h"
#include "sk/util/FreeListCache.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace sk {

namespace {

/// Note [Aligned CPU memory]
/// aligned_alloc takes glibc's slow memalign path on every call, which made
/// it the largest cost of creating a small tensor. Instead we over-allocate
/// with malloc (its per-thread caches make small blocks cheap), round up to
/// the alignment, and keep malloc's pointer in the word just before the
/// block for the deleter. malloc's result is 16-byte aligned, so there is
/// always room for that word.
void *allocateAligned(size_t NBytes) {
  SK_CHECK(NBytes <= SIZE_MAX - kCPUAlignment,
           "CPU allocator: cannot allocate ", NBytes, " bytes");
  void *Raw = std::malloc(NBytes + kCPUAlignment);
  SK_CHECK(Raw, "CPU allocator: out of memory trying to allocate ", NBytes,
           " bytes");
  auto Address = reinterpret_cast<uintptr_t>(Raw);
  auto Aligned = reinterpret_cast<void **>(
      (Address + kCPUAlignment) & ~uintptr_t(kCPUAlignment - 1));
  Aligned[-1] = Raw;
  return Aligned;
}

void freeAligned(void *Aligned) {
  std::free(static_cast<void **>(Aligned)[-1]);
}

/// Note [Huge pages for large CPU blocks]
/// glibc maps a block of 32 MiB or more (DEFAULT_MMAP_THRESHOLD_MAX, see
/// mallopt(3)) afresh on every allocation and unmaps it when freed, so each
/// such tensor faults all its pages in again: 16K faults for 64 MiB, most
/// of the time of a pointwise op that makes one. Such a block starts on a
/// 2 MiB boundary and asks the kernel for transparent huge pages
/// (MADV_HUGEPAGE), as c10's alloc_cpu does under THP_MEM_ALLOC_ENABLE;
/// where the kernel's THP mode is "madvise" (Debian's default), that is
/// the only way to get them. It then faults in 2 MiB at a time, and a loop
/// streaming through it misses the TLB 512 times less often (the figures
/// are in docs/performance.md). Smaller blocks stay as they are: glibc
/// reuses them from its heap without faults, which huge pages would not
/// beat. The advice covers only whole huge pages inside the block, so its
/// tail never pins a huge page it does not use. SKC_CPU_HUGE_PAGES=0 turns
/// this off.
void *allocateLarge(size_t NBytes) {
  if (!detail::cpuHugePagesEnabled())
    return allocateAligned(NBytes);
  void *P = nullptr;
  SK_CHECK(posix_memalign(&P, kCPUHugePageBytes, NBytes) == 0,
           "CPU allocator: out of memory trying to allocate ", NBytes,
           " bytes");
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Advice is best effort: a kernel without THP refuses it, and the block
  // is still good memory.
  (void)madvise(P, NBytes & ~(kCPUHugePageBytes - 1), MADV_HUGEPAGE);
#endif
  return P;
}

void freeLarge(void *P) {
  if (!detail::cpuHugePagesEnabled())
    return freeAligned(P);
  std::free(P);
}

/// Note [Small CPU blocks]
/// Data blocks of at most kLargestCachedBlock bytes come in power-of-two
/// classes from kSmallestCachedBlock up and are cached per thread
/// (Note [Per-thread free lists]); the class is known to the deleter, one
/// function per class, so a DataPtr needs no room for it. Each class keeps
/// at most kMaxCachedBlocks blocks: 150 KiB per thread when all are full.
constexpr size_t kSmallestCachedBlock = kCPUAlignment;
constexpr unsigned kNumBlockClasses = 5;
constexpr size_t kLargestCachedBlock = kSmallestCachedBlock
                                       << (kNumBlockClasses - 1);
constexpr unsigned kMaxCachedBlocks = 64;

struct CPUBlockPolicy {
  static constexpr unsigned kNumClasses = kNumBlockClasses;
  static size_t blockBytes(unsigned Class) {
    return kSmallestCachedBlock << Class;
  }
  static unsigned maxCached(unsigned) { return kMaxCachedBlocks; }
  static void *allocateNew(unsigned Class) {
    return allocateAligned(blockBytes(Class));
  }
  static void release(void *Block, unsigned) noexcept { freeAligned(Block); }
};
using CPUBlockCache = FreeListCache<CPUBlockPolicy>;

/// The class of a block of \p NBytes (1 <= NBytes <= kLargestCachedBlock).
unsigned blockClassOf(size_t NBytes) {
  if (NBytes <= kSmallestCachedBlock)
    return 0;
  // ceil(log2(NBytes)) - log2(kSmallestCachedBlock).
  return static_cast<unsigned>(64 - __builtin_clzll(NBytes - 1)) -
         static_cast<unsigned>(__builtin_ctzll(kSmallestCachedBlock));
}

template <unsigned Class> void freeCachedBlock(void *Block) {
  CPUBlockCache::deallocate(Block, Class);
}

constexpr DeleterFn kCachedBlockDeleters[kNumBlockClasses] = {
    &freeCachedBlock<0>, &freeCachedBlock<1>, &freeCachedBlock<2>,
    &freeCachedBlock<3>, &freeCachedBlock<4>};

class CPUAllocator final : public Allocator {
public:
  constexpr CPUAllocator() = default;
  DataPtr allocate(size_t NBytes) override {
    if (NBytes == 0)
      return DataPtr(nullptr, nullptr, kCPU);
    if (NBytes <= kLargestCachedBlock) {
      unsigned Class = blockClassOf(NBytes);
      return DataPtr(CPUBlockCache::allocate(Class),
                     kCachedBlockDeleters[Class], kCPU);
    }
    if (NBytes >= kCPUHugePageBlockBytes)
      return DataPtr(allocateLarge(NBytes), &freeLarge, kCPU);
    return DataPtr(allocateAligned(NBytes), &freeAligned, kCPU);
  }
};

// Constant-initialized, so that every allocation, static initializers'
// included, reads its slot without the guard of a function-local static.
CPUAllocator TheCPUAllocator;
Allocator *AllocatorSlots[NumDeviceTypes] = {&TheCPUAllocator};

Allocator *&allocatorSlot(DeviceType T) {
  return AllocatorSlots[static_cast<int>(T)];
}

} // namespace

size_t detail::cachedCPUBlocks(size_t NBytes) {
  if (NBytes == 0 || NBytes > kLargestCachedBlock)
    return 0;
  return CPUBlockCache::cachedCount(blockClassOf(NBytes));
}

void detail::trimCPUBlockCache() { CPUBlockCache::trim(); }

bool detail::cpuHugePagesEnabled() {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  static const bool Enabled = [] {
    const char *V = std::getenv("SKC_CPU_HUGE_PAGES");
    return !V || std::strcmp(V, "0") != 0;
  }();
  return Enabled;
#else
  return false;
#endif
}

Allocator *getCPUAllocator() { return allocatorSlot(DeviceType::CPU); }

void Allocator::copyData(void *Dst, const void *Src, size_t N) const {
  if (N)
    std::memcpy(Dst, Src, N);
}

Allocator *getAllocator(DeviceType T) {
  Allocator *A = allocatorSlot(T);
  SK_CHECK(A, "no allocator is registered for device type '", toString(T),
           "'");
  return A;
}

Allocator *setAllocator(DeviceType T, Allocator *A) {
  Allocator *Previous = allocatorSlot(T);
  allocatorSlot(T) = A;
  return Previous;
}

} // namespace sk
