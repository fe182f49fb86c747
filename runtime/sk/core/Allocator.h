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

/// Owning pointer to device memory: the data, and a context that the
/// deleter frees (c10::DataPtr). The context is the data itself for memory
/// of its own; memory inside something larger (a mapped file, a DLPack
/// tensor) has that larger thing as its context.
class DataPtr {
public:
  DataPtr() : DataPtr(nullptr, nullptr, kCPU) {}
  DataPtr(void *Ptr, DeleterFn Deleter, Device Dev)
      : DataPtr(Ptr, Ptr, Deleter, Dev) {}
  DataPtr(void *Ptr, void *Ctx, DeleterFn Deleter, Device Dev)
      : Ptr(Ptr), Ctx(Ctx), Deleter(Deleter), Dev(Dev) {}
  DataPtr(DataPtr &&O) noexcept
      : Ptr(O.Ptr), Ctx(O.Ctx), Deleter(O.Deleter), Dev(O.Dev) {
    O.Ptr = nullptr;
    O.Ctx = nullptr;
  }
  DataPtr &operator=(DataPtr &&O) noexcept {
    DataPtr(std::move(O)).swap(*this);
    return *this;
  }
  DataPtr(const DataPtr &) = delete;
  DataPtr &operator=(const DataPtr &) = delete;
  ~DataPtr() {
    if (Ctx && Deleter)
      Deleter(Ctx);
  }

  void *get() const { return Ptr; }
  void *context() const { return Ctx; }
  DeleterFn deleter() const { return Deleter; }
  Device device() const { return Dev; }
  explicit operator bool() const { return Ptr != nullptr; }

  void swap(DataPtr &O) noexcept {
    std::swap(Ptr, O.Ptr);
    std::swap(Ctx, O.Ctx);
    std::swap(Deleter, O.Deleter);
    std::swap(Dev, O.Dev);
  }

private:
  void *Ptr;
  void *Ctx;
  DeleterFn Deleter;
  Device Dev;
};

class Allocator {
public:
  virtual ~Allocator() = default;
  /// Allocates \p NBytes; throws sk::Error when memory runs out. Zero bytes
  /// give a null DataPtr.
  virtual DataPtr allocate(size_t NBytes) = 0;
  /// Copies \p N bytes from one of this allocator's allocations to another
  /// (c10::Allocator::copy_data): what growing a storage keeps. The default
  /// is memcpy, for memory the host can read.
  virtual void copyData(void *Dst, const void *Src, size_t N) const;
};

/// The allocator for \p T (the CPU allocator is always registered).
Allocator *getAllocator(DeviceType T);
/// Replaces the allocator of \p T and returns the previous one (for tests
/// and backends). Not thread-safe against concurrent allocation.
Allocator *setAllocator(DeviceType T, Allocator *A);

/// CPU memory is aligned to this many bytes.
constexpr size_t kCPUAlignment = 64;
/// A CPU block of kCPUHugePageBlockBytes or more starts on a
/// kCPUHugePageBytes boundary, and its whole huge pages are advised into
/// transparent huge pages (Note [Huge pages for large CPU blocks]).
constexpr size_t kCPUHugePageBytes = size_t(2) << 20;
constexpr size_t kCPUHugePageBlockBytes = size_t(32) << 20;

Allocator *getCPUAllocator();

namespace detail {
/// How many freed CPU blocks that would serve an allocation of \p NBytes
/// this thread keeps for reuse (Note [Small CPU blocks] in Allocator.cpp).
size_t cachedCPUBlocks(size_t NBytes);
/// Frees the CPU blocks this thread keeps for reuse.
void trimCPUBlockCache();
/// Whether large CPU blocks get huge pages: on Linux, unless the
/// environment sets SKC_CPU_HUGE_PAGES=0.
bool cpuHugePagesEnabled();
} // namespace detail

} // namespace sk

#endif // SK_CORE_ALLOCATOR_H
