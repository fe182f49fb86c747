//===--- Tensor.cpp - The tensor handle -----------------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/core/Tensor.h"

namespace sk {

int64_t maybeWrapDim(int64_t Dim, int64_t Rank, bool WrapScalar) {
  if (Rank <= 0) {
    SK_CHECK_INDEX(WrapScalar, "dimension specified as ", Dim,
                   " but tensor has no dimensions");
    Rank = 1;
  }
  SK_CHECK_INDEX(Dim >= -Rank && Dim < Rank,
                 "Dimension out of range (expected to be in range of [", -Rank,
                 ", ", Rank - 1, "], but got ", Dim, ")");
  return Dim < 0 ? Dim + Rank : Dim;
}

bool Tensor::is_alias_of(const Tensor &O) const {
  if (!defined() || !O.defined())
    return false;
  const Storage &A = impl().storage();
  return A.defined() && A == O.unsafeGetTensorImpl()->storage();
}

MemoryFormat Tensor::suggest_memory_format() const {
  const TensorImpl &I = impl();
  if (I.dim() == 4 && I.is_contiguous(MemoryFormat::ChannelsLast) &&
      !I.is_contiguous())
    return MemoryFormat::ChannelsLast;
  if (I.dim() == 5 && I.is_contiguous(MemoryFormat::ChannelsLast3d) &&
      !I.is_contiguous())
    return MemoryFormat::ChannelsLast3d;
  return MemoryFormat::Contiguous;
}

Scalar Tensor::item() const {
  SK_CHECK(numel() == 1, "a Tensor with ", numel(),
           " elements cannot be converted to Scalar");
  SK_CHECK_NOT_IMPLEMENTED(!is_meta(),
                           "item(): cannot read the value of a tensor on the "
                           "meta device; meta tensors have no data");
  // Elsewhere (CUDA) the one element comes to the host first, as
  // _local_scalar_dense copies it in PyTorch.
  if (!is_cpu())
    return to(Device(DeviceType::CPU)).item();
  return visitScalarType(dtype(), [&](auto Tag) -> Scalar {
    using T = decltype(Tag);
    return Scalar(*static_cast<const T *>(data_ptr()));
  });
}

void detail::dataPtrTypeMismatch(const Tensor &T, ScalarType Requested) {
  throw TypeError(str("data_ptr: expected scalar type ", Requested,
                      " but found ", T.scalar_type()));
}

} // namespace sk
