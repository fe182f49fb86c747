//===--- ReduceOps.cpp - The reductions that fold values ------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The reductions that fold values (ATen/native/ReduceOps.cpp and
/// cpu/ReduceOpsKernel.cpp): each is a structured kernel whose meta function
/// is PyTorch's (resize_reduction's shape, PyTorch's dtype rules) and whose
/// impl runs the runtime's reduction loops (sk/iter/Reduce.h) over
/// make_reduction: sum, mean, prod, amax, amin, all, any and count_nonzero.
/// The full reductions sum(), mean() and prod(), and count_nonzero with an
/// optional dim, are composites over the dim versions.
///
/// The meta functions call set_output_raw_strided themselves, with
/// reduction_shape, instead of resize_reduction(*this, ...): skc cannot see
/// through a helper that it sets the output on every path, and warns.
///
/// Accumulators: float16 and bfloat16 accumulate in float32 (opmath_type),
/// integers in the output's type (sum and prod of an integer input give
/// int64 by default), float32 and float64 in their own type through the
/// Highway vector body of Reduce.h.
///
//===----------------------------------------------------------------------===//

// Bound by bandwidth: AVX2 at most, set before any Highway header (Note
// [AVX-512 and bandwidth-bound kernels] in sk/iter/Loops.h).
#undef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS                                                   \
  (SKC_HWY_DISABLED_TARGETS | HWY_AVX3 | HWY_AVX3_DL)

#include "Functions.h"
#include "NativeFunctions.h"

#include "shared/ReduceOps.h"

#include <cmath>
#include <limits>
#include <type_traits>

// The kernels are compiled for every Highway target and called for the
// best one the CPU has (Note [Highway dynamic dispatch] in sk/iter/Loops.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/ReduceOps.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include "sk/iter/Reduce.h"

// What every target shares, defined once.
#ifndef SKC_KERNELS_CPU_REDUCEOPS_SHARED
#define SKC_KERNELS_CPU_REDUCEOPS_SHARED
namespace sk {
using kernels::dimsOrAll;
using kernels::reducedCount;
namespace {

using DimMask = TensorIteratorBase::DimMask;

/// The output dtype of sum, mean and prod (infer_dtype_from_optional): the
/// dtype argument, else a given out='s dtype, else self's with integers
/// and bool promoted to int64.
ScalarType inferDtypeFromOptional(const Tensor &Self,
                                  std::optional<ScalarType> Dtype,
                                  const Tensor &Result) {
  if (Result.defined())
    return Dtype.value_or(Result.scalar_type());
  return get_dtype_from_self(Self, Dtype, /*PromoteIntegers=*/true);
}

/// amax() and amin() on an input without elements need every reduced
/// dimension to be non-empty (zero_numel_check_dims); \p Dims are as the
/// user wrote them.
void zeroNumelCheckDims(const Tensor &Self, IntArrayRef Dims,
                        const char *Name) {
  SK_CHECK(!Dims.empty(), Name,
           ": Expected reduction dim to be specified for input.numel() == 0. "
           "Specify the reduction dim with the 'dim' argument.");
  for (int64_t D : Dims)
    SK_CHECK_INDEX(Self.size(D) != 0, Name, ": Expected reduction dim ", D,
                   " to have non-zero size.");
}

template <typename T> bool isNonzero(T X) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>)
    return static_cast<float>(X) != 0.0f;
  else
    return X != T(0);
}

template <typename T> bool isNan(T X) {
  if constexpr (std::is_floating_point_v<T>)
    return std::isnan(X);
  else
    return false;
}

/// all() and any() give bool, or uint8 for a uint8 input, and may write a
/// given bool or uint8 out= (Note [all, any : uint8 compatibility] in
/// PyTorch's ReduceOps.cpp).
ScalarType allAnyMeta(impl::MetaBase &Meta, const char *Name,
                      const Tensor &Self) {
  const Tensor &Result = Meta.maybe_get_output();
  if (Result.defined()) {
    SK_CHECK(
        Result.scalar_type() == kBool || Result.scalar_type() == kByte, Name,
        " only supports bool tensor for result, got: ", Result.scalar_type());
    return Result.scalar_type();
  }
  return Self.scalar_type() == kByte ? kByte : kBool;
}

