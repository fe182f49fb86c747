//===--- Views.h - Shape helpers and free-function views --------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The shape arithmetic behind view and reshape (at::infer_size and
/// at::detail::computeStride), and the views that PyTorch also offers as
/// functions (`torch.transpose(t, 0, 1)`). The methods themselves are
/// declared in sk/core/Tensor.h and defined in Views.cpp.
///
/// Every view is a new TensorImpl over the input's Storage with new sizes,
/// strides and storage offset; on meta tensors (no storage) only the
/// geometry is computed.
///
//===----------------------------------------------------------------------===//

#ifndef SK_OPS_VIEWS_H
#define SK_OPS_VIEWS_H

#include "sk/core/Tensor.h"

#include <optional>
#include <vector>

namespace sk {

/// Replaces the one -1 in \p Shape so that it has \p Numel elements
/// (at::infer_size). Errors start with "<Op>(): " and name the shape:
/// "view(): shape '[2, 5]' is invalid for input of size 6".
std::vector<int64_t> inferSize(IntArrayRef Shape, int64_t Numel,
                               const char *Op = "view");

/// The strides that view a tensor of \p OldSizes and \p OldStrides as
/// \p NewSizes without copying, or nullopt when some dimension of the new
/// shape would span two non-contiguous chunks of the old one
/// (at::detail::computeStride). \p NewSizes must have the same number of
/// elements and contain no -1.
std::optional<std::vector<int64_t>> computeStride(IntArrayRef OldSizes,
                                                  IntArrayRef OldStrides,
                                                  IntArrayRef NewSizes);

/// A view of \p Self with the given geometry over the same storage (or
/// none, for meta tensors); no checks beyond TensorImpl's own.
Tensor makeView(const Tensor &Self, IntArrayRef Sizes, IntArrayRef Strides,
                int64_t StorageOffset);

inline Tensor reshape(const Tensor &Self, IntArrayRef Sizes) {
  return Self.reshape(Sizes);
}
inline Tensor as_strided(const Tensor &Self, IntArrayRef Sizes,
                         IntArrayRef Strides,
                         std::optional<int64_t> StorageOffset = std::nullopt) {
  return Self.as_strided(Sizes, Strides, StorageOffset);
}
inline Tensor transpose(const Tensor &Self, int64_t Dim0, int64_t Dim1) {
  return Self.transpose(Dim0, Dim1);
}
inline Tensor permute(const Tensor &Self, IntArrayRef Dims) {
  return Self.permute(Dims);
}
inline Tensor t(const Tensor &Self) { return Self.t(); }
inline Tensor narrow(const Tensor &Self, int64_t Dim, int64_t Start,
                     int64_t Length) {
  return Self.narrow(Dim, Start, Length);
}
inline Tensor select(const Tensor &Self, int64_t Dim, int64_t Index) {
  return Self.select(Dim, Index);
}
inline Tensor squeeze(const Tensor &Self) { return Self.squeeze(); }
inline Tensor squeeze(const Tensor &Self, int64_t Dim) {
  return Self.squeeze(Dim);
}
inline Tensor unsqueeze(const Tensor &Self, int64_t Dim) {
  return Self.unsqueeze(Dim);
}
inline Tensor flatten(const Tensor &Self, int64_t StartDim = 0,
                      int64_t EndDim = -1) {
  return Self.flatten(StartDim, EndDim);
}

} // namespace sk

#endif // SK_OPS_VIEWS_H
