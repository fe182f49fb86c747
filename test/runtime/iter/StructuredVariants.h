//===--- StructuredVariants.h - Hand-written generated wrappers -*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The per-variant structs that skc generates for a structured kernel
/// (reference/torchgen.md §4.3), written by hand for the tests. torchgen
/// emits one copy per operator and backend; these are templates over the
/// parent (the impl struct for a backend, the meta struct for Meta), the
/// backend key, whether the parent is a TensorIteratorBase
/// (structured_inherits: its set_output_raw_strided must run after ours)
/// and the number of outputs. The bodies are what the generator emits.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_TEST_RUNTIME_ITER_STRUCTUREDVARIANTS_H
#define SKC_TEST_RUNTIME_ITER_STRUCTUREDVARIANTS_H

#include "sk/iter/MetaBase.h"
#include "sk/iter/StructuredHelpers.h"

#include <array>
#include <functional>
#include <optional>

namespace sk {
namespace test {

/// The backend's non-dispatching allocator: the Meta backend allocates on
/// the meta device whatever the options say (RegisterMeta.cpp).
template <DeviceType Key>
Tensor createOutFor(IntArrayRef Sizes, IntArrayRef Strides,
                    TensorOptions Options) {
  if (Key == DeviceType::Meta)
    Options = Options.device(kMeta);
  return impl::create_out(Sizes, Strides, Options);
}

/// structured_<kernel>_functional: allocates every output.
template <typename Parent, DeviceType Key, bool InheritsIterator, size_t N>
struct FunctionalVariant final : public Parent {
  void set_output_strided(int64_t OutputIdx, IntArrayRef Sizes,
                          IntArrayRef Strides, TensorOptions Options) override {
    outputs_[OutputIdx] = createOutFor<Key>(Sizes, Strides, Options);
    if constexpr (InheritsIterator)
      Parent::set_output_raw_strided(OutputIdx, Sizes, Strides, Options);
  }
  void set_output_raw_strided(int64_t OutputIdx, IntArrayRef Sizes,
                              IntArrayRef Strides,
                              TensorOptions Options) override {
    outputs_[OutputIdx] = createOutFor<Key>(Sizes, Strides, Options);
    if constexpr (InheritsIterator)
      Parent::set_output_raw_strided(OutputIdx, Sizes, Strides, Options);
  }
  using Parent::maybe_get_output;
  const Tensor &maybe_get_output(int64_t OutputIdx) override {
    return outputs_[OutputIdx];
  }
  std::array<Tensor, N> outputs_;
};

/// structured_<kernel>_inplace: checks self; a proxy when the kernel needs
/// other strides (set_output_strided only).
template <typename Parent, DeviceType Key, bool InheritsIterator, size_t N>
struct InplaceVariant final : public Parent {
  explicit InplaceVariant(Tensor &Self) : outputs_{std::ref(Self)} {}
  void set_output_strided(int64_t OutputIdx, IntArrayRef Sizes,
                          IntArrayRef Strides, TensorOptions Options) override {
    const Tensor &Out = outputs_[OutputIdx].get();
    impl::check_inplace(Out, Sizes, Options);
    if (auto Proxy = impl::maybe_create_proxy(Out, Sizes, Strides, Options))
      proxy_outputs_[OutputIdx] = std::move(*Proxy);
    if constexpr (InheritsIterator)
      Parent::set_output_raw_strided(OutputIdx, Sizes, Strides, Options);
  }
  void set_output_raw_strided(int64_t OutputIdx, IntArrayRef Sizes,
                              IntArrayRef Strides,
                              TensorOptions Options) override {
    const Tensor &Out = outputs_[OutputIdx].get();
    impl::check_inplace(Out, Sizes, Options);
    if constexpr (InheritsIterator)
      Parent::set_output_raw_strided(OutputIdx, Sizes, Strides, Options);
  }
  using Parent::maybe_get_output;
  const Tensor &maybe_get_output(int64_t OutputIdx) override {
    return proxy_outputs_[OutputIdx] ? *proxy_outputs_[OutputIdx]
                                     : outputs_[OutputIdx].get();
  }
  std::array<std::reference_wrapper<Tensor>, N> outputs_;
  std::array<std::optional<Tensor>, N> proxy_outputs_;
};

/// structured_<kernel>_out: checks dtype and device, resizes (restriding
/// only on resize); a proxy when the kernel needs other strides.
template <typename Parent, DeviceType Key, bool InheritsIterator, size_t N>
struct OutVariant final : public Parent {
  template <typename... Outs>
  explicit OutVariant(Outs &...Out) : outputs_{std::ref(Out)...} {}
  void set_output_strided(int64_t OutputIdx, IntArrayRef Sizes,
                          IntArrayRef Strides, TensorOptions Options) override {
    const Tensor &Out = outputs_[OutputIdx].get();
    impl::resize_out(Out, Sizes, Strides, Options);
    if (auto Proxy = impl::maybe_create_proxy(Out, Sizes, Strides, Options))
      proxy_outputs_[OutputIdx] = std::move(*Proxy);
    if constexpr (InheritsIterator)
      Parent::set_output_raw_strided(OutputIdx, Sizes, Strides, Options);
  }
  void set_output_raw_strided(int64_t OutputIdx, IntArrayRef Sizes,
                              IntArrayRef Strides,
                              TensorOptions Options) override {
    const Tensor &Out = outputs_[OutputIdx].get();
    impl::resize_out(Out, Sizes, Strides, Options);
    if constexpr (InheritsIterator)
      Parent::set_output_raw_strided(OutputIdx, Sizes, Strides, Options);
  }
  using Parent::maybe_get_output;
  const Tensor &maybe_get_output(int64_t OutputIdx) override {
    return proxy_outputs_[OutputIdx] ? *proxy_outputs_[OutputIdx]
                                     : outputs_[OutputIdx].get();
  }
  std::array<std::reference_wrapper<Tensor>, N> outputs_;
  std::array<std::optional<Tensor>, N> proxy_outputs_;
};

} // namespace test
} // namespace sk

#endif // SKC_TEST_RUNTIME_ITER_STRUCTUREDVARIANTS_H
