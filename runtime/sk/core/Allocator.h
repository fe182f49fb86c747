//===--- Allocator.h - Device memory allocation -----------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `DataPtr` owns device memory with the deleter that frees it; an
/// `Allocator` hands them out. One allocator per device type is registered
/// (c10::SetAllocator); the CPU one returns 64-byte-aligned memory so that
/// SIMD loops can use aligned loads on freshly allocated tensors.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_ALLOCATOR_H
#define SK_CORE_ALLOCATOR_H

#include "sk/core/Device.h"

#include <cstddef>
#include <utility>

namespace sk {

using DeleterFn = void (*)(void *);

/// Owning pointer to device memory.
class DataPtr {
public:
  DataPtr() : DataPtr(nullptr, nullptr, kCPU) {}
  DataPtr(void *Ptr, DeleterFn Deleter, Device Dev)
      : Ptr(Ptr), Deleter(Deleter), Dev(Dev) {}
  DataPtr(DataPtr &&O) noexcept : Ptr(O.Ptr), Deleter(O.Deleter), Dev(O.Dev) {
    O.Ptr = nullptr;
  }
  DataPtr &operator=(DataPtr &&O) noexcept {
    DataPtr(std::move(O)).swap(*this);
    return *this;
  }
  DataPtr(const DataPtr &) = delete;
  DataPtr &operator=(const DataPtr &) = delete;
  ~DataPtr() {
    if (Ptr && Deleter)
      Deleter(Ptr);
  }

  void *get() const { return Ptr; }
  Device device() const { return Dev; }
  explicit operator bool() const { return Ptr != nullptr; }
  void swap(DataPtr &O) noexcept {
    std::swap(Ptr, O.Ptr);
    std::swap(Deleter, O.Deleter);
    std::swap(Dev, O.Dev);
  }

private:
  void *Ptr;
  DeleterFn Deleter;
  Device Dev;
};

class Allocator {
public:
  virtual ~Allocator() = default;
  /// Allocates \p NBytes; throws sk::Error when memory runs out. Zero bytes
  /// give a null DataPtr.
  virtual DataPtr allocate(size_t NBytes) = 0;
};

/// The allocator for \p T (the CPU allocator is always registered).
Allocator *getAllocator(DeviceType T);
/// Replaces the allocator of \p T and returns the previous one (for tests
/// and backends). Not thread-safe against concurrent allocation.
Allocator *setAllocator(DeviceType T, Allocator *A);

/// CPU memory is aligned to this many bytes.
constexpr size_t kCPUAlignment = 64;

Allocator *getCPUAllocator();

namespace detail {
/// How many freed CPU blocks that would serve an allocation of \p NBytes
/// this thread keeps for reuse (Note [Small CPU blocks] in Allocator.cpp).
size_t cachedCPUBlocks(size_t NBytes);
/// Frees the CPU blocks this thread keeps for reuse.
void trimCPUBlockCache();
} // namespace detail

} // namespace sk

#endif // SK_CORE_ALLOCATOR_H
