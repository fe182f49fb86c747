//===--- Loops.h - Elementwise CPU loops over a TensorIterator --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CPU loops of elementwise kernels (ATen/native/cpu/Loops.h):
///
///   cpu_kernel(Iter, [](float A, float B) { return A + B; });
///   cpu_kernel_vec(Iter,
///       [](float A, float B) { return A + B; },
///       [](auto A, auto B) { return hn::Add(A, B); });
///
/// The argument and result types of the lambda are the C++ types of the
/// inputs and the output. cpu_kernel_vec's second lambda gets Highway
/// vectors (`hn::Vec<hn::ScalableTag<scalar_t>>`, with `hn` the alias
/// `sk::hn` of hwy::HWY_NAMESPACE) and runs where the innermost dimension
/// is contiguous for every operand, or contiguous but for one broadcast
/// (stride-0) input; the scalar lambda runs on the tails and on every
/// other layout. Types without vectors here (bool, Half, BFloat16) always
/// take the scalar path; Half and BFloat16 kernels compute in float by
/// taking `opmath_type<scalar_t>` arguments or converting inside.
///
/// Operands whose dtype differs from the lambda's types are converted
/// element by element (Note [Type promotion without temporaries] in
/// TensorIterator.h), on the scalar path.
///
/// Note [Highway dynamic dispatch]
/// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
/// The loops are compiled once per Highway target, in namespace
/// sk::HWY_NAMESPACE, as Highway's own -inl.h headers are: a kernel source
/// that includes hwy/foreach_target.h first (kernels/cpu/BinaryOps.cpp,
/// ...) is compiled for every target Highway attains (x86: SSE4, AVX2,
/// AVX-512, and EMU128 for the rest) and calls the best one for the CPU it
/// runs on through HWY_DYNAMIC_DISPATCH; no -march is needed or given. A
/// source that does not (a user's kernel) gets the loops of the target its
/// compiler flags allow (HWY_STATIC_TARGET), as sk::cpu_kernel and sk::hn.
/// The helpers that call no kernel lambda (sk::detail) are compiled once.
///
/// Note [AVX-512 and bandwidth-bound kernels]
/// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
/// Streaming through memory with 512-bit loads is slower than with 256-bit
/// ones on the AVX-512 machines measured (docs/performance.md), while
/// arithmetic-bound kernels (exp, gelu, softmax) gain from AVX-512. PyTorch
/// makes the same split: REGISTER_DISPATCH runs a kernel's AVX2 build on
/// AVX-512 CPUs unless the kernel opts in. Here a source bound by
/// bandwidth (ReduceOps.cpp, BinaryOps.cpp, CompareOps.cpp,
/// sk/iter/CopyBytes.cpp) redefines HWY_DISABLED_TARGETS as
/// SKC_HWY_DISABLED_TARGETS (skc_use_runtime_arch_flags defines it) and the
/// AVX-512 targets, before its first include: Highway then compiles it
/// without them, and its dispatch, which masks the CPU's targets with the
/// file's own (hwy::ChosenTarget::GetIndex), picks AVX2.
///
//===----------------------------------------------------------------------===//

// Outside the include guard: Highway's per-target macros, for every pass of
// foreach_target.h.
#include <hwy/highway.h>

#ifndef SK_ITER_LOOPS_H
#define SK_ITER_LOOPS_H

#include "sk/core/OpMathType.h"
#include "sk/iter/TensorIterator.h"
#include "sk/ops/Convert.h"

#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

