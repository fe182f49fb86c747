//===--- Tensor.h - The tensor handle ---------------------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `sk::Tensor` is a reference-counted handle to a TensorImpl, as
/// at::Tensor is. Copying a Tensor shares the tensor; views share storage.
/// Method names follow PyTorch's (docs/Style.md).
///
/// The methods that are operators (views, copy_, to, ...) are defined in
/// runtime/sk/ops/; this header only declares them.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CORE_TENSOR_H
#define SK_CORE_TENSOR_H

#include "sk/core/Scalar.h"
#include "sk/core/TensorImpl.h"
#include "sk/core/TensorOptions.h"
#include "sk/util/Analysis.h"
#include "sk/util/ArrayRef.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace sk {

class Tensor;
using TensorList = ArrayRef<Tensor>;

/// Wraps a possibly negative dimension index into [0, Rank); an IndexError
/// naming \p Rank otherwise. A 0-dim tensor accepts -1 and 0.
int64_t maybeWrapDim(int64_t Dim, int64_t Rank, bool WrapScalar = true);

class Tensor {
public:
  Tensor() = default;
  explicit Tensor(IntrusivePtr<TensorImpl> Impl) : Impl(std::move(Impl)) {}

  bool defined() const { return Impl.defined(); }
  void reset() { Impl.reset(); }
  TensorImpl *unsafeGetTensorImpl() const { return Impl.get(); }
  const IntrusivePtr<TensorImpl> &getIntrusivePtr() const { return Impl; }
  size_t use_count() const { return Impl.useCount(); }
  bool is_same(const Tensor &O) const { return Impl == O.Impl; }
  /// Whether both tensors look into the same storage.
  bool is_alias_of(const Tensor &O) const;

  // Shape.
  int64_t dim() const { return impl().dim(); }
  int64_t ndimension() const { return dim(); }
  IntArrayRef sizes() const { return impl().sizes(); }
  IntArrayRef strides() const { return impl().strides(); }
  int64_t size(int64_t D) const {
    return sizes()[maybeWrapDim(D, dim(), /*WrapScalar=*/false)];
  }
  int64_t stride(int64_t D) const {
    return strides()[maybeWrapDim(D, dim(), /*WrapScalar=*/false)];
  }
  int64_t numel() const { return impl().numel(); }
  size_t nbytes() const { return numel() * itemsize(); }
  size_t itemsize() const { return impl().itemsize(); }
  size_t element_size() const { return itemsize(); }
  int64_t storage_offset() const { return impl().storage_offset(); }
  bool is_contiguous(MemoryFormat F = MemoryFormat::Contiguous) const {
    return impl().is_contiguous(F);
  }
  bool is_non_overlapping_and_dense() const {
    return impl().is_non_overlapping_and_dense();
  }
  /// ChannelsLast(3d) when the tensor is laid out that way and not also
  /// row-major, else Contiguous (at::Tensor::suggest_memory_format).
  MemoryFormat suggest_memory_format() const;

  // Type and place.
  ScalarType scalar_type() const { return impl().dtype(); }
  ScalarType dtype() const { return impl().dtype(); }
  Device device() const { return impl().device(); }
  bool is_cpu() const { return device().is_cpu(); }
  bool is_cuda() const { return device().is_cuda(); }
  bool is_meta() const { return device().is_meta(); }
  bool is_floating_point() const { return isFloatingType(dtype()); }
  TensorOptions options() const {
    return TensorOptions().dtype(dtype()).device(device());
  }
  DispatchKeySet key_set() const { return impl().key_set(); }

  // Data. Every accessor is an error on a meta tensor.
  SK_READS_DATA void *data_ptr() const { return impl().data(); }
  template <typename T> SK_READS_DATA T *data_ptr() const;
  template <typename T> SK_READS_DATA const T *const_data_ptr() const {
    return data_ptr<T>();
  }
  /// The value of a one-element tensor.
  SK_READS_DATA Scalar item() const;
  template <typename T> SK_READS_DATA T item() const {
    return item().to<T>();
  }

  // Views (runtime/sk/ops/Views.cpp); all work on meta tensors.
  Tensor view(IntArrayRef Sizes) const;
  Tensor reshape(IntArrayRef Sizes) const;
  Tensor as_strided(IntArrayRef Sizes, IntArrayRef Strides,
                    std::optional<int64_t> StorageOffset = std::nullopt) const;
  Tensor transpose(int64_t Dim0, int64_t Dim1) const;
  Tensor permute(IntArrayRef Dims) const;
  Tensor t() const;
  Tensor narrow(int64_t Dim, int64_t Start, int64_t Length) const;
  Tensor slice(int64_t Dim = 0, std::optional<int64_t> Start = std::nullopt,
               std::optional<int64_t> End = std::nullopt,
               int64_t Step = 1) const;
  Tensor select(int64_t Dim, int64_t Index) const;
  Tensor expand(IntArrayRef Sizes) const;
  Tensor expand_as(const Tensor &Other) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t Dim) const;
  Tensor unsqueeze(int64_t Dim) const;
  Tensor flatten(int64_t StartDim = 0, int64_t EndDim = -1) const;
  Tensor contiguous(MemoryFormat F = MemoryFormat::Contiguous) const;

  // Copies and conversions (runtime/sk/ops/Copy.cpp).
  Tensor clone(std::optional<MemoryFormat> F = std::nullopt) const;
  /// Copies \p Src into this tensor, broadcasting it and converting its
  /// dtype.
  Tensor &copy_(const Tensor &Src);
  const Tensor &copy_(const Tensor &Src) const;
  Tensor to(ScalarType D, bool Copy = false) const;
  Tensor to(Device D, bool Copy = false) const;
  Tensor to(TensorOptions O, bool Copy = false) const;
  const Tensor &fill_(const Scalar &Value) const;
  const Tensor &zero_() const;
  /// Resizes in place (at::Tensor::resize_); keeps the data that fits.
  const Tensor &resize_(IntArrayRef Sizes,
                        std::optional<MemoryFormat> F = std::nullopt) const;

  /// PyTorch's repr: `tensor([[1., 2.], [3., 4.]])`, and for meta tensors
  /// `tensor(..., device='meta', size=(2, 3))`.
  std::string toString() const;

private:
  TensorImpl &impl() const {
    SK_CHECK(Impl.defined(), "Cannot use an undefined tensor");
    return *Impl;
  }
  IntrusivePtr<TensorImpl> Impl;
};

SK_READS_DATA std::ostream &operator<<(std::ostream &OS, const Tensor &T);

namespace detail {
[[noreturn]] void dataPtrTypeMismatch(const Tensor &T, ScalarType Requested);
} // namespace detail

template <typename T> T *Tensor::data_ptr() const {
  if (SK_UNLIKELY(scalar_type() != scalarTypeOf<T>()))
    detail::dataPtrTypeMismatch(*this, scalarTypeOf<T>());
  return static_cast<T *>(data_ptr());
}

} // namespace sk

#endif // SK_CORE_TENSOR_H
