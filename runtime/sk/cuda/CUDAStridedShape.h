//===--- CUDAStridedShape.h - Strided loops of the runtime ------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The shape that the runtime's own elementwise kernels (the strided copy
/// of CUDACopyKernel.cu, the strided fill of CUDAFill.cu) walk: sizes, and
/// each operand's strides, coalesced on the host and split into offsets on
/// the device; and offsetsFitInt32, which the kernels library's launchers
/// (kernels/cuda/OffsetCalculator.h, above the runtime) ask too. Plain C++
/// as well as CUDA, and no runtime header beyond sk/util, so that CUDAFill.cu
/// compiles alone and host tests run without a GPU.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CUDA_CUDASTRIDEDSHAPE_H
#define SK_CUDA_CUDASTRIDEDSHAPE_H

#include "sk/util/HostDevice.h"

#include <cstdint>
#include <optional>

namespace sk {
namespace cuda {

/// Whether every offset of \p NArgs operands of strides \p Strides[Arg]
/// (non-negative) over \p NumDims \p Sizes fits in int32_t: the question
/// the runtime's kernels and the kernels library's launchers ask before
/// they index in 32 bits.
inline bool offsetsFitInt32(int NumDims, const int64_t *Sizes, int NArgs,
                            const int64_t *const *Strides) {
  for (int D = 0; D < NumDims; ++D)
    if (Sizes[D] == 0)
      return true; // No element, so no offset.
  for (int Arg = 0; Arg < NArgs; ++Arg) {
    int64_t Last = 0;
    for (int D = 0; D < NumDims; ++D) {
      Last += (Sizes[D] - 1) * Strides[Arg][D];
      if (Last > INT32_MAX)
        return false;
    }
  }
  return true;
}

namespace detail {

/// The most dimensions a StridedShape holds, after coalescing (PyTorch's
/// OffsetCalculator takes as many).
constexpr int kMaxStridedDims = 25;

/// The sizes of an elementwise loop and the strides, in elements, of each
/// of its \p NumOperands operands, innermost dimension last.
template <int NumOperands> struct StridedShape {
  int Rank = 0;
  int64_t Sizes[kMaxStridedDims] = {};
  int64_t Strides[NumOperands][kMaxStridedDims] = {};

  /// Whether the linear indices of its \p N elements and every operand's
  /// offsets fit in int32, where a GPU divides several times faster.
  bool fitsInt32(int64_t N) const {
    const int64_t *Operands[NumOperands];
    for (int Op = 0; Op != NumOperands; ++Op)
      Operands[Op] = Strides[Op];
    return N <= INT32_MAX &&
           offsetsFitInt32(Rank, Sizes, NumOperands, Operands);
  }

  /// Each operand's offset of element \p I, the linear index split over
  /// the sizes. \p Index is the width fitsInt32 allows.
  template <typename Index>
  SK_HOST_DEVICE void offsets(Index I, Index (&Offsets)[NumOperands]) const {
    for (int Op = 0; Op != NumOperands; ++Op)
      Offsets[Op] = 0;
    for (int D = Rank - 1; D >= 0; --D) {
      Index Size = static_cast<Index>(Sizes[D]);
      Index Coordinate = I % Size;
      I /= Size;
      for (int Op = 0; Op != NumOperands; ++Op)
        Offsets[Op] += Coordinate * static_cast<Index>(Strides[Op][D]);
    }
  }
};

/// The shape of a loop over \p Sizes (\p Rank of them) whose operand Op
/// has the strides \p Strides[Op]: dimensions of size 1 dropped, and each
/// dimension merged into the one outside it where every operand steps
/// through the two as one run. std::nullopt where more than
/// kMaxStridedDims are left.
template <int NumOperands>
std::optional<StridedShape<NumOperands>>
coalesceStridedShape(int64_t Rank, const int64_t *Sizes,
                     const int64_t *const (&Strides)[NumOperands]) {
  StridedShape<NumOperands> S;
  for (int64_t D = 0; D != Rank; ++D) {
    if (Sizes[D] == 1)
      continue;
    if (S.Rank != 0) {
      // The outer dimension Last steps over exactly one run of this one.
      int Last = S.Rank - 1;
      bool OneRun = true;
      for (int Op = 0; Op != NumOperands; ++Op)
        OneRun &= S.Strides[Op][Last] == Sizes[D] * Strides[Op][D];
      if (OneRun) {
        S.Sizes[Last] *= Sizes[D];
        for (int Op = 0; Op != NumOperands; ++Op)
          S.Strides[Op][Last] = Strides[Op][D];
        continue;
      }
    }
    if (S.Rank == kMaxStridedDims)
      return std::nullopt;
    S.Sizes[S.Rank] = Sizes[D];
    for (int Op = 0; Op != NumOperands; ++Op)
      S.Strides[Op][S.Rank] = Strides[Op][D];
    ++S.Rank;
  }
  return S;
}

} // namespace detail
} // namespace cuda
} // namespace sk

#endif // SK_CUDA_CUDASTRIDEDSHAPE_H
