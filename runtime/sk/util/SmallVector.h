//===--- SmallVector.h - A vector with inline storage -----------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `SmallVector<T, N>` (llvm::SmallVector, c10::SmallVector): the first \p N
/// elements live inside the object, more spill to one heap block. The
/// TensorIterator keeps its operands, shape and strides in these so that
/// building an iterator for tensors of ordinary rank allocates nothing.
///
/// Only what the runtime needs: push_back/emplace_back, resize, insert at
/// an index, erase, copy and move. Iterators are pointers and are
/// invalidated by any growth.
///
//===----------------------------------------------------------------------===//

#ifndef SK_UTIL_SMALLVECTOR_H
#define SK_UTIL_SMALLVECTOR_H

#include "sk/util/ArrayRef.h"

#include <cstddef>
#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <ostream>
#include <type_traits>
#include <utility>

namespace sk {

template <typename T, size_t N> class SmallVector {
  static_assert(N > 0, "SmallVector needs at least one inline element");

public:
  using value_type = T;
  using iterator = T *;
  using const_iterator = const T *;
  using size_type = size_t;

  SmallVector() = default;
  explicit SmallVector(size_t Count) { resize(Count); }
  SmallVector(size_t Count, const T &Value) { assign(Count, Value); }
  SmallVector(std::initializer_list<T> L) { append(L.begin(), L.end()); }
  /// Copies the elements of \p A (sizes and strides as an IntArrayRef).
  explicit SmallVector(ArrayRef<T> A) { append(A.begin(), A.end()); }
  SmallVector(const SmallVector &O) { append(O.begin(), O.end()); }
  SmallVector(SmallVector &&O) noexcept(
      std::is_nothrow_move_constructible_v<T>) {
    moveFrom(std::move(O));
  }
  SmallVector &operator=(const SmallVector &O) {
    if (this != &O) {
      clear();
      append(O.begin(), O.end());
    }
    return *this;
  }
  SmallVector &
  operator=(SmallVector &&O) noexcept(std::is_nothrow_move_constructible_v<T>) {
    if (this != &O) {
      clear();
      releaseHeap();
      moveFrom(std::move(O));
    }
    return *this;
  }
  SmallVector &operator=(ArrayRef<T> A) {
    clear();
    append(A.begin(), A.end());
    return *this;
  }
  ~SmallVector() {
    destroy(Data, Data + Size);
    if (!isSmall())
      ::operator delete(Data, std::align_val_t(alignof(T)));
  }

  size_t size() const { return Size; }
  size_t capacity() const { return Capacity; }
  bool empty() const { return Size == 0; }
  /// Whether the elements still live inside the object.
  bool isSmall() const { return Data == inlineData(); }

  T *data() { return Data; }
  const T *data() const { return Data; }
  T *begin() { return Data; }
  T *end() { return Data + Size; }
  const T *begin() const { return Data; }
  const T *end() const { return Data + Size; }
  T &operator[](size_t I) { return Data[I]; }
  const T &operator[](size_t I) const { return Data[I]; }
  T &front() { return Data[0]; }
  T &back() { return Data[Size - 1]; }
  const T &front() const { return Data[0]; }
  const T &back() const { return Data[Size - 1]; }

  operator ArrayRef<T>() const { return ArrayRef<T>(Data, Size); }
  ArrayRef<T> ref() const { return ArrayRef<T>(Data, Size); }

  void reserve(size_t NewCapacity) {
    if (NewCapacity > Capacity)
      grow(NewCapacity);
  }

  template <typename... Args> T &emplace_back(Args &&...A) {
    if (Size == Capacity)
      grow(Capacity * 2);
    T *P = new (Data + Size) T(std::forward<Args>(A)...);
    ++Size;
    return *P;
  }
  void push_back(const T &V) { emplace_back(V); }
  void push_back(T &&V) { emplace_back(std::move(V)); }
  void pop_back() {
    --Size;
    Data[Size].~T();
  }

  template <typename It> void append(It First, It Last) {
    size_t Count = static_cast<size_t>(std::distance(First, Last));
    reserve(Size + Count);
    constexpr bool NoThrow =
        std::is_nothrow_constructible_v<T, decltype(*First)>;
    constructAtEnd(Size + Count, [&First](T *P) noexcept(NoThrow) {
      new (P) T(*First);
      ++First;
    });
  }
  /// Appends \p Count elements, built in order by \p Construct(P), which
  /// constructs one in place at P. With a Construct that cannot throw,
  /// the size is counted in a register (Note [SmallVector size in a
  /// local]), which emplace_back in a loop cannot do.
  template <typename ConstructFn>
  void append_in_place(size_t Count, ConstructFn Construct) {
    reserve(Size + Count);
    constructAtEnd(Size + Count, Construct);
  }
  void assign(size_t Count, const T &Value) {
    clear();
    reserve(Count);
    constructAtEnd(Count, [&Value](T *P) noexcept(
                              std::is_nothrow_copy_constructible_v<T>) {
      new (P) T(Value);
    });
  }

  /// Shrinks or grows to \p NewSize; new elements are value-initialized.
  void resize(size_t NewSize) {
    if (NewSize < Size) {
      destroy(Data + NewSize, Data + Size);
      Size = NewSize;
      return;
    }
    reserve(NewSize);
    constructAtEnd(
        NewSize, [](T *P) noexcept(std::is_nothrow_default_constructible_v<T>) {
          new (P) T();
        });
  }
  void resize(size_t NewSize, const T &Value) {
    if (NewSize < Size) {
      destroy(Data + NewSize, Data + Size);
      Size = NewSize;
      return;
    }
    reserve(NewSize);
    constructAtEnd(NewSize, [&Value](T *P) noexcept(
                                std::is_nothrow_copy_constructible_v<T>) {
      new (P) T(Value);
    });
  }

  /// Inserts \p V before position \p Pos; returns its address.
  T *insert(T *Pos, T V) {
    size_t Index = static_cast<size_t>(Pos - Data);
    emplace_back(std::move(V));
    for (size_t I = Size - 1; I > Index; --I)
      std::swap(Data[I], Data[I - 1]);
    return Data + Index;
  }
  /// Removes the element at \p Pos; returns the position after it.
  T *erase(T *Pos) {
    for (T *P = Pos; P + 1 != end(); ++P)
      *P = std::move(P[1]);
    pop_back();
    return Pos;
  }

  void clear() {
    destroy(Data, Data + Size);
    Size = 0;
  }

  bool operator==(const SmallVector &O) const {
    return ArrayRef<T>(*this).equals(ArrayRef<T>(O));
  }
  bool operator!=(const SmallVector &O) const { return !(*this == O); }

private:
  /// Grows to \p NewSize (within the capacity) by calling \p Construct on
  /// each new slot in order.
  ///
  /// Note [SmallVector size in a local]: when construction cannot throw,
  /// the loop counts in a local and stores Size once. Counting in the
  /// member made GCC store and reload it around every element, since an
  /// element store may alias it (int64_t and size_t may, for one).
  template <typename ConstructFn>
  void constructAtEnd(size_t NewSize, ConstructFn Construct) {
    if constexpr (std::is_nothrow_invocable_v<ConstructFn &, T *>) {
      for (T *P = Data + Size, *E = Data + NewSize; P != E; ++P)
        Construct(P);
      Size = NewSize;
    } else {
      // Size counts what is built, for the destructor if one throws.
      for (; Size < NewSize; ++Size)
        Construct(Data + Size);
    }
  }

  T *inlineData() { return reinterpret_cast<T *>(Inline); }
  const T *inlineData() const { return reinterpret_cast<const T *>(Inline); }

  static void destroy(T *First, T *Last) {
    if constexpr (!std::is_trivially_destructible_v<T>)
      for (; First != Last; ++First)
        First->~T();
  }

  void grow(size_t MinCapacity) {
    size_t NewCapacity =
        Capacity * 2 > MinCapacity ? Capacity * 2 : MinCapacity;
    T *NewData = static_cast<T *>(
        ::operator new(NewCapacity * sizeof(T), std::align_val_t(alignof(T))));
    for (size_t I = 0; I != Size; ++I) {
      new (NewData + I) T(std::move(Data[I]));
      Data[I].~T();
    }
    releaseHeap();
    Data = NewData;
    Capacity = NewCapacity;
  }

  void releaseHeap() {
    if (!isSmall())
      ::operator delete(Data, std::align_val_t(alignof(T)));
    Data = inlineData();
    Capacity = N;
  }

  /// Takes \p O's elements; \p O is left empty. Requires this to be empty
  /// and small.
  void moveFrom(SmallVector &&O) {
    if (!O.isSmall()) {
      Data = O.Data;
      Size = O.Size;
      Capacity = O.Capacity;
      O.Data = O.inlineData();
      O.Size = 0;
      O.Capacity = N;
      return;
    }
    for (size_t I = 0; I != O.Size; ++I)
      new (Data + I) T(std::move(O.Data[I]));
    Size = O.Size;
    O.clear();
  }

  T *Data = inlineData();
  size_t Size = 0;
  size_t Capacity = N;
  alignas(T) unsigned char Inline[N * sizeof(T)];
};

/// Shapes and strides of ordinary rank stay inline.
using DimVector = SmallVector<int64_t, 6>;

template <typename T, size_t N>
std::ostream &operator<<(std::ostream &OS, const SmallVector<T, N> &V) {
  return OS << ArrayRef<T>(V);
}

} // namespace sk

#endif // SK_UTIL_SMALLVECTOR_H