namespace sk {
namespace detail {

/// The signature of a callable (c10::function_traits).
template <typename T>
struct LoopBodyTraits : LoopBodyTraits<decltype(&T::operator())> {};
template <typename R, typename... Args> struct LoopBodyTraits<R(Args...)> {
  using result_type = R;
  using ArgsTuple = std::tuple<std::decay_t<Args>...>;
  static constexpr size_t arity = sizeof...(Args);
  template <size_t I> using arg = std::tuple_element_t<I, ArgsTuple>;
};
template <typename R, typename... Args>
struct LoopBodyTraits<R (*)(Args...)> : LoopBodyTraits<R(Args...)> {};
template <typename C, typename R, typename... Args>
struct LoopBodyTraits<R (C::*)(Args...)> : LoopBodyTraits<R(Args...)> {};
template <typename C, typename R, typename... Args>
struct LoopBodyTraits<R (C::*)(Args...) const> : LoopBodyTraits<R(Args...)> {};
template <typename T>
struct LoopBodyTraits<T &> : LoopBodyTraits<std::decay_t<T>> {};

/// Reads the element at \p P, of dtype \p Src, as a \p T.
template <typename T> inline T loadAs(const char *P, ScalarType Src) {
  switch (Src) {
#define SK_LOAD_CASE(CppType, Name, PyName)                                    \
  case ScalarType::Name: {                                                     \
    CppType V;                                                                 \
    std::memcpy(&V, P, sizeof(V));                                             \
    return convertElement<T>(V);                                               \
  }
    SK_FORALL_SCALAR_TYPES(SK_LOAD_CASE)
#undef SK_LOAD_CASE
  case ScalarType::Undefined:
    break;
  }
  SK_INTERNAL_ASSERT(false, "load of an undefined dtype");
  return T();
}

/// Writes \p V at \p P as dtype \p Dst.
template <typename T> inline void storeAs(char *P, ScalarType Dst, T V) {
  switch (Dst) {
#define SK_STORE_CASE(CppType, Name, PyName)                                   \
  case ScalarType::Name: {                                                     \
    CppType C = convertElement<CppType>(V);                                    \
    std::memcpy(P, &C, sizeof(C));                                             \
    return;                                                                    \
  }
    SK_FORALL_SCALAR_TYPES(SK_STORE_CASE)
#undef SK_STORE_CASE
  case ScalarType::Undefined:
    break;
  }
  SK_INTERNAL_ASSERT(false, "store of an undefined dtype");
}

template <typename T> inline T load(const char *P) {
  return *reinterpret_cast<const T *>(P);
}
template <typename T> inline void store(char *P, T V) {
  *reinterpret_cast<T *>(P) = V;
}

/// Whether Highway has vectors of \p T here.
template <typename T>
constexpr bool kHasVec =
    std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> ||
    std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, int64_t>;

/// Whether every parameter of the lambda with traits \p Traits is a \p T.
template <typename Traits, typename T, size_t... I>
constexpr bool allArgsAre(std::index_sequence<I...>) {
  return (std::is_same_v<typename Traits::template arg<I>, T> && ...);
}

/// Whether every operand of \p Iter has the dtype the lambda with traits
/// \p Traits expects (outputs first).
template <typename Traits, size_t... I>
bool dtypesMatch(const TensorIteratorBase &Iter, std::index_sequence<I...>) {
  using Out = typename Traits::result_type;
  return Iter.dtype(0) == scalarTypeOf<Out>() &&
         ((Iter.dtype(I + 1) ==
           scalarTypeOf<typename Traits::template arg<I>>()) &&
          ...);
}

template <typename Traits, size_t... I>
inline bool isContiguous(const int64_t *Strides, std::index_sequence<I...>) {
  return Strides[0] == sizeof(typename Traits::result_type) &&
         ((Strides[I + 1] ==
           static_cast<int64_t>(sizeof(typename Traits::template arg<I>))) &&
          ...);
}

template <typename Fn>
void checkElementwise(const TensorIteratorBase &Iter, int NumOutputs) {
  using Traits = LoopBodyTraits<Fn>;
  SK_INTERNAL_ASSERT(Iter.ninputs() == static_cast<int>(Traits::arity),
                     "kernel takes ", Traits::arity,
                     " inputs but the "
                     "iterator has ",
                     Iter.ninputs());
  SK_INTERNAL_ASSERT(Iter.noutputs() == NumOutputs, "kernel writes ",
                     NumOutputs, " outputs but the iterator has ",
                     Iter.noutputs());
  SK_INTERNAL_ASSERT(!Iter.is_meta(), "a CPU loop cannot run on meta tensors");
}

/// Whether the outputs (types \p Result) and inputs (\p Traits) of a
/// multi-output kernel differ from the operands' dtypes.
template <typename Result, typename Traits, size_t... O, size_t... I>
bool multiOutputNeedsCast(const ScalarType *Dtypes, std::index_sequence<O...>,
                          std::index_sequence<I...>) {
  constexpr size_t NumOut = sizeof...(O);
  return ((Dtypes[O] != scalarTypeOf<std::tuple_element_t<O, Result>>()) ||
          ...) ||
         ((Dtypes[NumOut + I] !=
           scalarTypeOf<typename Traits::template arg<I>>()) ||
          ...);
}

} // namespace detail
} // namespace sk

