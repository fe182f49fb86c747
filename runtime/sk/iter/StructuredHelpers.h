//===--- StructuredHelpers.h - What generated wrappers call -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The output handling of the functional / inplace / out= variant structs
/// that skc generates for a structured kernel (reference/torchgen.md §4.3).
/// torchgen pastes these helpers into every Register<Key>.cpp; skc's
/// generated code calls them here instead. Each takes the sizes, strides
/// and options that a meta function passed to set_output_* (Note
/// [set_output_*] in MetaBase.h).
///
//===----------------------------------------------------------------------===//

#ifndef SK_ITER_STRUCTUREDHELPERS_H
#define SK_ITER_STRUCTUREDHELPERS_H

#include "sk/core/EmptyTensor.h"
#include "sk/core/Tensor.h"

#include <optional>

namespace sk {
namespace impl {

/// Functional variant: allocates an output on Options.device() without
/// dispatching. Empty \p Strides mean contiguous, or Options' memory format.
/// Inline: every generated functional wrapper calls it, and row-major meta
/// outputs (shape inference) are then built without a call.
inline Tensor create_out(IntArrayRef Sizes, IntArrayRef Strides,
                         const TensorOptions &Options) {
  return ::sk::detail::empty_with_options(Sizes, Strides, Options);
}

/// Inplace variant: \p Self must already have the output's dtype, device
/// and sizes ("Bad in-place call: ...").
void check_inplace(const Tensor &Self, IntArrayRef Sizes,
                   const TensorOptions &Options);

/// out= variant: \p Out must have exactly the output's dtype and device;
/// it is resized to \p Sizes (with a warning when it had elements, see
/// resize_output) and restrided to \p Strides, or to Options' memory
/// format, only when the resize happened: a correctly sized out keeps its
/// strides.
void resize_out(const Tensor &Out, IntArrayRef Sizes, IntArrayRef Strides,
                const TensorOptions &Options);

/// Inplace and out= variants of set_output_strided: a proxy with the
/// required \p Strides when \p Out's strides differ, else nothing. The
/// wrapper passes the proxy to impl() and copies it back into \p Out.
std::optional<Tensor> maybe_create_proxy(const Tensor &Out, IntArrayRef Sizes,
                                         IntArrayRef Strides,
                                         const TensorOptions &Options);

/// The out= variant that skc generates for a backend with only a
/// functional kernel (seed 002): \p Out takes \p Result's dtype and device
/// checks and resize as resize_out gives them, then \p Result's values.
void copy_to_out(const Tensor &Result, const Tensor &Out);

/// The inplace variant generated from a functional kernel: \p Self must
/// already have \p Result's sizes, dtype and device (as check_inplace
/// says), then takes its values.
void copy_to_inplace(const Tensor &Result, const Tensor &Self);

/// Resizes \p Output to \p Shape (at::native::resize_output) and returns
/// whether it changed. Resizing a tensor that has elements warns through
/// SK_WARN, as PyTorch does; resizing an empty one is silent.
bool resize_output(const Tensor &Output, IntArrayRef Shape);

/// Gives \p T the sizes \p Sizes and strides \p Strides, keeping its
/// storage offset and growing its storage when needed (as_strided_).
void restride_output(const Tensor &T, IntArrayRef Sizes, IntArrayRef Strides);

} // namespace impl
} // namespace sk

#endif // SK_ITER_STRUCTUREDHELPERS_H
