//===--- SizesAndStrides.h - Inline storage for shapes ----------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Sizes and strides of up to five dimensions live inside the TensorImpl
/// (c10::impl::SizesAndStrides); more spill to one heap block. Creating a
/// small tensor therefore allocates no shape memory.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_SIZESANDSTRIDES_H
#define SK_CORE_SIZESANDSTRIDES_H

#include "sk/util/ArrayRef.h"

#include <cstdint>
#include <cstring>
#include <memory>

namespace sk {

class SizesAndStrides {
public:
  static constexpr size_t kInlineDims = 5;

  SizesAndStrides() : Dims(1) {
    Inline[0] = 0;
    Inline[kInlineDims] = 1;
  }
  /// Rank \p NumDims with unspecified contents, to be filled in through
  /// sizesData() and stridesData().
  explicit SizesAndStrides(size_t NumDims) : Dims(NumDims) {
    if (!isInline())
      Heap = new int64_t[2 * Dims];
  }
  SizesAndStrides(const SizesAndStrides &O) { copyFrom(O); }
  SizesAndStrides &operator=(const SizesAndStrides &O) {
    if (this != &O) {
      release();
      copyFrom(O);
    }
    return *this;
  }
  ~SizesAndStrides() { release(); }

  size_t size() const { return Dims; }
  IntArrayRef sizes() const { return {sizesData(), Dims}; }
  IntArrayRef strides() const { return {stridesData(), Dims}; }
  int64_t *sizesData() { return isInline() ? Inline : Heap; }
  int64_t *stridesData() {
    return isInline() ? Inline + kInlineDims : Heap + Dims;
  }
  const int64_t *sizesData() const { return isInline() ? Inline : Heap; }
  const int64_t *stridesData() const {
    return isInline() ? Inline + kInlineDims : Heap + Dims;
  }

  /// Changes the rank; the contents are unspecified afterwards.
  void resize(size_t NewDims) {
    if (NewDims == Dims)
      return;
    release();
    Dims = NewDims;
    if (!isInline())
      Heap = new int64_t[2 * Dims];
  }
  void set(IntArrayRef Sizes, IntArrayRef Strides) {
    resize(Sizes.size());
    // A 0-dim shape may come as a null ArrayRef, and memcpy from null is
    // undefined even for zero bytes.
    if (Dims == 0)
      return;
    std::memcpy(sizesData(), Sizes.data(), Dims * sizeof(int64_t));
    std::memcpy(stridesData(), Strides.data(), Dims * sizeof(int64_t));
  }

private:
  bool isInline() const { return Dims <= kInlineDims; }
  void release() {
    if (!isInline())
      delete[] Heap;
    Dims = 0;
  }
  void copyFrom(const SizesAndStrides &O) {
    Dims = O.Dims;
    if (isInline()) {
      std::memcpy(Inline, O.Inline, sizeof Inline);
      return;
    }
    Heap = new int64_t[2 * Dims];
    std::memcpy(Heap, O.Heap, 2 * Dims * sizeof(int64_t));
  }

  size_t Dims = 0;
  union {
    int64_t Inline[2 * kInlineDims];
    int64_t *Heap;
  };
};

} // namespace sk

#endif // SK_CORE_SIZESANDSTRIDES_H
