//===--- InnerVectors.h - Elementwise vectors along rows --------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Whether an elementwise iteration that is not contiguous can still be
/// run in vectors along its innermost dimension (Loops.cuh's inner-vector
/// kernel, Note [CUDA elementwise launcher]). That holds for the common
/// broadcasts, `x * y` with y of [N, 1] (stride 0 along the inner
/// dimension: one element per row, repeated) or of [C] beside [N, C]
/// (stride 0 along the outer one), and for rows apart, a slice `x[:, :k]`:
/// what the strided kernel would do one element at a time, with one
/// offset computation for each element and operand, this does per vector,
/// with one vector access per operand.
///
/// Plain C++ as well as CUDA, so that the host tests check the plan
/// without a GPU.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_CUDA_INNERVECTORS_H
#define SKC_KERNELS_CUDA_INNERVECTORS_H

#include "AlignedVector.h"

#include <cstdint>
#include <optional>

namespace sk {
namespace cuda {

/// How the operands of an iteration read the innermost dimension in
/// vectors.
struct InnerVectorPlan {
  /// Bit Arg is set where operand Arg (an input) has stride 0 along the
  /// innermost dimension: the kernel loads its one element of each row
  /// and repeats it. The other operands are read and written as aligned
  /// vectors.
  uint32_t RepeatedInputs = 0;
};

/// The plan for \p NumArgs operands (the output first) over an iteration
/// of \p NumDims dimensions, dimension 0 the innermost, with
/// \p Strides[Arg][Dim] in bytes, data at \p Ptrs[Arg] and elements of
/// \p ElemSizes[Arg] bytes, in vectors of \p VecSize elements; nullopt
/// where it does not apply: the innermost dimension is not a whole number
/// of vectors, an operand steps along it other than by one element (an
/// input may also stay), or a vector of an operand read as vectors would
/// be misaligned.
inline std::optional<InnerVectorPlan>
planInnerVectors(int NumDims, const int64_t *Sizes,
                 const int64_t *const *Strides, const void *const *Ptrs,
                 const int64_t *ElemSizes, int NumArgs, int VecSize) {
  if (NumDims < 1 || Sizes[0] % VecSize != 0)
    return std::nullopt;
  InnerVectorPlan Plan;
  for (int Arg = 0; Arg < NumArgs; ++Arg) {
    int64_t Inner = Strides[Arg][0];
    if (Inner == 0 && Arg > 0) {
      Plan.RepeatedInputs |= 1u << Arg;
      continue;
    }
    if (Inner != ElemSizes[Arg] ||
        !isAlignedForVector(Ptrs[Arg], ElemSizes[Arg], VecSize))
      return std::nullopt;
    // Each row of the operand starts at an aligned vector.
    int64_t VecBytes = ElemSizes[Arg] * VecSize;
    for (int Dim = 1; Dim < NumDims; ++Dim)
      if (Sizes[Dim] != 1 && Strides[Arg][Dim] % VecBytes != 0)
        return std::nullopt;
  }
  return Plan;
}

} // namespace cuda
} // namespace sk

#endif // SKC_KERNELS_CUDA_INNERVECTORS_H