#endif // SK_ITER_LOOPS_H

// The loops themselves, once per Highway target (Note [Highway dynamic
// dispatch]): everything that calls a kernel's lambdas is compiled for the
// target of the code that calls it, so that the lambdas inline.
#if defined(SK_ITER_LOOPS_PER_TARGET) == defined(HWY_TARGET_TOGGLE)
#ifdef SK_ITER_LOOPS_PER_TARGET
#undef SK_ITER_LOOPS_PER_TARGET
#else
#define SK_ITER_LOOPS_PER_TARGET
#endif

HWY_BEFORE_NAMESPACE();
namespace sk {
namespace HWY_NAMESPACE {

/// Highway's operations for this target: `hn::Add(A, B)`.
namespace hn = hwy::HWY_NAMESPACE;

namespace loops {
using namespace ::sk::detail;

/// The elementwise loop over \p N elements with any strides and no
/// conversion.
template <typename Traits, typename Fn, size_t... I>
inline void basicLoop(char **Data, const int64_t *Strides, int64_t N, Fn &F,
                      std::index_sequence<I...>) {
  using Out = typename Traits::result_type;
  char *OutP = Data[0];
  const int64_t OutStride = Strides[0];
  for (int64_t J = 0; J < N; ++J)
    store<Out>(OutP + J * OutStride, F(load<typename Traits::template arg<I>>(
                                         Data[I + 1] + J * Strides[I + 1])...));
}

/// basicLoop for contiguous operands: constant strides let the compiler
/// vectorize.
template <typename Traits, typename Fn, size_t... I>
inline void contiguousLoop(char **Data, int64_t N, Fn &F,
                           std::index_sequence<I...>) {
  using Out = typename Traits::result_type;
  Out *OutP = reinterpret_cast<Out *>(Data[0]);
  std::tuple<const typename Traits::template arg<I> *...> In{
      reinterpret_cast<const typename Traits::template arg<I> *>(
          Data[I + 1])...};
  (void)In;
  for (int64_t J = 0; J < N; ++J)
    OutP[J] = F(std::get<I>(In)[J]...);
}

/// The elementwise loop converting every operand from and to its dtype.
template <typename Traits, typename Fn, size_t... I>
inline void castingLoop(char **Data, const int64_t *Strides, int64_t N,
                        const ScalarType *Dtypes, Fn &F,
                        std::index_sequence<I...>) {
  using Out = typename Traits::result_type;
  for (int64_t J = 0; J < N; ++J)
    storeAs<Out>(Data[0] + J * Strides[0], Dtypes[0],
                 F(loadAs<typename Traits::template arg<I>>(
                     Data[I + 1] + J * Strides[I + 1], Dtypes[I + 1])...));
}

/// Runs \p Loop1d(Data, Strides, Size0) over each row of a 2-d block.
template <int NT, typename Loop1d>
inline void forEachRow(char **Base, const int64_t *Strides, int64_t Size0,
                       int64_t Size1, Loop1d &&Loop) {
  char *Data[NT > 0 ? NT : 1];
  for (int Arg = 0; Arg < NT; ++Arg)
    Data[Arg] = Base[Arg];
  const int64_t *Outer = Strides + NT;
  for (int64_t I = 0; I < Size1; ++I) {
    if (I > 0)
      for (int Arg = 0; Arg < NT; ++Arg)
        Data[Arg] += Outer[Arg];
    Loop(Data, Strides, Size0);
  }
}

/// The 1-d body of cpu_kernel and of cpu_kernel_vec's scalar path.
template <typename Fn> struct ScalarLoop1d {
  using Traits = LoopBodyTraits<Fn>;
  using Indices = std::make_index_sequence<Traits::arity>;
  static constexpr int NT = static_cast<int>(Traits::arity) + 1;

  Fn &F;
  bool NeedsCast;
  ScalarType Dtypes[NT];

  ScalarLoop1d(const TensorIteratorBase &Iter, Fn &F)
      : F(F), NeedsCast(!dtypesMatch<Traits>(Iter, Indices())) {
    for (int Arg = 0; Arg < NT; ++Arg)
      Dtypes[Arg] = Iter.dtype(Arg);
  }

  void operator()(char **Data, const int64_t *Strides, int64_t N) const {
    if (NeedsCast)
      castingLoop<Traits>(Data, Strides, N, Dtypes, F, Indices());
    else if (isContiguous<Traits>(Strides, Indices()))
      contiguousLoop<Traits>(Data, N, F, Indices());
    else
      basicLoop<Traits>(Data, Strides, N, F, Indices());
  }
};

/// The vectorized loop over \p N contiguous elements; input number
/// \p Scalar - 1 (if \p Scalar > 0) is one element broadcast (stride 0).
template <typename T, int Scalar, typename Fn, typename VecFn, size_t... I>
inline void vectorizedLoop(char **Data, int64_t N, Fn &F, VecFn &VF,
                           std::index_sequence<I...>) {
  const hn::ScalableTag<T> D;
  using V = hn::Vec<decltype(D)>;
  const int64_t L = static_cast<int64_t>(hn::Lanes(D));
  T *Out = reinterpret_cast<T *>(Data[0]);
  const T *In[sizeof...(I) > 0 ? sizeof...(I) : 1] = {
      reinterpret_cast<const T *>(Data[I + 1])...};
  const V Broadcast =
      Scalar > 0 ? hn::Set(D, In[Scalar > 0 ? Scalar - 1 : 0][0]) : hn::Zero(D);
  auto LoadIn = [&](size_t Arg, int64_t J) -> V {
    if (Scalar > 0 && Arg == static_cast<size_t>(Scalar - 1))
      return Broadcast;
    return hn::LoadU(D, In[Arg] + J);
  };
  auto ScalarIn = [&](size_t Arg, int64_t J) -> T {
    if (Scalar > 0 && Arg == static_cast<size_t>(Scalar - 1))
      return In[Arg][0];
    return In[Arg][J];
  };
  (void)LoadIn;
  (void)ScalarIn;
  int64_t J = 0;
  for (; J + 4 * L <= N; J += 4 * L) {
    V R0 = VF(LoadIn(I, J)...);
    V R1 = VF(LoadIn(I, J + L)...);
    V R2 = VF(LoadIn(I, J + 2 * L)...);
    V R3 = VF(LoadIn(I, J + 3 * L)...);
    hn::StoreU(R0, D, Out + J);
    hn::StoreU(R1, D, Out + J + L);
    hn::StoreU(R2, D, Out + J + 2 * L);
    hn::StoreU(R3, D, Out + J + 3 * L);
  }
  for (; J + L <= N; J += L)
    hn::StoreU(VF(LoadIn(I, J)...), D, Out + J);
  for (; J < N; ++J)
    Out[J] = F(ScalarIn(I, J)...);
}

/// The row loop of cpu_kernel_vec for operands of one type \p T.
template <typename T, typename Fn, typename VecFn, size_t... I>
inline void vecRow(char **Data, const int64_t *Strides, int64_t N, Fn &F,
                   VecFn &VF, const ScalarLoop1d<Fn> &Fallback,
                   std::index_sequence<I...> Seq) {
  constexpr int64_t Size = sizeof(T);
  if (Strides[0] != Size)
    return Fallback(Data, Strides, N);
  if (((Strides[I + 1] == Size) && ...))
    return vectorizedLoop<T, 0>(Data, N, F, VF, Seq);
  // One broadcast input, the others contiguous.
  bool Handled = false;
  auto TryScalarAt = [&](auto ArgC) {
    constexpr size_t Arg = decltype(ArgC)::value;
    if (Handled || Strides[Arg + 1] != 0)
      return;
    if (!(((I == Arg) || Strides[I + 1] == Size) && ...))
      return;
    vectorizedLoop<T, static_cast<int>(Arg) + 1>(Data, N, F, VF, Seq);
    Handled = true;
  };
  (TryScalarAt(std::integral_constant<size_t, I>()), ...);
  if (!Handled)
    Fallback(Data, Strides, N);
}

} // namespace loops

/// Runs \p F over every element of \p Iter (one output, inputs as the
/// lambda's parameters), in parallel above \p GrainSize elements.
template <typename Fn>
void cpu_kernel(TensorIteratorBase &Iter, Fn &&F,
                int64_t GrainSize = kGrainSize) {
  using FnT = std::remove_reference_t<Fn>;
  ::sk::detail::checkElementwise<FnT>(Iter, 1);
  loops::ScalarLoop1d<FnT> Loop(Iter, F);
  constexpr int NT = loops::ScalarLoop1d<FnT>::NT;
  Iter.for_each(
      [&](char **Base, const int64_t *Strides, int64_t Size0, int64_t Size1) {
        loops::forEachRow<NT>(Base, Strides, Size0, Size1, Loop);
      },
      GrainSize);
}

/// cpu_kernel on the calling thread only.
template <typename Fn>
void cpu_serial_kernel(TensorIteratorBase &Iter, Fn &&F) {
  using FnT = std::remove_reference_t<Fn>;
  ::sk::detail::checkElementwise<FnT>(Iter, 1);
  loops::ScalarLoop1d<FnT> Loop(Iter, F);
  constexpr int NT = loops::ScalarLoop1d<FnT>::NT;
  Iter.serial_for_each(
      [&](char **Base, const int64_t *Strides, int64_t Size0, int64_t Size1) {
        loops::forEachRow<NT>(Base, Strides, Size0, Size1, Loop);
      },
      {0, Iter.numel()});
}

/// cpu_kernel with a Highway vector body \p VF for contiguous rows; see
/// the file comment. Every parameter and the result of \p F must be one
/// type, scalar_t.
template <typename Fn, typename VecFn>
void cpu_kernel_vec(TensorIteratorBase &Iter, Fn &&F, VecFn &&VF,
                    int64_t GrainSize = kGrainSize) {
  using FnT = std::remove_reference_t<Fn>;
  using Traits = ::sk::detail::LoopBodyTraits<FnT>;
  using T = typename Traits::result_type;
  using Indices = std::make_index_sequence<Traits::arity>;
  static_assert(::sk::detail::allArgsAre<Traits, T>(Indices()),
                "cpu_kernel_vec: every parameter of the scalar op must have "
                "its result type");
  ::sk::detail::checkElementwise<FnT>(Iter, 1);
  if constexpr (!::sk::detail::kHasVec<T>) {
    (void)VF;
    cpu_kernel(Iter, F, GrainSize);
  } else {
    loops::ScalarLoop1d<FnT> Fallback(Iter, F);
    constexpr int NT = loops::ScalarLoop1d<FnT>::NT;
    if (Fallback.NeedsCast)
      return cpu_kernel(Iter, F, GrainSize);
    Iter.for_each(
        [&](char **Base, const int64_t *Strides, int64_t Size0, int64_t Size1) {
          loops::forEachRow<NT>(Base, Strides, Size0, Size1,
                                 [&](char **Data, const int64_t *S, int64_t N) {
                                   loops::vecRow<T>(
                                       Data, S, N, F, VF, Fallback, Indices());
                                 });
        },
        GrainSize);
  }
}

namespace loops {
/// The row loop of cpu_kernel_multiple_outputs.
template <typename Traits, typename Fn, size_t... O, size_t... I>
inline void multiOutputRow(char **Data, const int64_t *Strides, int64_t N,
                           const ScalarType *Dtypes, bool NeedsCast, Fn &F,
                           std::index_sequence<O...>,
                           std::index_sequence<I...>) {
  constexpr size_t NumOut = sizeof...(O);
  using Result = typename Traits::result_type;
  for (int64_t J = 0; J < N; ++J) {
    if (NeedsCast) {
      Result R = F(loadAs<typename Traits::template arg<I>>(
          Data[NumOut + I] + J * Strides[NumOut + I], Dtypes[NumOut + I])...);
      (storeAs(Data[O] + J * Strides[O], Dtypes[O], std::get<O>(R)), ...);
    } else {
      Result R = F(load<typename Traits::template arg<I>>(
          Data[NumOut + I] + J * Strides[NumOut + I])...);
      (store(Data[O] + J * Strides[O], std::get<O>(R)), ...);
    }
  }
}
} // namespace loops

/// cpu_kernel for kernels with several outputs: \p F returns a std::tuple
/// with one value per output, in order.
template <typename Fn>
void cpu_kernel_multiple_outputs(TensorIteratorBase &Iter, Fn &&F,
                                 int64_t GrainSize = kGrainSize) {
  using FnT = std::remove_reference_t<Fn>;
  using Traits = ::sk::detail::LoopBodyTraits<FnT>;
  using Result = typename Traits::result_type;
  constexpr int NumOut = static_cast<int>(std::tuple_size_v<Result>);
  constexpr int NT = NumOut + static_cast<int>(Traits::arity);
  using OutIdx = std::make_index_sequence<NumOut>;
  using InIdx = std::make_index_sequence<Traits::arity>;
  ::sk::detail::checkElementwise<FnT>(Iter, NumOut);

  ScalarType Dtypes[NT];
  for (int Arg = 0; Arg < NT; ++Arg)
    Dtypes[Arg] = Iter.dtype(Arg);
  bool NeedsCast =
      ::sk::detail::multiOutputNeedsCast<Result, Traits>(Dtypes, OutIdx(), InIdx());
  auto Row = [&](char **Data, const int64_t *Strides, int64_t N) {
    loops::multiOutputRow<Traits>(Data, Strides, N, Dtypes, NeedsCast, F,
                                   OutIdx(), InIdx());
  };
  Iter.for_each(
      [&](char **Base, const int64_t *Strides, int64_t Size0, int64_t Size1) {
        loops::forEachRow<NT>(Base, Strides, Size0, Size1, Row);
      },
      GrainSize);
}

} // namespace HWY_NAMESPACE
} // namespace sk
HWY_AFTER_NAMESPACE();

// A kernel source without foreach_target.h (no HWY_TARGET_INCLUDE) runs the
// loops of the static target, as sk::cpu_kernel. In one with it, these
// names would be found by argument-dependent lookup beside each target's
// own, so it has none.
#if HWY_ONCE && !defined(HWY_TARGET_INCLUDE)
namespace sk {
namespace hn = hwy::HWY_NAMESPACE;
using HWY_NAMESPACE::cpu_kernel;
using HWY_NAMESPACE::cpu_kernel_multiple_outputs;
using HWY_NAMESPACE::cpu_kernel_vec;
using HWY_NAMESPACE::cpu_serial_kernel;
} // namespace sk
#endif

#endif // SK_ITER_LOOPS_PER_TARGET
