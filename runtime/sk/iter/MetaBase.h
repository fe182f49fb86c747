//===--- MetaBase.h - The base of every structured kernel -------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `sk::impl::MetaBase` (at::impl::MetaBase, ATen/TensorMeta.h) is the base
/// of every structured kernel struct that skc generates:
///
///   sk::impl::MetaBase                       set_output_* / maybe_get_output
///    `- sk::meta::structured_add_Tensor      meta(), written by the author
///        `- sk::native::structured_add_out   impl(), one per backend
///            `- structured_add_out_functional / _inplace / _out
///                                            generated, final: they decide
///                                            where outputs live
///
/// A meta function never allocates: it describes each output (sizes,
/// strides, dtype, device) through one of the set_output_* calls below, and
/// the generated variant struct overriding them decides what that means:
/// allocate (functional), check the given tensor (inplace), or resize it
/// (out=). A meta function that wants to honour a given output (for example
/// to keep its dtype) asks maybe_get_output(), which returns an undefined
/// tensor in the functional variant.
///
/// The file also holds the author-facing macros (SK_META_FUNC,
/// SK_IMPL_FUNC, SK_PRECOMPUTE_*) and the building block of precompute
/// structs (Note [Precomputed fields]).
///
//===----------------------------------------------------------------------===//

#ifndef SK_ITER_METABASE_H
#define SK_ITER_METABASE_H

#include "sk/core/Tensor.h"
#include "sk/core/TensorOptions.h"
#include "sk/util/Analysis.h"
#include "sk/util/ArrayRef.h"

#include <cstdint>
#include <type_traits>
#include <utility>

namespace sk {
namespace impl {

// Note [set_output_*]
// ~~~~~~~~~~~~~~~~~~~
// A meta function describes output number Idx with exactly one of three
// calls (PyTorch's decision tree, issue #69813). Ask, in order:
//
//   Can impl() write an output of any strides (it goes through a
//   TensorIterator, or indexes with the output's own strides)?
//    |
//    +-- yes: set_output_raw_strided(Idx, Sizes, StridesHint, Options).
//    |        The strides are a hint used only when a tensor is allocated
//    |        or resized; a given out= or inplace tensor that already has
//    |        the right size keeps its strides and impl() gets it as is.
//    |
//    +-- no: does impl() need row-major (contiguous) strides?
//         |
//         +-- yes: set_output_contiguous(Idx, Sizes, Options).
//         |
//         +-- no:  set_output_strided(Idx, Sizes, Strides, Options), with
//                  the exact strides impl() needs.
//
// With set_output_strided and set_output_contiguous the generated inplace
// and out= variants compare the given tensor's strides with the required
// ones; when they differ, impl() writes into a freshly allocated *proxy*
// with the required strides, and the wrapper copies the proxy back into the
// user's tensor after impl() returns. skc passes the proxy to impl() for
// inplace calls too (PyTorch passes self; reference/torchgen.md §4.4).
//
// Empty strides mean "contiguous, or the memory format in Options".
// Options carry the dtype and device of the output; the out= variant
// requires the given tensor to match both exactly (no implicit casting:
// an op that casts into out= decides that in its meta function, through
// maybe_get_output()).

/// The base of every structured kernel; see the file comment.
///
/// Invariant: once set_output_*(Idx, ...) has returned,
/// maybe_get_output(Idx) is a defined tensor with the sizes asked for.
struct MetaBase {
  MetaBase() = default;
  MetaBase(const MetaBase &) = default;
  MetaBase &operator=(const MetaBase &) = default;
  MetaBase(MetaBase &&) noexcept = default;
  MetaBase &operator=(MetaBase &&) noexcept = default;
  virtual ~MetaBase() = default;

  /// Output \p OutputIdx must have exactly \p Strides; see Note
  /// [set_output_*]. The base implementation is an internal error: every
  /// variant struct overrides it.
  SK_SETS_OUTPUT_AT_ARG(0)
  virtual void set_output_strided(int64_t OutputIdx, IntArrayRef Sizes,
                                  IntArrayRef Strides, TensorOptions Options);
  /// Output \p OutputIdx may have any strides; \p Strides is a hint for
  /// allocation. See Note [set_output_*].
  SK_SETS_OUTPUT_AT_ARG(0)
  virtual void set_output_raw_strided(int64_t OutputIdx, IntArrayRef Sizes,
                                      IntArrayRef Strides,
                                      TensorOptions Options);
  /// set_output_strided with the row-major strides of \p Sizes.
  SK_SETS_OUTPUT_AT_ARG(0)
  void set_output_contiguous(int64_t OutputIdx, IntArrayRef Sizes,
                             TensorOptions Options);

