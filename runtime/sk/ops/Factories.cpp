//===--- Factories.cpp - Functions that make new tensors ------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The public factories and their per-device kernels.
///
/// Note [Factory backend selection]
/// A factory has no tensor argument to dispatch on, so its call carries only
/// the thread-local BackendSelect key. Each factory is an operator (`sk::
/// empty.memory_format`, ...) whose BackendSelect kernel reads the device
/// argument and redispatches to the CPU or Meta kernel
/// (`sk::native::<factory>_cpu` / `_meta`), as PyTorch's generated
/// RegisterBackendSelect.cpp does; the Tracer and any other key above
/// BackendSelect see factory calls like every other call. The `*_like`
/// functions are composites (CompositeExplicitAutograd in PyTorch):
/// empty_like and then an in-place fill.
///
/// Note [One-hop factory calls]
/// The public C++ factories (`sk::empty`, ...) skip the BackendSelect hop
/// when it is the hop the call would take: when the thread-local keys,
/// which are all a factory call has to dispatch on, have BackendSelect and
/// nothing above it, the dispatcher would run the BackendSelect kernel,
/// and that kernel only picks the backend key from the device argument and
/// redispatches to it. The factory picks the key itself, as that kernel
/// does (FactoryOp::backendFor), and redispatches there directly: one
/// indirect call instead of two, 7 by-value arguments passed once. The
/// backend keys of the thread-local sets play no part on either path.
/// Otherwise (a Tracer included, BackendSelect excluded, ...) it
/// redispatches with exactly the keys the dispatcher's call() would
/// compute, so every key above BackendSelect sees the call as before. The
/// BackendSelect kernels stay registered: boxed callers, redispatches from
/// keys above and the slow path go through them.
///
//===----------------------------------------------------------------------===//

#include "sk/ops/Factories.h"
#include "sk/core/EmptyTensor.h"
#include "sk/dispatch/Library.h"
#include "sk/ops/Convert.h"
#include "sk/ops/FactoryKernels.h"

#include <cmath>
#include <limits>

