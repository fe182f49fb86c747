//===--- StructuredHelpers.cpp - What generated wrappers call -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/StructuredHelpers.h"

#include "sk/core/EmptyTensor.h"
#include "sk/iter/TypePromotion.h"

namespace sk {
namespace impl {

void check_inplace(const Tensor &Self, IntArrayRef Sizes,
                   const TensorOptions &Options) {
  SK_CHECK(Options.dtype() == Self.dtype(),
           "Bad in-place call: input tensor dtype ",
           detail::typeName(Self.dtype()), " and output tensor dtype ",
           detail::typeName(Options.dtype()), " should match");
  SK_CHECK(Options.device() == Self.device(),
           "Bad in-place call: input tensor device ", Self.device(),
           " and output tensor device ", Options.device(), " should match");
  SK_CHECK(Sizes == Self.sizes(), "Bad in-place call: input tensor size ",
           Self.sizes(), " and output tensor size ", Sizes, " should match");
}

void resize_out(const Tensor &Out, IntArrayRef Sizes, IntArrayRef Strides,
                const TensorOptions &Options) {
  SK_CHECK(Options.dtype() == Out.dtype(), "Expected out tensor to have dtype ",
           detail::typeName(Options.dtype()), ", but got ",
           detail::typeName(Out.dtype()), " instead");
  SK_CHECK(Options.device() == Out.device(),
           "Expected out tensor to have device ", Options.device(),
           ", but got ", Out.device(), " instead");
  // Only restride when a resize happened; otherwise the meta function's
  // strides are advisory and the out tensor keeps its own (PyTorch issue
  // #53587).
  if (!resize_output(Out, Sizes))
    return;
  if (!Strides.empty()) {
    SK_INTERNAL_ASSERT(!Options.memory_format_opt().has_value(),
                       "strides and a memory format given together");
    restride_output(Out, Sizes, Strides);
    return;
  }
  if (auto Format = Options.memory_format_opt())
    Out.unsafeGetTensorImpl()->resize(Sizes, *Format);
}

std::optional<Tensor> maybe_create_proxy(const Tensor &Out, IntArrayRef Sizes,
                                         IntArrayRef Strides,
                                         const TensorOptions &Options) {
  if (Out.strides() == Strides)
    return std::nullopt;
  return detail::empty_strided_generic(Sizes, Strides, Options.dtype(),
                                       Options.device());
}

void copy_to_out(const Tensor &Result, const Tensor &Out) {
  resize_out(Out, Result.sizes(), Result.strides(), Result.options());
  Out.copy_(Result);
}

void copy_to_inplace(const Tensor &Result, const Tensor &Self) {
  check_inplace(Self, Result.sizes(), Result.options());
  Self.copy_(Result);
}

bool resize_output(const Tensor &Output, IntArrayRef Shape) {
  if (Output.sizes() == Shape)
    return false;
  if (Output.numel() != 0)
    SK_WARN("An output with one or more elements was resized since it had "
            "shape ",
            Output.sizes(), ", which does not match the required output shape ",
            Shape,
            ". This behavior is deprecated, and in a future release outputs "
            "will not be resized unless they have zero elements. You can "
            "explicitly reuse an out tensor t by resizing it, inplace, to "
            "zero elements with t.resize_(0).");
  for (int64_t S : Shape)
    SK_CHECK(S >= 0, "resize_output: Trying to resize to negative dimension ",
             S, ": ", Shape);
  Output.unsafeGetTensorImpl()->resize(Shape);
  return true;
}

void restride_output(const Tensor &T, IntArrayRef Sizes, IntArrayRef Strides) {
  TensorImpl *Impl = T.unsafeGetTensorImpl();
  Impl->set_sizes_and_strides(Sizes, Strides);
  if (Impl->has_storage())
    Impl->storage()->grow(Impl->required_storage_bytes());
}

} // namespace impl
} // namespace sk
