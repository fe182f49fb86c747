//===--- ReduceUtils.cpp - Shapes and iterators of reductions -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/ReduceUtils.h"

namespace sk {

using DimMask = TensorIteratorBase::DimMask;

DimMask make_dim_mask(IntArrayRef Dims, int64_t Ndim) {
  SK_CHECK(Ndim <= 64, "only tensors with up to 64 dims are supported");
  DimMask Mask;
  if (Dims.empty())
    return Mask.flip();
  for (int64_t D : Dims) {
    int64_t Wrapped = maybeWrapDim(D, Ndim);
    SK_CHECK(!Mask[Wrapped], "dim ", Wrapped,
             " appears multiple times in the list of dims");
    Mask[Wrapped] = true;
  }
  return Mask;
}

DimVector shape_from_dim_mask(IntArrayRef Sizes, DimMask Mask, bool Keepdim) {
  DimVector Shape;
  for (size_t D = 0; D != Sizes.size(); ++D) {
    if (!Mask[D])
      Shape.push_back(Sizes[D]);
    else if (Keepdim)
      Shape.push_back(1);
  }
  return Shape;
}

DimVector reduction_shape(IntArrayRef Sizes, IntArrayRef Dims, bool Keepdim) {
  int64_t Ndim = static_cast<int64_t>(Sizes.size());
  return shape_from_dim_mask(Sizes, make_dim_mask(Dims, Ndim), Keepdim);
}

void resize_reduction(impl::MetaBase &Meta, const Tensor &Self,
                      IntArrayRef Dims, bool Keepdim, ScalarType OutDtype) {
  DimVector Shape = reduction_shape(Self.sizes(), Dims, Keepdim);
  Meta.set_output_raw_strided(0, Shape, {}, Self.options().dtype(OutDtype));
}

ScalarType get_dtype_from_self(const Tensor &Self,
                               std::optional<ScalarType> Dtype,
                               bool PromoteIntegers) {
  if (Dtype)
    return *Dtype;
  ScalarType SrcType = Self.scalar_type();
  if (PromoteIntegers && isIntegralType(SrcType, /*IncludeBool=*/true))
    return kLong;
  return SrcType;
}

Tensor review_reduce_result(const Tensor &Result, int64_t Ndim, DimMask Mask,
                            bool Keepdim) {
  if (Keepdim)
    return Result;
  DimVector Shape, Stride;
  IntArrayRef Sizes = Result.sizes(), Strides = Result.strides();
  size_t Next = 0;
  for (int64_t D = 0; D < Ndim; ++D) {
    if (Mask[D]) {
      Shape.push_back(1);
      Stride.push_back(0);
      continue;
    }
    SK_INTERNAL_ASSERT(Next < Sizes.size(), "reduction output of rank ",
                       Sizes.size(), " too small for input rank ", Ndim);
    Shape.push_back(Sizes[Next]);
    Stride.push_back(Strides[Next]);
    ++Next;
  }
  SK_INTERNAL_ASSERT(Next == Sizes.size(), "reduction output of rank ",
                     Sizes.size(), " too large for input rank ", Ndim);
  // A view sharing Result's storage (as_strided), made here so that the
  // iterator does not depend on the view ops.
  TensorImpl *Src = Result.unsafeGetTensorImpl();
  auto Impl = IntrusivePtr<TensorImpl>::make(Src->storage(), Src->dtype(),
                                             Src->device());
  Impl->set_sizes_and_strides(Shape, Stride, Src->storage_offset());
  return Tensor(std::move(Impl));
}

TensorIterator make_reduction(const Tensor &Self, const Tensor &Result,
                              IntArrayRef Dims, bool Keepdim) {
  int64_t Ndim = Self.dim();
  DimMask Mask = make_dim_mask(Dims, Ndim);
  DimVector Expected = shape_from_dim_mask(Self.sizes(), Mask, Keepdim);
  SK_CHECK(Result.sizes() == IntArrayRef(Expected),
           "reduction: expected an output of shape ", Expected,
           " for input shape ", Self.sizes(), ", but got ", Result.sizes());
  Tensor Viewed = review_reduce_result(Result, Ndim, Mask, Keepdim);
  return TensorIterator::reduce_op(Viewed, Self);
}

} // namespace sk