/// amax() and amin() keep self's dtype; an out= must have it too.
ScalarType extremumMeta(impl::MetaBase &Meta, const char *Name,
                        const Tensor &Self, IntArrayRef Dims) {
  const Tensor &Result = Meta.maybe_get_output();
  if (Result.defined())
    SK_CHECK(Self.scalar_type() == Result.scalar_type(),
             "Expected the dtype for input and out to match, but got ",
             Self.scalar_type(), " for input's dtype and ",
             Result.scalar_type(), " for out's dtype.");
  if (Self.numel() == 0)
    zeroNumelCheckDims(Self, Dims, Name);
  return Self.scalar_type();
}
} // namespace
} // namespace sk
#endif // SKC_KERNELS_CPU_REDUCEOPS_SHARED

HWY_BEFORE_NAMESPACE();
namespace sk {
namespace HWY_NAMESPACE {
namespace {

/// The vector body of Reduce.h's loop with a final \p Project: what
/// cpu_reduce_vec does, for reductions whose result is not the
/// accumulator itself (mean divides it). \p Init is the identity of
/// \p Reduce.
template <typename T, typename ReduceOp, typename VecReduceOp,
          typename ProjectOp>
void reduceVecProject(TensorIteratorBase &Iter, T Init, ReduceOp Reduce,
                      VecReduceOp VecReduce, ProjectOp Project) {
  detail::checkReduction(Iter);
  loops::VecRun<T, ReduceOp, VecReduceOp> Run{Reduce, VecReduce, Init};
  loops::ReduceLoop<T, T, T, ReduceOp, ReduceOp, ProjectOp, decltype(Run)> Loop(
      Iter, Init, Reduce, Reduce, Project, Run);
  Loop.run(kGrainSize);
}

/// A reduction that accumulates with `+` or `*` (sum, mean, prod) into the
/// output's opmath type, then divides the result by \p Divisor (mean), or
/// not when \p Divisor is empty. Dividing, not multiplying by the
/// reciprocal, keeps mean(ones(49)) exactly 1, as PyTorch's sum-then-div.
template <bool IsProduct> struct ArithmeticReduce {
  template <typename T> static T apply(T A, T B) {
    if constexpr (std::is_same_v<T, bool>) {
      return IsProduct ? (A && B) : (A || B);
    } else if constexpr (std::is_integral_v<T>) {
      // Wraps as the vector body does, without signed-overflow UB.
      uint64_t UA = static_cast<uint64_t>(A), UB = static_cast<uint64_t>(B);
      return static_cast<T>(IsProduct ? UA * UB : UA + UB);
    } else if constexpr (IsProduct) {
      return static_cast<T>(A * B);
    } else {
      return static_cast<T>(A + B);
    }
  }
  template <typename V> static V applyVec(V A, V B) {
    if constexpr (IsProduct)
      return hn::Mul(A, B);
    else
      return hn::Add(A, B);
  }

  static void run(TensorIteratorBase &Iter, std::optional<double> Divisor) {
    ScalarType OutDtype = Iter.dtype(0), InDtype = Iter.dtype(1);
    visitScalarType(OutDtype, [&](auto OutTag) {
      using out_t = decltype(OutTag);
      using acc_t = opmath_type<out_t>;
      const acc_t Init = IsProduct ? acc_t(1) : acc_t(0);
      auto Combine = [](acc_t A, acc_t B) { return apply(A, B); };
      // Integer products stay scalar: AVX2 multiplies neither 8- nor 64-bit
      // lanes.
      constexpr bool Vectorize = std::is_floating_point_v<out_t> ||
                                 (!IsProduct && detail::kHasVec<out_t>);
      if constexpr (Vectorize) {
        if (InDtype == OutDtype) {
          auto VecOp = [](auto A, auto B) { return applyVec(A, B); };
          if (!Divisor)
            return cpu_reduce_vec(Iter, Init, Combine, VecOp);
          if constexpr (std::is_floating_point_v<out_t>) {
            const out_t By = static_cast<out_t>(*Divisor);
            return reduceVecProject(Iter, Init, Combine, VecOp,
                                    [By](out_t A) { return A / By; });
          }
        }
      }
      auto Project = [Divisor](acc_t Acc) {
        if constexpr (std::is_floating_point_v<acc_t>)
          if (Divisor)
            return out_t(Acc / static_cast<acc_t>(*Divisor));
        return out_t(Acc);
      };
      if (InDtype == OutDtype)
        return cpu_reduce(
            Iter, Init, [](acc_t Acc, out_t X) { return apply(Acc, acc_t(X)); },
            Combine, Project);
      // sum() and prod() of an integral input into int64, the default:
      // read the input in its own type rather than converting per element.
      if constexpr (std::is_same_v<out_t, int64_t>) {
        if (isIntegralType(InDtype, /*IncludeBool=*/true))
          return visitScalarType(InDtype, [&](auto InTag) {
            using in_t = decltype(InTag);
            if constexpr (std::is_integral_v<in_t>)
              cpu_reduce(
                  Iter, Init,
                  [](int64_t Acc, in_t X) {
                    return apply(Acc, static_cast<int64_t>(X));
                  },
                  Combine, Project);
          });
      }
      // Other mixed dtypes: the loop converts each input to acc_t.
      cpu_reduce(Iter, Init, Combine, Combine, Project);
    });
  }
};

/// amax (\p IsMax) and amin: NaN propagates, as in PyTorch.
template <bool IsMax> struct ExtremumReduce {
  template <typename T> static T pick(T A, T B) {
    if constexpr (std::is_same_v<T, bool>)
      return IsMax ? (A || B) : (A && B);
    else if (isNan(A))
      return A;
    else
      return (IsMax ? A > B : A < B) ? A : B;
  }

  static void run(TensorIteratorBase &Iter) {
    visitScalarType(Iter.dtype(1), [&](auto Tag) {
      using scalar_t = decltype(Tag);
      using acc_t = opmath_type<scalar_t>;
      acc_t Init;
      if constexpr (std::is_same_v<acc_t, bool>)
        Init = !IsMax;
      else if constexpr (std::is_floating_point_v<acc_t>)
        Init = IsMax ? -std::numeric_limits<acc_t>::infinity()
                     : std::numeric_limits<acc_t>::infinity();
      else
        Init = IsMax ? std::numeric_limits<acc_t>::lowest()
                     : std::numeric_limits<acc_t>::max();
      auto Combine = [](acc_t A, acc_t B) { return pick(A, B); };
      if constexpr (detail::kHasVec<scalar_t>) {
        // Highway's Max and Min leave NaN handling to the target.
        auto VecPick = [](auto A, auto B) {
          if constexpr (std::is_floating_point_v<scalar_t>) {
            auto KeepA =
                hn::Or(IsMax ? hn::Gt(A, B) : hn::Lt(A, B), hn::IsNaN(A));
            return hn::IfThenElse(KeepA, A, B);
          } else {
            return IsMax ? hn::Max(A, B) : hn::Min(A, B);
          }
        };
        cpu_reduce_vec(Iter, Init, Combine, VecPick);
      } else {
        cpu_reduce(
            Iter, Init,
            [](acc_t Acc, scalar_t X) { return pick(Acc, acc_t(X)); }, Combine,
            [](acc_t Acc) { return scalar_t(Acc); });
      }
    });
  }
};

/// all (\p IsAll) and any of any input dtype into a bool or uint8 output.
template <bool IsAll> void logicalReduce(TensorIteratorBase &Iter) {
  visitScalarType(Iter.dtype(1), [&](auto Tag) {
    using scalar_t = decltype(Tag);
    auto Combine = [](bool A, bool B) -> bool {
      return IsAll ? (A & B) : (A | B);
    };
    cpu_reduce(
        Iter, IsAll,
        [](bool Acc, scalar_t X) -> bool {
          return IsAll ? (Acc & isNonzero(X)) : (Acc | isNonzero(X));
        },
        Combine, [](bool Acc) { return Acc; });
  });
}
/// count_nonzero of any input dtype into an int64 output; NaN counts.
void countNonzeroReduce(TensorIteratorBase &Iter) {
  visitScalarType(Iter.dtype(1), [&](auto Tag) {
    using scalar_t = decltype(Tag);
    cpu_reduce(
        Iter, int64_t(0),
        [](int64_t Acc, scalar_t X) -> int64_t {
          return Acc + (isNonzero(X) ? 1 : 0);
        },
        [](int64_t A, int64_t B) { return A + B; },
        [](int64_t Acc) { return Acc; });
  });
}
} // namespace

static void sum_outImpl(const Tensor &self, OptionalIntArrayRef dim,
                        bool keepdim, const Tensor &out) {
  TensorIterator Iter = make_reduction(self, out, dimsOrAll(dim), keepdim);
  ArithmeticReduce</*IsProduct=*/false>::run(Iter, std::nullopt);
}

static void mean_outImpl(const Tensor &self, OptionalIntArrayRef dim,
                         bool keepdim, const Tensor &out) {
  // One pass: the sum is divided as it is stored. Over no elements that is
  // 0 / 0, NaN, as in PyTorch.
  int64_t Count = reducedCount(self, dimsOrAll(dim));
  TensorIterator Iter = make_reduction(self, out, dimsOrAll(dim), keepdim);
  ArithmeticReduce</*IsProduct=*/false>::run(Iter, static_cast<double>(Count));
}

static void prod_outImpl(const Tensor &self, int64_t dim, bool keepdim,
                         const Tensor &out) {
  TensorIterator Iter = make_reduction(self, out, {dim}, keepdim);
  ArithmeticReduce</*IsProduct=*/true>::run(Iter, std::nullopt);
}

static void amax_outImpl(const Tensor &self, IntArrayRef dim, bool keepdim,
                         const Tensor &out) {
  TensorIterator Iter = make_reduction(self, out, dim, keepdim);
  ExtremumReduce</*IsMax=*/true>::run(Iter);
}

static void amin_outImpl(const Tensor &self, IntArrayRef dim, bool keepdim,
                         const Tensor &out) {
  TensorIterator Iter = make_reduction(self, out, dim, keepdim);
  ExtremumReduce</*IsMax=*/false>::run(Iter);
}

static void all_outImpl(const Tensor &self, int64_t dim, bool keepdim,
                        const Tensor &out) {
  TensorIterator Iter = make_reduction(self, out, {dim}, keepdim);
  logicalReduce</*IsAll=*/true>(Iter);
}

static void all_all_outImpl(const Tensor &self, const Tensor &out) {
  TensorIterator Iter = make_reduction(self, out, {}, /*Keepdim=*/false);
  logicalReduce</*IsAll=*/true>(Iter);
}

static void any_outImpl(const Tensor &self, int64_t dim, bool keepdim,
                        const Tensor &out) {
  TensorIterator Iter = make_reduction(self, out, {dim}, keepdim);
  logicalReduce</*IsAll=*/false>(Iter);
}

static void any_all_outImpl(const Tensor &self, const Tensor &out) {
  TensorIterator Iter = make_reduction(self, out, {}, /*Keepdim=*/false);
  logicalReduce</*IsAll=*/false>(Iter);
}
static void count_nonzero_outImpl(const Tensor &self, IntArrayRef dim,
                                  const Tensor &out) {
  TensorIterator Iter = make_reduction(self, out, dim, /*Keepdim=*/false);
  countNonzeroReduce(Iter);
}
} // namespace HWY_NAMESPACE
} // namespace sk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sk {

