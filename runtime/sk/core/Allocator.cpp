//===--- Allocator.cpp - Device memory allocation -------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/Allocator.h"
#include "sk/util/Exception.h"

#include <cstdint>
#include <cstdlib>

namespace sk {

namespace {

/// Note [Aligned CPU memory]
/// aligned_alloc takes glibc's slow memalign path on every call, which made
/// it the largest cost of creating a small tensor. Instead we over-allocate
/// with malloc (its per-thread caches make small blocks cheap), round up to
/// the alignment, and keep malloc's pointer in the word just before the
/// block for the deleter. malloc's result is 16-byte aligned, so there is
/// always room for that word.
void freeAligned(void *Aligned) {
  std::free(static_cast<void **>(Aligned)[-1]);
}

class CPUAllocator final : public Allocator {
public:
  DataPtr allocate(size_t NBytes) override {
    if (NBytes == 0)
      return DataPtr(nullptr, nullptr, kCPU);
    SK_CHECK(NBytes <= SIZE_MAX - kCPUAlignment,
             "CPU allocator: cannot allocate ", NBytes, " bytes");
    void *Raw = std::malloc(NBytes + kCPUAlignment);
    SK_CHECK(Raw, "CPU allocator: out of memory trying to allocate ", NBytes,
             " bytes");
    auto Address = reinterpret_cast<uintptr_t>(Raw);
    auto Aligned = reinterpret_cast<void **>(
        (Address + kCPUAlignment) & ~uintptr_t(kCPUAlignment - 1));
    Aligned[-1] = Raw;
    return DataPtr(Aligned, &freeAligned, kCPU);
  }
};

Allocator *&allocatorSlot(DeviceType T) {
  static CPUAllocator CPU;
  static Allocator *Slots[NumDeviceTypes] = {&CPU, nullptr, nullptr, nullptr};
  return Slots[static_cast<int>(T)];
}

} // namespace

Allocator *getCPUAllocator() { return allocatorSlot(DeviceType::CPU); }

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
