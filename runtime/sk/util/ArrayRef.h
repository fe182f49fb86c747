//===--- ArrayRef.h - A non-owning view of an array -------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `ArrayRef<T>` (c10::ArrayRef, llvm::ArrayRef): pointer and length, built
/// from a braced list, a std::vector, a std::array or a single element.
/// `IntArrayRef` is how sizes and strides travel through the runtime.
///
//===----------------------------------------------------------------------===//

#ifndef SK_UTIL_ARRAYREF_H
#define SK_UTIL_ARRAYREF_H

#include "sk/util/Exception.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <vector>

namespace sk {

template <typename T> class ArrayRef {
public:
  using value_type = T;
  using iterator = const T *;
  using const_iterator = const T *;

  constexpr ArrayRef() = default;
  constexpr ArrayRef(const T &One) : Data(&One), Length(1) {}
  constexpr ArrayRef(const T *Data, size_t Length)
      : Data(Data), Length(Length) {}
  constexpr ArrayRef(const T *Begin, const T *End)
      : Data(Begin), Length(End - Begin) {}
  template <typename A>
  ArrayRef(const std::vector<T, A> &V) : Data(V.data()), Length(V.size()) {}
  template <size_t N>
  constexpr ArrayRef(const std::array<T, N> &A) : Data(A.data()), Length(N) {}
  template <size_t N>
  constexpr ArrayRef(const T (&A)[N]) : Data(A), Length(N) {}
  /// Valid only as long as the braced list: for arguments, not variables.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  constexpr ArrayRef(const std::initializer_list<T> &L)
      : Data(L.begin() == L.end() ? nullptr : L.begin()), Length(L.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  constexpr const T *data() const { return Data; }
  constexpr size_t size() const { return Length; }
  constexpr bool empty() const { return Length == 0; }
  constexpr const T *begin() const { return Data; }
  constexpr const T *end() const { return Data + Length; }
  constexpr const T &operator[](size_t I) const { return Data[I]; }
  const T &at(size_t I) const {
    SK_CHECK_INDEX(I < Length, "ArrayRef: index ", I,
                   " out of range for length ", Length);
    return Data[I];
  }
  constexpr const T &front() const { return Data[0]; }
  constexpr const T &back() const { return Data[Length - 1]; }

  ArrayRef slice(size_t Start, size_t N) const {
    SK_INTERNAL_ASSERT(Start + N <= Length, "slice out of range");
    return ArrayRef(Data + Start, N);
  }
  ArrayRef slice(size_t Start) const { return slice(Start, Length - Start); }

  std::vector<T> vec() const { return std::vector<T>(Data, Data + Length); }

  bool equals(ArrayRef Other) const {
    if (Length != Other.Length)
      return false;
    for (size_t I = 0; I != Length; ++I)
      if (!(Data[I] == Other.Data[I]))
        return false;
    return true;
  }

private:
  const T *Data = nullptr;
  size_t Length = 0;
};

template <typename T> bool operator==(ArrayRef<T> A, ArrayRef<T> B) {
  return A.equals(B);
}
template <typename T> bool operator!=(ArrayRef<T> A, ArrayRef<T> B) {
  return !A.equals(B);
}
template <typename T>
bool operator==(const std::vector<T> &A, ArrayRef<T> B) {
  return ArrayRef<T>(A).equals(B);
}
template <typename T>
bool operator==(ArrayRef<T> A, const std::vector<T> &B) {
  return A.equals(ArrayRef<T>(B));
}

/// Prints `[1, 2, 3]`, as PyTorch prints sizes in messages.
template <typename T> std::ostream &operator<<(std::ostream &OS, ArrayRef<T> A) {
  OS << '[';
  for (size_t I = 0; I != A.size(); ++I)
    OS << (I ? ", " : "") << A[I];
  return OS << ']';
}

using IntArrayRef = ArrayRef<int64_t>;

} // namespace sk

#endif // SK_UTIL_ARRAYREF_H