HWY_EXPORT(sum_outImpl);
HWY_EXPORT(mean_outImpl);
HWY_EXPORT(prod_outImpl);
HWY_EXPORT(amax_outImpl);
HWY_EXPORT(amin_outImpl);
HWY_EXPORT(all_outImpl);
HWY_EXPORT(all_all_outImpl);
HWY_EXPORT(any_outImpl);
HWY_EXPORT(any_all_outImpl);
HWY_EXPORT(count_nonzero_outImpl);

//===----------------------------------------------------------------------===//
// sum, mean, prod
//===----------------------------------------------------------------------===//

SK_META_FUNC(sum, dim_IntList)
(const Tensor &self, OptionalIntArrayRef dim, bool keepdim,
 std::optional<ScalarType> dtype) {
  ScalarType OutDtype = inferDtypeFromOptional(self, dtype, maybe_get_output());
  set_output_raw_strided(0,
                         reduction_shape(self.sizes(), dimsOrAll(dim), keepdim),
                         {}, self.options().dtype(OutDtype));
}

SK_IMPL_FUNC(sum_out)
(const Tensor &self, OptionalIntArrayRef dim, bool keepdim,
 std::optional<ScalarType> dtype, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(sum_outImpl)(self, dim, keepdim, out);
}

Tensor SK_NATIVE_FUNC(sum)(const Tensor &self,
                           std::optional<ScalarType> dtype) {
  return sk::sum(self, /*dim=*/std::nullopt, /*keepdim=*/false, dtype);
}

