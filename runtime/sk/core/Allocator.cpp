//===--- Allocator.cpp - Device memory allocation -------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/Allocator.h"
#include "sk/util/Exception.h"

#include <cstdlib>

namespace sk {

namespace {

class CPUAllocator final : public Allocator {
public:
  DataPtr allocate(size_t NBytes) override {
    if (NBytes == 0)
      return DataPtr(nullptr, nullptr, kCPU);
    // aligned_alloc wants a multiple of the alignment.
    size_t Rounded = (NBytes + kCPUAlignment - 1) & ~(kCPUAlignment - 1);
    void *P = std::aligned_alloc(kCPUAlignment, Rounded);
    SK_CHECK(P, "CPU allocator: out of memory trying to allocate ", NBytes,
             " bytes");
    return DataPtr(P, &std::free, kCPU);
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
