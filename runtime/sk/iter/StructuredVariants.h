//===--- StructuredVariants.h - The variants of a structured kernel -*- C++ -*-//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The functional, inplace and out= variant structs of a structured kernel
/// (reference/torchgen.md §4.3). torchgen pastes one copy of each struct per
/// operator and backend into Register<Key>.cpp; skc's generated wrappers
/// instantiate these templates instead, so a generated file holds only what
/// differs between operators (their arguments) and compiles fast:
///
///   ::sk::Tensor wrapper_CPU_add_Tensor(const ::sk::Tensor &self, ...) {
///     ::sk::impl::FunctionalVariant<::sk::native::structured_add_out,
///                                   ::sk::DispatchKey::CPU, true, 1> op;
///     op.meta(self, other, alpha);
///     op.impl(self, other, alpha, op.outputs_[0]);
///     return std::move(op.outputs_[0]);
///   }
///
/// Template arguments:
///  - Parent: the impl struct of the backend's kernel, or, for the Meta
///    backend, the meta struct (there is no impl: Note [Meta is generated]);
///  - Key: the backend. Meta allocates on the meta device whatever the
///    options say; device-guard backends (CUDA, PrivateUse1-3) set a device
///    guard to the outputs' device before anything is allocated;
///  - CallsParentSetOutput: the parent is not MetaBase itself but a
///    `structured_inherits` class (TensorIteratorBase) that must see every
///    output after it is set;
///  - N: the number of outputs.
///
/// Member names follow torchgen's (outputs_, proxy_outputs_), which
/// generated code uses.
///
//===----------------------------------------------------------------------===//

#ifndef SK_ITER_STRUCTUREDVARIANTS_H
#define SK_ITER_STRUCTUREDVARIANTS_H

#include "sk/core/DeviceGuard.h"
#include "sk/core/DispatchKey.h"
#include "sk/iter/MetaBase.h"
#include "sk/iter/StructuredHelpers.h"
#include "sk/util/Exception.h"

#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <type_traits>

namespace sk {
namespace impl {

// Note [Meta is generated]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// Nobody writes a Meta kernel for a structured operator: skc instantiates
// these variants with the meta struct as Parent and Key = Meta, and the
// generated wrapper runs meta() only. set_output_* allocates on the meta
// device (no storage) and the inplace / out= checks run on meta tensors as
// they would on real ones, so shape, dtype and device errors surface on
// Meta exactly as on CPU.

/// Whether the wrappers of backend \p Key set a device guard (and check
/// that their tensors share a device): the backends whose tensors live on
/// an indexed device (reference/torchgen.md §3.7).
constexpr bool usesDeviceGuard(DispatchKey Key) {
  return Key == DispatchKey::CUDA || Key == DispatchKey::PrivateUse1 ||
         Key == DispatchKey::PrivateUse2 || Key == DispatchKey::PrivateUse3;
}

/// A backend's non-dispatching allocation of a functional output.
template <DispatchKey Key>
Tensor createOutput(IntArrayRef Sizes, IntArrayRef Strides,
                    TensorOptions Options) {
  if constexpr (Key == DispatchKey::Meta)
    Options = Options.device(kMeta);
  return create_out(Sizes, Strides, Options);
}

/// The guard of a device-guard backend's variant: set lazily to the device
/// of the first output, as torchgen's OptionalCUDAGuard guard_ is.
struct LazyDeviceGuard {
  void set(Device D) {
    if (std::optional<Device> Current = Guard.current_device()) {
      SK_INTERNAL_ASSERT(*Current == D,
                         "structured kernels don't support multi-device "
                         "outputs");
      return;
    }
    Guard.reset_device(D);
  }
  OptionalDeviceGuard Guard;
};
/// The guard of every other backend: nothing.
struct NoDeviceGuard {
  void set(Device) {}
};
template <DispatchKey Key>
using VariantDeviceGuard =
    std::conditional_t<usesDeviceGuard(Key), LazyDeviceGuard, NoDeviceGuard>;

/// structured_<kernel>_functional: allocates every output.
template <typename Parent, DispatchKey Key, bool CallsParentSetOutput,
          size_t N>
struct FunctionalVariant final : public Parent {
  void set_output_strided(int64_t OutputIdx, IntArrayRef Sizes,
                          IntArrayRef Strides, TensorOptions Options) override {
    setOutput(OutputIdx, Sizes, Strides, Options);
  }
  void set_output_raw_strided(int64_t OutputIdx, IntArrayRef Sizes,
                              IntArrayRef Strides,
                              TensorOptions Options) override {
    setOutput(OutputIdx, Sizes, Strides, Options);
  }
  using Parent::maybe_get_output;
  const Tensor &maybe_get_output(int64_t OutputIdx) override {
    return outputs_[OutputIdx];
  }