SK_META_FUNC(mean, dim)
(const Tensor &self, OptionalIntArrayRef dim, bool keepdim,
 std::optional<ScalarType> dtype) {
  ScalarType InDtype = get_dtype_from_self(self, dtype, true);
  SK_CHECK(isFloatingType(InDtype), "mean(): could not infer output dtype. ",
           dtype ? "Optional" : "Input",
           " dtype must be either a floating point or complex dtype. Got: ",
           dtype ? *dtype : self.scalar_type());
  ScalarType OutDtype = inferDtypeFromOptional(self, dtype, maybe_get_output());
  // PyTorch fails later, dividing an integral out= in place.
  SK_CHECK(isFloatingType(OutDtype),
           "mean(): expected a floating point out= tensor, but got ", OutDtype);
  set_output_raw_strided(0,
                         reduction_shape(self.sizes(), dimsOrAll(dim), keepdim),
                         {}, self.options().dtype(OutDtype));
}

SK_IMPL_FUNC(mean_out)
(const Tensor &self, OptionalIntArrayRef dim, bool keepdim,
 std::optional<ScalarType> dtype, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(mean_outImpl)(self, dim, keepdim, out);
}

Tensor SK_NATIVE_FUNC(mean)(const Tensor &self,
                            std::optional<ScalarType> dtype) {
  return sk::mean(self, /*dim=*/std::nullopt, /*keepdim=*/false, dtype);
}

