//===--- IntrusivePtr.h - Intrusively reference-counted objects -*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `IntrusivePtr<T>` (c10::intrusive_ptr): the count lives in the object, so
/// a Tensor handle is one pointer and copying it is one atomic increment.
/// T derives from IntrusiveTarget.
///
//===----------------------------------------------------------------------===//

#ifndef SK_UTIL_INTRUSIVEPTR_H
#define SK_UTIL_INTRUSIVEPTR_H

#include <atomic>
#include <cstddef>
#include <utility>

namespace sk {

class IntrusiveTarget {
public:
  IntrusiveTarget(const IntrusiveTarget &) = delete;
  IntrusiveTarget &operator=(const IntrusiveTarget &) = delete;
  size_t useCount() const { return RefCount.load(std::memory_order_relaxed); }

protected:
  IntrusiveTarget() = default;
  virtual ~IntrusiveTarget() = default;

private:
  template <typename T> friend class IntrusivePtr;
  mutable std::atomic<size_t> RefCount{0};
};

template <typename T> class IntrusivePtr {
public:
  IntrusivePtr() noexcept = default;
  IntrusivePtr(std::nullptr_t) noexcept {}
  /// Adopts \p P, which must be newly allocated (count 0) or already owned.
  explicit IntrusivePtr(T *P) noexcept : Ptr(P) { retain(); }
  IntrusivePtr(const IntrusivePtr &O) noexcept : Ptr(O.Ptr) { retain(); }
  IntrusivePtr(IntrusivePtr &&O) noexcept : Ptr(O.Ptr) { O.Ptr = nullptr; }
  template <typename U>
  IntrusivePtr(IntrusivePtr<U> &&O) noexcept : Ptr(O.release()) {}
  ~IntrusivePtr() { reset(); }

  IntrusivePtr &operator=(const IntrusivePtr &O) noexcept {
    IntrusivePtr(O).swap(*this);
    return *this;
  }
  IntrusivePtr &operator=(IntrusivePtr &&O) noexcept {
    IntrusivePtr(std::move(O)).swap(*this);
    return *this;
  }

  /// Allocates a T owned by the result. The first reference is a plain
  /// store: nothing else can see the object yet.
  template <typename... Args> static IntrusivePtr make(Args &&...A) {
    IntrusivePtr P;
    P.Ptr = new T(std::forward<Args>(A)...);
    P.Ptr->RefCount.store(1, std::memory_order_relaxed);
    return P;
  }

  T *get() const noexcept { return Ptr; }
  T *operator->() const noexcept { return Ptr; }
  T &operator*() const noexcept { return *Ptr; }
  explicit operator bool() const noexcept { return Ptr != nullptr; }
  bool defined() const noexcept { return Ptr != nullptr; }
  size_t useCount() const noexcept { return Ptr ? Ptr->useCount() : 0; }

  void reset() noexcept {
    // Only the null test is sure to be inlined, so that the destructor of
    // a moved-from pointer (the temporary of `Tensor(IntrusivePtr::make(
    // ...))`, say) folds away instead of calling an out-of-line reset().
    if (Ptr)
      dropReference();
    Ptr = nullptr;
  }
  /// Gives up ownership without decrementing.
  T *release() noexcept {
    T *P = Ptr;
    Ptr = nullptr;
    return P;
  }
  void swap(IntrusivePtr &O) noexcept { std::swap(Ptr, O.Ptr); }

  bool operator==(const IntrusivePtr &O) const { return Ptr == O.Ptr; }
  bool operator!=(const IntrusivePtr &O) const { return Ptr != O.Ptr; }

private:
  /// Drops our (non-null) reference, deleting the object with the last.
  void dropReference() noexcept {
    if (releaseLast())
      delete Ptr;
  }
  /// Drops our reference; true when it was the last one.
  bool releaseLast() noexcept {
    // Note [Sole owner]: a count of 1 is our own reference, and no other
    // thread can add one without holding one, so the last owner skips the
    // atomic read-modify-write (most tensors die with one owner).
    if (Ptr->RefCount.load(std::memory_order_acquire) == 1)
      return true;
    return Ptr->RefCount.fetch_sub(1, std::memory_order_acq_rel) == 1;
  }
  void retain() noexcept {
    if (Ptr)
      Ptr->RefCount.fetch_add(1, std::memory_order_relaxed);
  }
  T *Ptr = nullptr;
};

} // namespace sk

#endif // SK_UTIL_INTRUSIVEPTR_H
