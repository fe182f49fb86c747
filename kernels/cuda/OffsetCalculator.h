//===--- OffsetCalculator.h - Linear index to operand offsets ---*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The index math of the CUDA elementwise launcher (Loops.cuh) and of the
/// kernels that walk strided operands (the gather of Indexing.cu): an
/// OffsetCalculator turns the linear index of an element of an iteration
/// space into the offset of that element in every operand, for any shape,
/// broadcasting (stride 0) and strides. It is
/// templated on the index type so that iterations whose offsets fit in 32
/// bits divide in 32 bits, by a multiply and a shift (IntDivider; ATen's
/// OffsetCalculator.cuh and IntegerDivider.cuh). Plain C++ as well as
/// CUDA, so that the host tests check it without a GPU.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_CUDA_OFFSETCALCULATOR_H
#define SKC_KERNELS_CUDA_OFFSETCALCULATOR_H

#include "sk/util/HostDevice.h"

#include <cstdint>

namespace sk {
namespace cuda {

/// The most dimensions a CUDA elementwise kernel iterates over (PyTorch's
/// MAX_DIMS).
constexpr int kMaxDims = 25;

/// The byte offsets of one element in each of NArgs operands.
template <int NArgs, typename IndexT> struct OperandOffsets {
  IndexT V[NArgs];
};

/// Maps linear indices of a shape, first dimension fastest (the
/// TensorIterator's order), to byte offsets in NArgs operands.
/// Division by a divisor fixed at launch. A GPU has no integer divider:
/// `N / D` in 32 bits is a sequence of about twenty instructions, paid for
/// every dimension of every element. The int32_t form divides with a
/// high multiply and a shift instead (Granlund and Montgomery, as ATen's
/// IntDivider<unsigned>), exact for 0 <= N < 2^31, which
/// can_use_32bit_indexing() guarantees. Other index types divide plainly.
template <typename IndexT> struct IntDivider {
  IndexT Divisor = 1;

  IntDivider() = default;
  explicit IntDivider(IndexT D) : Divisor(D) {}
  SK_HOST_DEVICE IndexT div(IndexT N) const { return N / Divisor; }
  SK_HOST_DEVICE IndexT divisor() const { return Divisor; }
};

template <> struct IntDivider<int32_t> {
  uint32_t Divisor = 1;
  uint32_t Magic = 1;
  uint32_t Shift = 0;

  IntDivider() = default;
  /// \p D in [1, 2^31).
  explicit IntDivider(int32_t D) : Divisor(static_cast<uint32_t>(D)) {
    // The least Shift with 2^Shift >= D; then Magic = 2^32 (2^Shift - D) / D
    // + 1 fits in 32 bits.
    while (Shift < 32 && (uint64_t(1) << Shift) < Divisor)
      ++Shift;
    Magic = static_cast<uint32_t>(
        ((uint64_t(1) << 32) * ((uint64_t(1) << Shift) - Divisor)) / Divisor +
        1);
  }

  SK_HOST_DEVICE int32_t div(int32_t N) const {
    uint32_t U = static_cast<uint32_t>(N);
#ifdef __CUDA_ARCH__
    uint32_t High = __umulhi(U, Magic);
#else
    uint32_t High = static_cast<uint32_t>((uint64_t(U) * Magic) >> 32);
#endif
    return static_cast<int32_t>((High + U) >> Shift);
  }
  SK_HOST_DEVICE int32_t divisor() const {
    return static_cast<int32_t>(Divisor);
  }
};

template <int NArgs, typename IndexT> struct OffsetCalculator {
  int Dims = 0;
  IntDivider<IndexT> Sizes[kMaxDims] = {};
  IndexT Strides[kMaxDims][NArgs] = {};

  OffsetCalculator() = default;

  /// \p Sizes[D] and \p Strides[Arg][D] (bytes) for D < \p Dims <=
  /// kMaxDims, dimension 0 fastest.
  OffsetCalculator(int NumDims, const int64_t *DimSizes,
                   const int64_t *const *ArgStrides)
      : Dims(NumDims) {
    for (int D = 0; D < NumDims; ++D) {
      Sizes[D] = IntDivider<IndexT>(static_cast<IndexT>(DimSizes[D]));
      for (int Arg = 0; Arg < NArgs; ++Arg)
        Strides[D][Arg] = static_cast<IndexT>(ArgStrides[Arg][D]);
    }
  }

  SK_HOST_DEVICE OperandOffsets<NArgs, IndexT> get(IndexT Linear) const {
    OperandOffsets<NArgs, IndexT> Out;
    for (int Arg = 0; Arg < NArgs; ++Arg)
      Out.V[Arg] = 0;
    for (int D = 0; D < Dims; ++D) {
      IndexT Next = Sizes[D].div(Linear);
      IndexT Mod = Linear - Next * Sizes[D].divisor();
      Linear = Next;
      for (int Arg = 0; Arg < NArgs; ++Arg)
        Out.V[Arg] += Mod * Strides[D][Arg];
    }
    return Out;
  }
};

/// An OffsetCalculator whose linear index numbers the elements of a shape
/// in row-major order, the last of \p NumDims \p Sizes fastest (as the
/// CUDA kernels outside the elementwise launcher number them), for
/// operands of strides \p Strides[Arg] (elements or bytes: the offsets
/// are in the same unit).
template <int NArgs, typename IndexT>
OffsetCalculator<NArgs, IndexT>
makeRowMajorOffsetCalculator(int NumDims, const int64_t *Sizes,
                             const int64_t *const *Strides) {
  int64_t Reversed[kMaxDims];
  int64_t ReversedStrides[NArgs][kMaxDims];
  const int64_t *Columns[NArgs];
  for (int D = 0; D < NumDims; ++D) {
    Reversed[D] = Sizes[NumDims - 1 - D];
    for (int Arg = 0; Arg < NArgs; ++Arg)
      ReversedStrides[Arg][D] = Strides[Arg][NumDims - 1 - D];
  }
  for (int Arg = 0; Arg < NArgs; ++Arg)
    Columns[Arg] = ReversedStrides[Arg];
  return OffsetCalculator<NArgs, IndexT>(NumDims, Reversed, Columns);
}

/// The number of blocks of \p Threads threads, each handling \p PerThread
/// elements, that cover \p N elements.
inline int64_t blocksFor(int64_t N, int Threads, int PerThread) {
  int64_t PerBlock = int64_t(Threads) * PerThread;
  return (N + PerBlock - 1) / PerBlock;
}

} // namespace cuda
} // namespace sk

#endif // SKC_KERNELS_CUDA_OFFSETCALCULATOR_H