SK_META_FUNC(prod, dim_int)
(const Tensor &self, int64_t dim, bool keepdim,
 std::optional<ScalarType> dtype) {
  ScalarType OutDtype = inferDtypeFromOptional(self, dtype, maybe_get_output());
  set_output_raw_strided(0, reduction_shape(self.sizes(), {dim}, keepdim), {},
                         self.options().dtype(OutDtype));
}

SK_IMPL_FUNC(prod_out)
(const Tensor &self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype,
 const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(prod_outImpl)(self, dim, keepdim, out);
}

Tensor SK_NATIVE_FUNC(prod)(const Tensor &self,
                            std::optional<ScalarType> dtype) {
  // prod has no dim-list overload: reduce the flattened tensor (a view
  // unless self is not contiguous), which for a 0-dim self gives 0 dims.
  return sk::prod(self.reshape({-1}), /*dim=*/0, /*keepdim=*/false, dtype);
}

//===----------------------------------------------------------------------===//
// amax, amin
//===----------------------------------------------------------------------===//

SK_META_FUNC(amax)(const Tensor &self, IntArrayRef dim, bool keepdim) {
  ScalarType OutDtype = extremumMeta(*this, "amax()", self, dim);
  set_output_raw_strided(0, reduction_shape(self.sizes(), dim, keepdim), {},
                         self.options().dtype(OutDtype));
}

