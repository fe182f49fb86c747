//===--- ReduceOps.h - What the reduction kernels share ---------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The host side of sum, mean and friends that the CPU and CUDA kernels
/// share: reading `dim` arguments and counting the reduced elements.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_SHARED_REDUCEOPS_H
#define SKC_KERNELS_SHARED_REDUCEOPS_H

#include "sk/core/OptionalRef.h"
#include "sk/core/Tensor.h"
#include "sk/iter/ReduceUtils.h"

#include <cstdint>

namespace sk {
namespace kernels {

/// The dims of an `int[1]? dim` argument: none means every dimension, as
/// an empty list does (PyTorch 1.13).
inline IntArrayRef dimsOrAll(OptionalIntArrayRef Dim) {
  return Dim ? *Dim : IntArrayRef();
}

/// The number of elements of \p Self reduced into each output element
/// when reducing over \p Dims (empty: all).
inline int64_t reducedCount(const Tensor &Self, IntArrayRef Dims) {
  TensorIteratorBase::DimMask Mask = make_dim_mask(Dims, Self.dim());
  int64_t Count = 1;
  for (int64_t D = 0; D < Self.dim(); ++D)
    if (Mask[D])
      Count *= Self.size(D);
  return Count;
}

} // namespace kernels
} // namespace sk

#endif // SKC_KERNELS_SHARED_REDUCEOPS_H
