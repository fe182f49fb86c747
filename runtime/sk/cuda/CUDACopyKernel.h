//===--- CUDACopyKernel.h - Strided copies on the device --------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The launcher of the device kernel in CUDACopyKernel.cu, private to the
/// backend: one element at a time from one strided tensor into another on
/// the same device, converting the dtype as Note [Defined element
/// conversions] says (sk/ops/Convert.h). copy_ takes it for every copy
/// between two tensors of one device that is not one block of bytes
/// (Note [CUDA copies] in CUDACopy.cpp).
///
//===----------------------------------------------------------------------===//

#ifndef SK_CUDA_CUDACOPYKERNEL_H
#define SK_CUDA_CUDACOPYKERNEL_H

#include "sk/core/ScalarType.h"
#include "sk/core/Tensor.h"
#include "sk/cuda/CUDAStridedShape.h"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace sk {
namespace cuda {
namespace detail {

/// The shape of copying \p Src into \p Dst (of the same sizes), operand 0
/// the destination and 1 the source (coalesceStridedShape). Throws when
/// more than kMaxStridedDims dimensions are left.
StridedShape<2> makeCopyShape(const Tensor &Dst, const Tensor &Src);

/// Copies the \p N elements \p Shape describes from \p Src (of
/// \p SrcDtype) into \p Dst (of \p DstDtype), on \p Stream. The two must
/// not overlap.
void launchCopy(void *Dst, ScalarType DstDtype, const void *Src,
                ScalarType SrcDtype, const StridedShape<2> &Shape, int64_t N,
                cudaStream_t Stream);

} // namespace detail
} // namespace cuda
} // namespace sk

#endif // SK_CUDA_CUDACOPYKERNEL_H