  std::array<Tensor, N> outputs_;
  [[no_unique_address]] VariantDeviceGuard<Key> guard_;

private:
  // Strided or not, a fresh output has exactly the strides asked for.
  void setOutput(int64_t OutputIdx, IntArrayRef Sizes, IntArrayRef Strides,
                 TensorOptions Options) {
    guard_.set(Options.device());
    outputs_[OutputIdx] = createOutput<Key>(Sizes, Strides, Options);
    if constexpr (CallsParentSetOutput)
      Parent::set_output_raw_strided(OutputIdx, Sizes, Strides, Options);
  }
};

/// What the inplace and out= variants share: the user's tensors, the
/// proxies written instead of them, and the copy back.
template <typename Parent, DispatchKey Key, size_t N>
struct WritesGivenOutputs : public Parent {
  template <typename... Outs>
  explicit WritesGivenOutputs(Outs &...Out) : outputs_{std::ref(Out)...} {
    static_assert(sizeof...(Outs) == N, "one tensor per output");
  }

  using Parent::maybe_get_output;
  /// The proxy when there is one: impl() writes there (for inplace calls
  /// too, which torchgen gets wrong: reference/torchgen.md §4.4).
  const Tensor &maybe_get_output(int64_t OutputIdx) override {
    return proxy_outputs_[OutputIdx] ? *proxy_outputs_[OutputIdx]
                                     : outputs_[OutputIdx].get();
  }

  /// Copies every proxy into the user's tensor, after impl() returned.
  void copy_back_proxies() {
    if constexpr (Key == DispatchKey::Meta)
      return; // Nothing was computed.
    for (size_t I = 0; I != N; ++I)
      if (proxy_outputs_[I])
        outputs_[I].get().copy_(*proxy_outputs_[I]);
  }

  std::array<std::reference_wrapper<Tensor>, N> outputs_;
  std::array<std::optional<Tensor>, N> proxy_outputs_;
  [[no_unique_address]] VariantDeviceGuard<Key> guard_;

protected:
  void makeProxyIfNeeded(int64_t OutputIdx, IntArrayRef Sizes,
                         IntArrayRef Strides, const TensorOptions &Options) {
    if (auto Proxy = maybe_create_proxy(outputs_[OutputIdx].get(), Sizes,
                                        Strides, Options))
      proxy_outputs_[OutputIdx] = std::move(*Proxy);
  }
};

/// structured_<kernel>_inplace: checks self; a proxy when the kernel needs
/// other strides (set_output_strided only).
template <typename Parent, DispatchKey Key, bool CallsParentSetOutput,
          size_t N>
struct InplaceVariant final : public WritesGivenOutputs<Parent, Key, N> {
  using Base = WritesGivenOutputs<Parent, Key, N>;
  using Base::Base;

  void set_output_strided(int64_t OutputIdx, IntArrayRef Sizes,
                          IntArrayRef Strides, TensorOptions Options) override {
    this->guard_.set(Options.device());
    check_inplace(this->outputs_[OutputIdx].get(), Sizes, Options);
    this->makeProxyIfNeeded(OutputIdx, Sizes, Strides, Options);
    if constexpr (CallsParentSetOutput)
      Parent::set_output_raw_strided(OutputIdx, Sizes, Strides, Options);
  }
  void set_output_raw_strided(int64_t OutputIdx, IntArrayRef Sizes,
                              IntArrayRef Strides,
                              TensorOptions Options) override {
    this->guard_.set(Options.device());
    check_inplace(this->outputs_[OutputIdx].get(), Sizes, Options);
    if constexpr (CallsParentSetOutput)
      Parent::set_output_raw_strided(OutputIdx, Sizes, Strides, Options);
  }
};

/// structured_<kernel>_out: checks dtype and device, resizes (restriding
/// only on resize); a proxy when the kernel needs other strides.
template <typename Parent, DispatchKey Key, bool CallsParentSetOutput,
          size_t N>
struct OutVariant final : public WritesGivenOutputs<Parent, Key, N> {
  using Base = WritesGivenOutputs<Parent, Key, N>;
  using Base::Base;

  void set_output_strided(int64_t OutputIdx, IntArrayRef Sizes,
                          IntArrayRef Strides, TensorOptions Options) override {
    this->guard_.set(Options.device());
    resize_out(this->outputs_[OutputIdx].get(), Sizes, Strides, Options);
    this->makeProxyIfNeeded(OutputIdx, Sizes, Strides, Options);
    if constexpr (CallsParentSetOutput)
      Parent::set_output_raw_strided(OutputIdx, Sizes, Strides, Options);
  }
  void set_output_raw_strided(int64_t OutputIdx, IntArrayRef Sizes,
                              IntArrayRef Strides,
                              TensorOptions Options) override {
    this->guard_.set(Options.device());
    resize_out(this->outputs_[OutputIdx].get(), Sizes, Strides, Options);
    if constexpr (CallsParentSetOutput)
      Parent::set_output_raw_strided(OutputIdx, Sizes, Strides, Options);
  }
};

} // namespace impl
} // namespace sk

#endif // SK_ITER_STRUCTUREDVARIANTS_H