  /// The tensor that output \p OutputIdx is written to: the user's out= or
  /// self tensor (or its proxy), or, in the functional variant, an
  /// undefined tensor until set_output_* allocated it.
  /// An override hides the overload below: bring it back with
  /// `using Parent::maybe_get_output;` (generated variants do).
  virtual const Tensor &maybe_get_output(int64_t OutputIdx) = 0;
  const Tensor &maybe_get_output() { return maybe_get_output(0); }
};

// Note [Precomputed fields]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// A schema's `precomputed:` entry (reference/torchgen.md §3.4) makes meta()
// return values that impl() takes instead of some arguments. meta() returns
// a precompute_out struct; each field has a setter that returns a *new*
// type with that field's bit set in the SetMask template argument, so
//
//  - setting a field twice is a compile error ("... already set"), and
//  - meta() is declared to return the all-bits type (meta_return_ty), so
//    forgetting a setter is a compile error too (no conversion).
//
// PyTorch generates one `template <bool KH = false, bool KW = false>` struct
// per op with hand-written copying; skc generates only the field list and
// one SK_PRECOMPUTE_FIELD line per field, and PrecomputeOut does the rest:
//
//   struct structured_avg_pool2d : ::sk::impl::MetaBase {
//     struct precompute_fields {
//       int64_t kH;
//       int64_t kW;
//     };
//     template <uint64_t SetMask = 0>
//     struct precompute_out
//         : ::sk::impl::PrecomputeOut<precompute_out, precompute_fields,
//                                     SetMask> {
//       SK_PRECOMPUTE_FIELD(0, int64_t, kH)
//       SK_PRECOMPUTE_FIELD(1, int64_t, kW)
//     };
//     using meta_return_ty =
//         precompute_out<::sk::impl::precomputeAllSet(2)>;
//     meta_return_ty meta(const Tensor &self, IntArrayRef kernel_size);
//   };
//
//   SK_PRECOMPUTE_META_FUNC(avg_pool2d)(const Tensor &self, ...) {
//     ...
//     return SK_PRECOMPUTE_STRUCT(avg_pool2d)().set_kH(KH).set_kW(KW);
//   }
//
// The wrapper then calls `auto Precompute = Op.meta(...)` and passes
// `Precompute.kH` to impl(). At most 64 fields per op.

/// The mask bit of precomputed field number \p Index.
constexpr uint64_t precomputeBit(unsigned Index) {
  return uint64_t(1) << Index;
}
/// The mask of a precompute struct whose first \p Count fields are set.
constexpr uint64_t precomputeAllSet(unsigned Count) {
  return Count >= 64 ? ~uint64_t(0) : precomputeBit(Count) - 1;
}

/// The base of a generated precompute_out<SetMask> (Note [Precomputed
/// fields]): holds the fields and records in the type which are set.
template <template <uint64_t> class Derived, typename Fields, uint64_t SetMask>
struct SK_PRECOMPUTE_STRUCT_BASE PrecomputeOut : Fields {
  using fields_type = Fields;
  static constexpr uint64_t kSetMask = SetMask;
  template <unsigned Index> static constexpr bool isSet() {
    static_assert(Index < 64, "at most 64 precomputed fields");
    return (SetMask & precomputeBit(Index)) != 0;
  }

protected:
  /// A copy of this struct, with field \p Index (\p Member) set to \p V,
  /// as the type that records it.
  template <unsigned Index, typename MemberT, typename V>
  Derived<SetMask | precomputeBit(Index)> withField(MemberT Fields::*Member,
                                                    V &&Value) const {
    Derived<SetMask | precomputeBit(Index)> R;
    static_cast<Fields &>(R) = static_cast<const Fields &>(*this);
    R.*Member = std::forward<V>(Value);
    return R;
  }
};

} // namespace impl
} // namespace sk

/// The setter of precomputed field \p Name (number \p Index, of type
/// \p Type) inside a generated precompute_out; see Note [Precomputed
/// fields].
#define SK_PRECOMPUTE_FIELD(Index, Type, Name)                                 \
  SK_SETS_PRECOMPUTED(#Name) auto set_##Name(Type Value) const {               \
    using SkSelf_ =                                                            \
        std::remove_cv_t<std::remove_reference_t<decltype(*this)>>;            \
    static_assert(!SkSelf_::template isSet<Index>(),                           \
                  "precomputed field '" #Name "' already set");                \
    return this->template withField<Index>(&SkSelf_::fields_type::Name,        \
                                           std::move(Value));                  \
  }

// Author-facing macros (TORCH_META_FUNC and friends). Each takes the
// operator name and optionally the overload name:
//
//   SK_META_FUNC(add, Tensor)(const Tensor &self, ...) { ... }
//     defines sk::meta::structured_add_Tensor::meta,
//   SK_IMPL_FUNC(add_out)(const Tensor &self, ..., const Tensor &out) {...}
//     defines sk::native::structured_add_out::impl.
//
// The names are fully qualified, so a definition may sit in any enclosing
// namespace of sk::meta / sk::native, the global one included.
#define SK_DETAIL_PICK_1_OR_2(_1, _2, Name, ...) Name
#define SK_DETAIL_META_NAME1(Name) structured_##Name
#define SK_DETAIL_META_NAME2(Name, Overload) structured_##Name##_##Overload
#define SK_DETAIL_META_NAME(...)                                               \
  SK_DETAIL_PICK_1_OR_2(__VA_ARGS__, SK_DETAIL_META_NAME2,                     \
                        SK_DETAIL_META_NAME1, )                                \
  (__VA_ARGS__)

#define SK_META_FUNC(...)                                                      \
  void ::sk::meta::SK_DETAIL_META_NAME(__VA_ARGS__)::meta                      \
      SK_KERNEL_DEFINITION("meta")
// The parentheses keep `meta_return_ty ::sk` from parsing as one
// nested name.
#define SK_PRECOMPUTE_META_FUNC(...)                                           \
  ::sk::meta::SK_DETAIL_META_NAME(__VA_ARGS__)::meta_return_ty(                \
      ::sk::meta::SK_DETAIL_META_NAME(__VA_ARGS__)::meta                      \
          SK_KERNEL_DEFINITION("precompute_meta"))
#define SK_PRECOMPUTE_STRUCT(...)                                              \
  ::sk::meta::SK_DETAIL_META_NAME(__VA_ARGS__)::precompute_out<>
#define SK_IMPL_FUNC(Name)                                                     \
  void ::sk::native::structured_##Name::impl SK_KERNEL_DEFINITION("impl")

#endif // SK_ITER_METABASE_H
