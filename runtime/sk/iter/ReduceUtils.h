//===--- ReduceUtils.h - Shapes and iterators of reductions -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The meta and impl halves of a reduction over a `dim` list with
/// `keepdim` (ATen/native/ReduceOpsUtils.h), as a structured reduction is
/// written:
///
///   SK_META_FUNC(sum, dim_IntList)(const Tensor &self, IntArrayRef dim,
///                                  bool keepdim,
///                                  std::optional<ScalarType> dtype) {
///     ScalarType OutDtype = get_dtype_from_self(self, dtype, true);
///     resize_reduction(*this, self, dim, keepdim, OutDtype);
///   }
///   SK_IMPL_FUNC(sum_out)(const Tensor &self, IntArrayRef dim,
///                         bool keepdim, std::optional<ScalarType> dtype,
///                         const Tensor &result) {
///     TensorIterator Iter = make_reduction(self, result, dim, keepdim);
///     sum_kernel(Iter);                        // cpu_reduce_vec, Reduce.h
///   }
///
/// An empty `dim` list reduces over every dimension, as in PyTorch 1.13.
///
//===----------------------------------------------------------------------===//

#ifndef SK_ITER_REDUCEUTILS_H
#define SK_ITER_REDUCEUTILS_H

#include "sk/iter/TensorIterator.h"
#include "sk/util/Analysis.h"

#include <optional>

namespace sk {

/// The dimensions of \p Dims (wrapped into [0, Ndim)) as a mask; every
/// dimension when \p Dims is empty. A repeated dimension is an error.
TensorIteratorBase::DimMask make_dim_mask(IntArrayRef Dims, int64_t Ndim);

/// The output sizes of reducing a tensor of \p Sizes over \p Mask: reduced
/// dimensions become 1 (\p Keepdim) or disappear.
DimVector shape_from_dim_mask(IntArrayRef Sizes,
                              TensorIteratorBase::DimMask Mask, bool Keepdim);

/// The output sizes of reducing a tensor of \p Sizes over \p Dims; what a
/// reduction's meta function computes.
DimVector reduction_shape(IntArrayRef Sizes, IntArrayRef Dims, bool Keepdim);

/// The meta function of a reduction: output 0 of \p Meta gets
/// reduction_shape(Self.sizes(), Dims, Keepdim), dtype \p OutDtype and
/// Self's device (set_output_raw_strided).
SK_SETS_OUTPUT(0)
void resize_reduction(impl::MetaBase &Meta, const Tensor &Self,
                      IntArrayRef Dims, bool Keepdim, ScalarType OutDtype);

/// The result dtype of sum-like reductions: \p Dtype when given, else int64
/// for integral and bool inputs when \p PromoteIntegers, else Self's.
ScalarType get_dtype_from_self(const Tensor &Self,
                               std::optional<ScalarType> Dtype,
                               bool PromoteIntegers);

/// \p Result (a reduction output, keepdim or not) viewed with the input's
/// rank \p Ndim: size 1 and stride 0 along the dimensions of \p Mask.
Tensor review_reduce_result(const Tensor &Result, int64_t Ndim,
                            TensorIteratorBase::DimMask Mask, bool Keepdim);

/// The iterator of a reduction of \p Self over \p Dims into \p Result,
/// which has the shape reduction_shape gives.
TensorIterator make_reduction(const Tensor &Self, const Tensor &Result,
                              IntArrayRef Dims, bool Keepdim);

} // namespace sk

#endif // SK_ITER_REDUCEUTILS_H