SK_IMPL_FUNC(amax_out)
(const Tensor &self, IntArrayRef dim, bool keepdim, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(amax_outImpl)(self, dim, keepdim, out);
}

SK_META_FUNC(amin)(const Tensor &self, IntArrayRef dim, bool keepdim) {
  ScalarType OutDtype = extremumMeta(*this, "amin()", self, dim);
  set_output_raw_strided(0, reduction_shape(self.sizes(), dim, keepdim), {},
                         self.options().dtype(OutDtype));
}

SK_IMPL_FUNC(amin_out)
(const Tensor &self, IntArrayRef dim, bool keepdim, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(amin_outImpl)(self, dim, keepdim, out);
}

//===----------------------------------------------------------------------===//
// all, any
//===----------------------------------------------------------------------===//

SK_PRECOMPUTE_META_FUNC(all, dim)
(const Tensor &self, int64_t dim, bool keepdim) {
  ScalarType OutDtype = allAnyMeta(*this, "all", self);
  set_output_raw_strided(0, reduction_shape(self.sizes(), {dim}, keepdim), {},
                         self.options().dtype(OutDtype));
  return SK_PRECOMPUTE_STRUCT(all, dim)().set_dim(
      maybeWrapDim(dim, self.dim()));
}

SK_IMPL_FUNC(all_out)
(const Tensor &self, int64_t dim, bool keepdim, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(all_outImpl)(self, dim, keepdim, out);
}

SK_META_FUNC(all)(const Tensor &self) {
  ScalarType OutDtype = allAnyMeta(*this, "all", self);
  set_output_raw_strided(0,
                         reduction_shape(self.sizes(), {}, /*Keepdim=*/false),
                         {}, self.options().dtype(OutDtype));
}

SK_IMPL_FUNC(all_all_out)
(const Tensor &self, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(all_all_outImpl)(self, out);
}

SK_PRECOMPUTE_META_FUNC(any, dim)
(const Tensor &self, int64_t dim, bool keepdim) {
  ScalarType OutDtype = allAnyMeta(*this, "any", self);
  set_output_raw_strided(0, reduction_shape(self.sizes(), {dim}, keepdim), {},
                         self.options().dtype(OutDtype));
  return SK_PRECOMPUTE_STRUCT(any, dim)().set_dim(
      maybeWrapDim(dim, self.dim()));
}

SK_IMPL_FUNC(any_out)
(const Tensor &self, int64_t dim, bool keepdim, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(any_outImpl)(self, dim, keepdim, out);
}

SK_META_FUNC(any)(const Tensor &self) {
  ScalarType OutDtype = allAnyMeta(*this, "any", self);
  set_output_raw_strided(0,
                         reduction_shape(self.sizes(), {}, /*Keepdim=*/false),
                         {}, self.options().dtype(OutDtype));
}

SK_IMPL_FUNC(any_all_out)
(const Tensor &self, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(any_all_outImpl)(self, out);
}

//===----------------------------------------------------------------------===//
// count_nonzero
//===----------------------------------------------------------------------===//

SK_META_FUNC(count_nonzero, dim_IntList)
(const Tensor &self, IntArrayRef dim) {
  set_output_raw_strided(0,
                         reduction_shape(self.sizes(), dim, /*Keepdim=*/false),
                         {}, self.options().dtype(kLong));
}

SK_IMPL_FUNC(count_nonzero_out)
(const Tensor &self, IntArrayRef dim, const Tensor &out) {
  HWY_DYNAMIC_DISPATCH(count_nonzero_outImpl)(self, dim, out);
}

Tensor SK_NATIVE_FUNC(count_nonzero)(const Tensor &self,
                                     std::optional<int64_t> dim) {
  if (!dim)
    return sk::count_nonzero(self, IntArrayRef());
  int64_t Dim = *dim;
  return sk::count_nonzero(self, IntArrayRef(Dim));
}
} // namespace sk
#endif // HWY_ONCE