namespace sk {

/// The error of a factory asked for a device this build has no kernel for.
[[noreturn]] static void noKernelFor(const char *Op, Device Dev) {
  if (Dev.is_cuda())
    throw NotImplementedError(
        detail::str(Op,
                    "(): CUDA is not available in this build: cannot "
                    "create a tensor on '",
                    Dev, "'"));
  throw NotImplementedError(detail::str(
      Op, "(): no kernel for device '", Dev,
      "' in this build (only cpu and meta tensors can be created)"));
}

/// The memory format given either in \p Options or as \p Format.
static std::optional<MemoryFormat>
mergeMemoryFormat(const char *Op, const TensorOptions &Options,
                  std::optional<MemoryFormat> Format) {
  SK_CHECK(!(Options.memory_format_opt() && Format), Op,
           "(): Cannot set memory_format both in TensorOptions and explicit "
           "argument; please delete the redundant setter.");
  return Format ? Format : Options.memory_format_opt();
}

static void checkFloatingDtype(const char *Op, ScalarType Dtype) {
  SK_CHECK_TYPE(isFloatingType(Dtype), Op,
                "(): expected a floating-point dtype, but got ", Dtype);
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

Tensor native::empty_cpu(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                         std::optional<Device>,
                         std::optional<MemoryFormat> Format) {
  return detail::empty_cpu(Sizes, Dtype.value_or(kFloat), Format);
}

/// native::empty_meta, always inlined, so that the Meta kernel registered
/// for empty (its dispatcher entry point) allocates without a further
/// call: row-major inline (Note [Inline row-major allocation]), which for
/// a meta tensor is the whole of the work.
[[gnu::always_inline]] static inline Tensor
emptyMeta(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
          std::optional<Device>, std::optional<MemoryFormat> Format) {
  if (SK_LIKELY(detail::isRowMajorFormat(Format)))
    return detail::empty_row_major(Sizes, Dtype.value_or(kFloat), kMeta);
  return detail::empty_meta(Sizes, Dtype.value_or(kFloat), Format);
}

Tensor native::empty_meta(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                          std::optional<Device> Dev,
                          std::optional<MemoryFormat> Format) {
  return emptyMeta(Sizes, Dtype, Dev, Format);
}

Tensor native::empty_strided_cpu(IntArrayRef Sizes, IntArrayRef Strides,
                                 std::optional<ScalarType> Dtype,
                                 std::optional<Device>) {
  return detail::empty_strided_cpu(Sizes, Strides, Dtype.value_or(kFloat));
}

Tensor native::empty_strided_meta(IntArrayRef Sizes, IntArrayRef Strides,
                                  std::optional<ScalarType> Dtype,
                                  std::optional<Device>) {
  return detail::empty_strided_meta(Sizes, Strides, Dtype.value_or(kFloat));
}

Tensor native::zeros_cpu(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                         std::optional<Device>) {
  Tensor Result = detail::empty_cpu(Sizes, Dtype.value_or(kFloat));
  Result.zero_();
  return Result;
}

Tensor native::zeros_meta(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                          std::optional<Device>) {
  return detail::empty_meta(Sizes, Dtype.value_or(kFloat));
}

Tensor native::ones_cpu(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                        std::optional<Device>) {
  Tensor Result = detail::empty_cpu(Sizes, Dtype.value_or(kFloat));
  Result.fill_(1);
  return Result;
}

Tensor native::ones_meta(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                         std::optional<Device>) {
  return detail::empty_meta(Sizes, Dtype.value_or(kFloat));
}

/// full's dtype: given, or implied by the value.
static ScalarType fullDtype(const Scalar &Value,
                            std::optional<ScalarType> Dtype) {
  if (Dtype)
    return *Dtype;
  if (Value.isBoolean())
    return kBool;
  return Value.isIntegral(/*IncludeBool=*/false) ? kLong : kFloat;
}

/// Errors, naming full, when \p Value does not fit \p Dtype.
static void checkFillValue(const Scalar &Value, ScalarType Dtype) {
  visitScalarType(Dtype, [&](auto Tag) {
    (void)detail::scalarToElement<decltype(Tag)>(Value, "full");
  });
}

Tensor native::full_cpu(IntArrayRef Sizes, const Scalar &Value,
                        std::optional<ScalarType> Dtype,
                        std::optional<Device>) {
  ScalarType D = fullDtype(Value, Dtype);
  checkFillValue(Value, D);
  Tensor Result = detail::empty_cpu(Sizes, D);
  Result.fill_(Value);
  return Result;
}

Tensor native::full_meta(IntArrayRef Sizes, const Scalar &Value,
                         std::optional<ScalarType> Dtype,
                         std::optional<Device>) {
  ScalarType D = fullDtype(Value, Dtype);
  checkFillValue(Value, D);
  return detail::empty_meta(Sizes, D);
}

namespace {

/// The checked geometry of an arange.
struct ArangeSpec {
  ScalarType Dtype;
  int64_t Size;
  /// Whether start, end and step are all integers (exact int64 math).
  bool Integral;
};

} // namespace

static ArangeSpec computeArange(const Scalar &Start, const Scalar &End,
                                const Scalar &Step,
                                std::optional<ScalarType> Dtype) {
  bool Integral = Start.isIntegral(/*IncludeBool=*/true) &&
                  End.isIntegral(/*IncludeBool=*/true) &&
                  Step.isIntegral(/*IncludeBool=*/true);
  ScalarType D = Dtype.value_or(Integral ? kLong : kFloat);
  SK_CHECK_TYPE(D != kBool, "arange(): not implemented for dtype bool");
  if (Integral) {
    int64_t S = Start.toUnchecked<int64_t>(), E = End.toUnchecked<int64_t>(),
            St = Step.toUnchecked<int64_t>();
    SK_CHECK(St != 0, "arange(): step must be nonzero");
    SK_CHECK((St > 0 && E >= S) || (St < 0 && E <= S),
             "arange(): upper bound and larger bound inconsistent with step "
             "sign (start ",
             S, ", end ", E, ", step ", St, ")");
    // ceil((E - S) / St) without overflow.
    __int128 Diff = static_cast<__int128>(E) - S;
    __int128 Size = (Diff + St - (St > 0 ? 1 : -1)) / St;
    return {D, static_cast<int64_t>(Size), true};
  }
  double S = Start.toDouble(), E = End.toDouble(), St = Step.toDouble();
  SK_CHECK(St != 0, "arange(): step must be nonzero");
  SK_CHECK(std::isfinite(S) && std::isfinite(E) && std::isfinite(St),
           "arange(): unsupported range: ", Start, " -> ", End, " step ", Step);
  SK_CHECK((St > 0 && E >= S) || (St < 0 && E <= S),
           "arange(): upper bound and larger bound inconsistent with step "
           "sign (start ",
           Start, ", end ", End, ", step ", Step, ")");
  double SizeD = std::ceil((E - S) / St);
  SK_CHECK(SizeD >= 0 &&
               SizeD < static_cast<double>(std::numeric_limits<int64_t>::max()),
           "arange(): invalid size, possible overflow? (start ", Start,
           ", end ", End, ", step ", Step, ")");
  return {D, static_cast<int64_t>(SizeD), false};
}

Tensor native::arange_cpu(const Scalar &Start, const Scalar &End,
                          const Scalar &Step, std::optional<ScalarType> Dtype,
                          std::optional<Device>) {
  ArangeSpec Spec = computeArange(Start, End, Step, Dtype);
  Tensor Result = detail::empty_cpu({Spec.Size}, Spec.Dtype);
  visitScalarType(Spec.Dtype, [&](auto Tag) {
    using T = decltype(Tag);
    T *Data = static_cast<T *>(Result.data_ptr());
    if (Spec.Integral) {
      // Every value lies in [start, end) and so fits int64, but St * I
      // alone may not: compute modulo 2^64, which gives the exact value.
      uint64_t S = Start.toUnchecked<uint64_t>();
      uint64_t St = Step.toUnchecked<uint64_t>();
      for (int64_t I = 0; I != Spec.Size; ++I)
        Data[I] = detail::convertElement<T>(
            static_cast<int64_t>(S + St * static_cast<uint64_t>(I)));
      return;
    }
    double S = Start.toDouble(), St = Step.toDouble();
    for (int64_t I = 0; I != Spec.Size; ++I)
      Data[I] = detail::convertElement<T>(S + St * static_cast<double>(I));
  });
  return Result;
}

Tensor native::arange_meta(const Scalar &Start, const Scalar &End,
                           const Scalar &Step, std::optional<ScalarType> Dtype,
                           std::optional<Device>) {
  ArangeSpec Spec = computeArange(Start, End, Step, Dtype);
  return detail::empty_meta({Spec.Size}, Spec.Dtype);
}

/// Fills the dense block of \p T (a CPU tensor of a floating dtype) with
/// samples of \p Sample(Generator&, Bits), where Bits is the precision of
/// T's dtype.
template <typename SampleFn>
static void fillRandom(const Tensor &T, Generator *Gen, SampleFn Sample) {
  SK_INTERNAL_ASSERT(T.is_cpu() && T.is_non_overlapping_and_dense());
  Generator &G = Gen ? *Gen : getDefaultGenerator();
  std::lock_guard<std::mutex> Lock(G.mutex());
  visitScalarType(T.dtype(), [&](auto Tag) {
    using E = decltype(Tag);
    if constexpr (std::is_floating_point_v<E> || detail::IsReducedFloat<E>) {
      constexpr int Bits = std::is_same_v<E, Half>       ? 11
                           : std::is_same_v<E, BFloat16> ? 8
                           : std::is_same_v<E, float>    ? 24
                                                         : 53;
      E *Data = static_cast<E *>(T.data_ptr());
      for (int64_t I = 0, N = T.numel(); I != N; ++I)
        Data[I] = detail::convertElement<E>(Sample(G, Bits));
    }
  });
}

static double uniformSample(Generator &G, int Bits) { return G.uniform(Bits); }
static double normalSample(Generator &G, int) { return G.normal(); }

Tensor native::rand_cpu(IntArrayRef Sizes, Generator *Gen,
                        std::optional<ScalarType> Dtype,
                        std::optional<Device>) {
  checkFloatingDtype("rand", Dtype.value_or(kFloat));
  Tensor Result = detail::empty_cpu(Sizes, Dtype.value_or(kFloat));
  fillRandom(Result, Gen, uniformSample);
  return Result;
}

Tensor native::rand_meta(IntArrayRef Sizes, Generator *,
                         std::optional<ScalarType> Dtype,
                         std::optional<Device>) {
  checkFloatingDtype("rand", Dtype.value_or(kFloat));
  return detail::empty_meta(Sizes, Dtype.value_or(kFloat));
}

Tensor native::randn_cpu(IntArrayRef Sizes, Generator *Gen,
                         std::optional<ScalarType> Dtype,
                         std::optional<Device>) {
  checkFloatingDtype("randn", Dtype.value_or(kFloat));
  Tensor Result = detail::empty_cpu(Sizes, Dtype.value_or(kFloat));
  fillRandom(Result, Gen, normalSample);
  return Result;
}

Tensor native::randn_meta(IntArrayRef Sizes, Generator *,
                          std::optional<ScalarType> Dtype,
                          std::optional<Device>) {
  checkFloatingDtype("randn", Dtype.value_or(kFloat));
  return detail::empty_meta(Sizes, Dtype.value_or(kFloat));
}

//===----------------------------------------------------------------------===//
// Registration and the public factories: Note [Factory backend selection]
//===----------------------------------------------------------------------===//

SK_LIBRARY_FRAGMENT(sk, m) {
  m.def("empty.memory_format(int[] size, *, ScalarType? dtype=None, Device? "
        "device=None, MemoryFormat? memory_format=None) -> Tensor");
  m.def("empty_strided(int[] size, int[] stride, *, ScalarType? dtype=None, "
        "Device? device=None) -> Tensor");
  m.def("zeros(int[] size, *, ScalarType? dtype=None, Device? device=None) "
        "-> Tensor");
  m.def("ones(int[] size, *, ScalarType? dtype=None, Device? device=None) "
        "-> Tensor");
  m.def("full(int[] size, Scalar fill_value, *, ScalarType? dtype=None, "
        "Device? device=None) -> Tensor");
  m.def("arange.start_step(Scalar start, Scalar end, Scalar step=1, *, "
        "ScalarType? dtype=None, Device? device=None) -> Tensor");
  m.def("rand(int[] size, *, Generator? generator=None, ScalarType? "
        "dtype=None, Device? device=None) -> Tensor");
  m.def("randn(int[] size, *, Generator? generator=None, ScalarType? "
        "dtype=None, Device? device=None) -> Tensor");
}

SK_LIBRARY_IMPL(sk, CPU, m) {
  m.impl("empty.memory_format", SK_FN(native::empty_cpu));
  m.impl("empty_strided", SK_FN(native::empty_strided_cpu));
  m.impl("zeros", SK_FN(native::zeros_cpu));
  m.impl("ones", SK_FN(native::ones_cpu));
  m.impl("full", SK_FN(native::full_cpu));
  m.impl("arange.start_step", SK_FN(native::arange_cpu));
  m.impl("rand", SK_FN(native::rand_cpu));
  m.impl("randn", SK_FN(native::randn_cpu));
}

SK_LIBRARY_IMPL(sk, Meta, m) {
  m.impl("empty.memory_format", SK_FN(emptyMeta));
  m.impl("empty_strided", SK_FN(native::empty_strided_meta));
  m.impl("zeros", SK_FN(native::zeros_meta));
  m.impl("ones", SK_FN(native::ones_meta));
  m.impl("full", SK_FN(native::full_meta));
  m.impl("arange.start_step", SK_FN(native::arange_meta));
  m.impl("rand", SK_FN(native::rand_meta));
  m.impl("randn", SK_FN(native::randn_meta));
}

namespace {

/// The typed handle of factory `sk::<Name>.<Overload>`, looked up once.
template <typename Sig> struct FactoryOp {
  FactoryOp(const char *Name, const char *Overload)
      : Name(Name),
        Handle(Dispatcher::singleton()
                   .findSchemaOrThrow(std::string("sk::") + Name, Overload)
                   .template typed<Sig>()) {}
  /// The keys to redispatch to from BackendSelect: the backend of \p D.
  DispatchKeySet backendFor(std::optional<Device> D) const {
    return backendFor(D.value_or(kCPU));
  }
  DispatchKeySet backendFor(Device Dev) const {
    DispatchKey K = backendKeyOf(Dev.type());
    if (SK_UNLIKELY(!Handle.hasKernelForDispatchKey(K)))
      noKernelFor(Name, Dev);
    return DispatchKeySet(K);
  }
  /// The keys a public factory call with \p Options redispatches with
  /// (Note [One-hop factory calls]): the backend of the device when the
  /// call would go to the BackendSelect kernel, else the keys call() would
  /// compute.
  [[gnu::always_inline]] DispatchKeySet callKeys(TensorOptions Options) const {
    // No tensor arguments: only the thread-local keys.
    DispatchKeySet KS = tlsIncludedKeys() - tlsExcludedKeys();
    if (SK_LIKELY((KS - DispatchKeySet::below(DispatchKey::BackendSelect)) ==
                  DispatchKeySet(DispatchKey::BackendSelect)))
      return backendFor(Options.device()); // the CPU when unset
    return KS;
  }
  const char *Name;
  TypedOperatorHandle<Sig> Handle;
};

using EmptySig = Tensor(IntArrayRef, std::optional<ScalarType>,
                        std::optional<Device>, std::optional<MemoryFormat>);
using EmptyStridedSig = Tensor(IntArrayRef, IntArrayRef,
                               std::optional<ScalarType>,
                               std::optional<Device>);
using FilledSig = Tensor(IntArrayRef, std::optional<ScalarType>,
                         std::optional<Device>);
using FullSig = Tensor(IntArrayRef, const Scalar &, std::optional<ScalarType>,
                       std::optional<Device>);
using ArangeSig = Tensor(const Scalar &, const Scalar &, const Scalar &,
                         std::optional<ScalarType>, std::optional<Device>);
using RandomSig = Tensor(IntArrayRef, Generator *, std::optional<ScalarType>,
                         std::optional<Device>);

// The handles, looked up on first use. The accessors are always inlined:
// after the first call only the guard test of the static runs, and a call
// to an accessor cost as much as that.
[[gnu::always_inline]] inline const FactoryOp<EmptySig> &emptyOp() {
  static const FactoryOp<EmptySig> Op("empty", "memory_format");
  return Op;
}
[[gnu::always_inline]] inline const FactoryOp<EmptyStridedSig> &
emptyStridedOp() {
  static const FactoryOp<EmptyStridedSig> Op("empty_strided", "");
  return Op;
}
[[gnu::always_inline]] inline const FactoryOp<FilledSig> &zerosOp() {
  static const FactoryOp<FilledSig> Op("zeros", "");
  return Op;
}
[[gnu::always_inline]] inline const FactoryOp<FilledSig> &onesOp() {
  static const FactoryOp<FilledSig> Op("ones", "");
  return Op;
}
[[gnu::always_inline]] inline const FactoryOp<FullSig> &fullOp() {
  static const FactoryOp<FullSig> Op("full", "");
  return Op;
}
[[gnu::always_inline]] inline const FactoryOp<ArangeSig> &arangeOp() {
  static const FactoryOp<ArangeSig> Op("arange", "start_step");
  return Op;
}
[[gnu::always_inline]] inline const FactoryOp<RandomSig> &randOp() {
  static const FactoryOp<RandomSig> Op("rand", "");
  return Op;
}
[[gnu::always_inline]] inline const FactoryOp<RandomSig> &randnOp() {
  static const FactoryOp<RandomSig> Op("randn", "");
  return Op;
}

// The BackendSelect kernels: the device is an argument, not a tensor key.
Tensor emptyBackendSelect(DispatchKeySet, IntArrayRef Sizes,
                          std::optional<ScalarType> Dtype,
                          std::optional<Device> Dev,
                          std::optional<MemoryFormat> Format) {
  const auto &Op = emptyOp();
  return Op.Handle.redispatch(Op.backendFor(Dev), Sizes, Dtype, Dev, Format);
}
Tensor emptyStridedBackendSelect(DispatchKeySet, IntArrayRef Sizes,
                                 IntArrayRef Strides,
                                 std::optional<ScalarType> Dtype,
                                 std::optional<Device> Dev) {
  const auto &Op = emptyStridedOp();
  return Op.Handle.redispatch(Op.backendFor(Dev), Sizes, Strides, Dtype, Dev);
}
Tensor zerosBackendSelect(DispatchKeySet, IntArrayRef Sizes,
                          std::optional<ScalarType> Dtype,
                          std::optional<Device> Dev) {
  const auto &Op = zerosOp();
  return Op.Handle.redispatch(Op.backendFor(Dev), Sizes, Dtype, Dev);
}
Tensor onesBackendSelect(DispatchKeySet, IntArrayRef Sizes,
                         std::optional<ScalarType> Dtype,
                         std::optional<Device> Dev) {
  const auto &Op = onesOp();
  return Op.Handle.redispatch(Op.backendFor(Dev), Sizes, Dtype, Dev);
}
Tensor fullBackendSelect(DispatchKeySet, IntArrayRef Sizes, const Scalar &Value,
                         std::optional<ScalarType> Dtype,
                         std::optional<Device> Dev) {
  const auto &Op = fullOp();
  return Op.Handle.redispatch(Op.backendFor(Dev), Sizes, Value, Dtype, Dev);
}
Tensor arangeBackendSelect(DispatchKeySet, const Scalar &Start,
                           const Scalar &End, const Scalar &Step,
                           std::optional<ScalarType> Dtype,
                           std::optional<Device> Dev) {
  const auto &Op = arangeOp();
  return Op.Handle.redispatch(Op.backendFor(Dev), Start, End, Step, Dtype, Dev);
}
Tensor randBackendSelect(DispatchKeySet, IntArrayRef Sizes, Generator *Gen,
                         std::optional<ScalarType> Dtype,
                         std::optional<Device> Dev) {
  const auto &Op = randOp();
  return Op.Handle.redispatch(Op.backendFor(Dev), Sizes, Gen, Dtype, Dev);
}
Tensor randnBackendSelect(DispatchKeySet, IntArrayRef Sizes, Generator *Gen,
                          std::optional<ScalarType> Dtype,
                          std::optional<Device> Dev) {
  const auto &Op = randnOp();
  return Op.Handle.redispatch(Op.backendFor(Dev), Sizes, Gen, Dtype, Dev);
}

} // namespace

SK_LIBRARY_IMPL(sk, BackendSelect, m) {
  m.impl("empty.memory_format", SK_FN(emptyBackendSelect));
  m.impl("empty_strided", SK_FN(emptyStridedBackendSelect));
  m.impl("zeros", SK_FN(zerosBackendSelect));
  m.impl("ones", SK_FN(onesBackendSelect));
  m.impl("full", SK_FN(fullBackendSelect));
  m.impl("arange.start_step", SK_FN(arangeBackendSelect));
  m.impl("rand", SK_FN(randBackendSelect));
  m.impl("randn", SK_FN(randnBackendSelect));
}

Tensor empty(IntArrayRef Sizes, TensorOptions Options,
             std::optional<MemoryFormat> Format) {
  // Checked before the device, as the dispatcher's call() would.
  std::optional<MemoryFormat> F = mergeMemoryFormat("empty", Options, Format);
  const auto &Op = emptyOp();
  return Op.Handle.redispatch(Op.callKeys(Options), Sizes, Options.dtype_opt(),
                              Options.device_opt(), F);
}

Tensor empty_strided(IntArrayRef Sizes, IntArrayRef Strides,
                     TensorOptions Options) {
  const auto &Op = emptyStridedOp();
  return Op.Handle.redispatch(Op.callKeys(Options), Sizes, Strides,
                              Options.dtype_opt(), Options.device_opt());
}

Tensor zeros(IntArrayRef Sizes, TensorOptions Options) {
  const auto &Op = zerosOp();
  return Op.Handle.redispatch(Op.callKeys(Options), Sizes, Options.dtype_opt(),
                              Options.device_opt());
}

Tensor ones(IntArrayRef Sizes, TensorOptions Options) {
  const auto &Op = onesOp();
  return Op.Handle.redispatch(Op.callKeys(Options), Sizes, Options.dtype_opt(),
                              Options.device_opt());
}

Tensor full(IntArrayRef Sizes, const Scalar &Value, TensorOptions Options) {
  const auto &Op = fullOp();
  return Op.Handle.redispatch(Op.callKeys(Options), Sizes, Value,
                              Options.dtype_opt(), Options.device_opt());
}

Tensor arange(const Scalar &End, TensorOptions Options) {
  return arange(/*Start=*/0, End, /*Step=*/1, Options);
}

Tensor arange(const Scalar &Start, const Scalar &End, TensorOptions Options) {
  return arange(Start, End, /*Step=*/1, Options);
}

Tensor arange(const Scalar &Start, const Scalar &End, const Scalar &Step,
              TensorOptions Options) {
  const auto &Op = arangeOp();
  return Op.Handle.redispatch(Op.callKeys(Options), Start, End, Step,
                              Options.dtype_opt(), Options.device_opt());
}

Tensor rand(IntArrayRef Sizes, Generator *Gen, TensorOptions Options) {
  const auto &Op = randOp();
  return Op.Handle.redispatch(Op.callKeys(Options), Sizes, Gen,
                              Options.dtype_opt(), Options.device_opt());
}

Tensor rand(IntArrayRef Sizes, TensorOptions Options) {
  return rand(Sizes, nullptr, Options);
}

Tensor randn(IntArrayRef Sizes, Generator *Gen, TensorOptions Options) {
  const auto &Op = randnOp();
  return Op.Handle.redispatch(Op.callKeys(Options), Sizes, Gen,
                              Options.dtype_opt(), Options.device_opt());
}

Tensor randn(IntArrayRef Sizes, TensorOptions Options) {
  return randn(Sizes, nullptr, Options);
}

//===----------------------------------------------------------------------===//
// The *_like composites
//===----------------------------------------------------------------------===//

Tensor empty_like(const Tensor &Self, TensorOptions Options,
                  std::optional<MemoryFormat> Format) {
  SK_CHECK(Self.defined(), "empty_like(): expected a defined tensor");
  MemoryFormat F = mergeMemoryFormat("empty_like", Options, Format)
                       .value_or(MemoryFormat::Preserve);
  TensorOptions Opts =
      Self.options().merged_with(Options.memory_format(std::nullopt));
  if (F == MemoryFormat::Preserve) {
    // Dense inputs keep their strides (a transposed or channels-last tensor
    // stays so); others, with gaps or overlaps, become contiguous.
    if (Self.is_non_overlapping_and_dense())
      return empty_strided(Self.sizes(), Self.strides(), Opts);
    F = Self.suggest_memory_format();
  }
  return empty(Self.sizes(), Opts, F);
}

Tensor zeros_like(const Tensor &Self, TensorOptions Options,
                  std::optional<MemoryFormat> Format) {
  Tensor Result = empty_like(Self, Options, Format);
  Result.zero_();
  return Result;
}

Tensor ones_like(const Tensor &Self, TensorOptions Options,
                 std::optional<MemoryFormat> Format) {
  Tensor Result = empty_like(Self, Options, Format);
  Result.fill_(1);
  return Result;
}

Tensor full_like(const Tensor &Self, const Scalar &Value, TensorOptions Options,
                 std::optional<MemoryFormat> Format) {
  SK_CHECK(Self.defined(), "full_like(): expected a defined tensor");
  visitScalarType(Options.dtype_opt().value_or(Self.dtype()), [&](auto Tag) {
    (void)detail::scalarToElement<decltype(Tag)>(Value, "full_like");
  });
  Tensor Result = empty_like(Self, Options, Format);
  Result.fill_(Value);
  return Result;
}

/// rand_like and randn_like: empty_like, then samples on the CPU.
template <typename SampleFn>
static Tensor randomLike(const char *Op, const Tensor &Self, Generator *Gen,
                         TensorOptions Options,
                         std::optional<MemoryFormat> Format, SampleFn Sample) {
  SK_CHECK(Self.defined(), Op, "(): expected a defined tensor");
  checkFloatingDtype(Op, Options.dtype_opt().value_or(Self.dtype()));
  Tensor Result = empty_like(Self, Options, Format);
  if (Result.is_cpu())
    fillRandom(Result, Gen, Sample);
  return Result;
}

Tensor rand_like(const Tensor &Self, Generator *Gen, TensorOptions Options,
                 std::optional<MemoryFormat> Format) {
  return randomLike("rand_like", Self, Gen, Options, Format, uniformSample);
}

Tensor randn_like(const Tensor &Self, Generator *Gen, TensorOptions Options,
                  std::optional<MemoryFormat> Format) {
  return randomLike("randn_like", Self, Gen, Options, Format, normalSample);
}

} // namespace sk
