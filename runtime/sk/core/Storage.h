//===--- Storage.h - The memory behind tensors ------------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A StorageImpl owns a device allocation that any number of tensors (a
/// tensor and its views) look into. Meta tensors have no storage at all: the
/// TensorImpl's Storage is null, which is what makes building a
/// 70-billion-parameter model on the meta device allocate nothing.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_STORAGE_H
#define SK_CORE_STORAGE_H

#include "sk/core/Allocator.h"
#include "sk/util/Analysis.h"
#include "sk/util/FreeListCache.h"
#include "sk/util/IntrusivePtr.h"

#include <cstddef>

namespace sk {

class StorageImpl final : public IntrusiveTarget {
public:
  StorageImpl(size_t NBytes, Allocator *Alloc, bool Resizable)
      : Data(Alloc->allocate(NBytes)), NBytes(NBytes), Alloc(Alloc),
        Resizable(Resizable) {}
  StorageImpl(DataPtr Data, size_t NBytes)
      : Data(std::move(Data)), NBytes(NBytes), Alloc(nullptr),
        Resizable(false) {}

  /// StorageImpls come from a per-thread free list (Note [Per-thread free
  /// lists]).
  static void *operator new(size_t Size) {
    return ObjectCache<StorageImpl>::allocateObject(Size);
  }
  static void operator delete(void *P, size_t Size) noexcept {
    ObjectCache<StorageImpl>::deallocateObject(P, Size);
  }

  SK_READS_DATA void *data() const { return Data.get(); }
  size_t nbytes() const { return NBytes; }
  Device device() const { return Data.device(); }
  bool resizable() const { return Resizable; }
  Allocator *allocator() const { return Alloc; }

  /// Grows the allocation to \p NewBytes, keeping the first nbytes().
  void grow(size_t NewBytes);

private:
  DataPtr Data;
  size_t NBytes;
  Allocator *Alloc;
  bool Resizable;
};

using Storage = IntrusivePtr<StorageImpl>;

} // namespace sk

#endif // SK_CORE_STORAGE_H
