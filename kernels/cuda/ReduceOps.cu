//===--- ReduceOps.cu - The reductions of cpu/ReduceOps.cpp on CUDA -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impls of the structured groups of cpu/ReduceOps.cpp, whose
/// meta functions they share, with CUB (Note [CUDA reductions] in
/// Reduce.cuh). Accumulators as on the CPU: opmath_type of the output
/// (float32 for float16 and bfloat16), integers wrap; amax and amin
/// propagate NaN; all, any and count_nonzero reduce "nonzero" of any input
/// dtype. The full reductions sum(), mean() and prod() are the CPU's
/// composites.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "DeviceUtils.cuh"
#include "Reduce.cuh"
#include "shared/ReduceOps.h"

#include <cuda/std/limits>

#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>

namespace sk {

using kernels::dimsOrAll;
using kernels::reducedCount;

namespace {

using DimMask = TensorIteratorBase::DimMask;

// Note [Operands of a reduction's combine]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The combines below evaluate both operands on every path: bool's `&` and
// `|` rather than `&&` and `||`, and no early return on a NaN
// accumulator. Where a combine can skip B, the compiler puts B's load
// behind the branch (a load has no side effect), and the column kernel
// (Reduce.cuh) then has one load in flight per thread instead of the
// batch of rows it unrolls.

/// `+` or `*`, wrapping for integers, `|` or `&` for bool.
template <bool IsProduct> struct ArithmeticOp {
  template <typename T> __device__ T operator()(T A, T B) const {
    if constexpr (std::is_same_v<T, bool>)
      return IsProduct ? (A & B) : (A | B);
    else if constexpr (std::is_integral_v<T>)
      return static_cast<T>(
          IsProduct ? static_cast<uint64_t>(A) * static_cast<uint64_t>(B)
                    : static_cast<uint64_t>(A) + static_cast<uint64_t>(B));
    else
      return IsProduct ? A * B : A + B;
  }
};

/// max (IsMax) or min; NaN propagates, A's when both are NaN. A NaN B
/// fails the comparison, so B is kept.
template <bool IsMax> struct ExtremumOp {
  template <typename T> __device__ T operator()(T A, T B) const {
    if constexpr (std::is_same_v<T, bool>) {
      return IsMax ? (A | B) : (A & B);
    } else {
      bool KeepA = IsMax ? A > B : A < B;
      if constexpr (std::is_floating_point_v<T>)
        KeepA |= static_cast<bool>(isnan(A));
      return KeepA ? A : B;
    }
  }
};

/// The accumulator into the output, divided by Divisor when it is not 0
/// (mean).
template <typename T> struct ProjectFn {
  double Divisor;
  __device__ T operator()(T Acc) const {
    if constexpr (std::is_floating_point_v<T>)
      if (Divisor != 0)
        return Acc / static_cast<T>(Divisor);
    return Acc;
  }
};

/// Reduces \p Self, of the C++ type In_t, into \p Acc where its layout
/// lets the reduction read it in place (Note [CUDA reductions]): as an
/// [Outer, Rows, Columns] tensor over its rows, or in contiguous segments,
/// reading each element as acc_t with \p Load. False where it needs a
/// copy first.
template <typename In_t, typename acc_t, typename Op,
          typename LoadFn = cuda::ConvertTo<acc_t, In_t>>
bool readReducedInPlace(const Tensor &Self, const DimMask &Mask, acc_t *AccData,
                        Op Reduce, acc_t Init, LoadFn Load = LoadFn()) {
  if (std::optional<cuda::ColumnLayout> Columns =
          cuda::getColumnLayout(Self, Mask)) {
    // Note [Column reductions on CUDA] in Reduce.cuh.
    cuda::reduceColumns(static_cast<const In_t *>(Self.data_ptr()), *Columns,
                        AccData, Reduce, Init, Load);
    return true;
  }
  cuda::ReductionInput In = cuda::permuteForReduction(Self, Mask);
  if (!In.Data.is_contiguous())
    return false;
  const In_t *Data = static_cast<const In_t *>(In.Data.data_ptr());
  // CUB loads vectors through a pointer, not through an iterator.
  if constexpr (std::is_same_v<In_t, acc_t> &&
                std::is_same_v<LoadFn, cuda::ConvertTo<acc_t, In_t>>)
    cuda::cubReduce(Data, AccData, In.Segments, In.SegmentLength, Reduce, Init);
  else
    cuda::cubReduce(thrust::make_transform_iterator(Data, Load), AccData,
                    In.Segments, In.SegmentLength, Reduce, Init);
  return true;
}

/// \p F(Tag), Tag a value of the C++ type of \p Dtype, where a reduction
/// into acc_t reads an input of \p Dtype in place, converting each
/// element (Note [CUDA reductions]): of acc_t itself, float16 and bfloat16
/// into float32, and any dtype into bool ("nonzero", for all and any).
/// False where it does not.
template <typename acc_t, typename Fn>
bool withInPlaceInput(ScalarType Dtype, Fn &&F) {
  if constexpr (std::is_same_v<acc_t, bool>) {
    return visitScalarType(Dtype, F);
  } else {
    if (Dtype == scalarTypeOf<acc_t>())
      return F(acc_t());
    if constexpr (std::is_same_v<acc_t, float>) {
      if (Dtype == kHalf)
        return F(Half());
      if (Dtype == kBFloat16)
        return F(BFloat16());
    }
    return false;
  }
}

/// Reduces \p Self over \p Mask with \p Op from \p Init into \p Out, in
/// acc_t; see Note [CUDA reductions].
template <typename acc_t, typename Op>
void reduceInto(const Tensor &Self, const DimMask &Mask, const Tensor &Out,
                Op Reduce, acc_t Init, double Divisor = 0) {
  if (Out.numel() == 0)
    return;
  ScalarType AccDtype = scalarTypeOf<acc_t>();
  Tensor Acc = empty({Out.numel()}, Self.options().dtype(AccDtype));
  bool InPlace = withInPlaceInput<acc_t>(Self.scalar_type(), [&](auto Tag) {
    return readReducedInPlace<decltype(Tag)>(
        Self, Mask, static_cast<acc_t *>(Acc.data_ptr()), Reduce, Init);
  });
  if (!InPlace) {
    cuda::ReductionInput In =
        cuda::makeReductionInput<acc_t>(Self, Mask, AccDtype);
    cuda::cubReduce(static_cast<const acc_t *>(In.Data.data_ptr()),
                    static_cast<acc_t *>(Acc.data_ptr()), In.Segments,
                    In.SegmentLength, Reduce, Init);
  }
  TensorIteratorConfig Config;
  Config.set_check_mem_overlap(false)
      .check_all_same_dtype(false)
      .resize_outputs(false)
      .add_output(Out)
      .add_owned_input(Acc.view(Out.sizes()));
  TensorIterator Iter = Config.build();
  cuda::gpuKernel(Iter, ProjectFn<acc_t>{Divisor});
}

template <bool IsProduct>
void arithmeticReduce(const Tensor &Self, IntArrayRef Dims, const Tensor &Out,
                      double Divisor = 0) {
  DimMask Mask = make_dim_mask(Dims, Self.dim());
  visitScalarType(Out.scalar_type(), [&](auto Tag) {
    using acc_t = opmath_type<decltype(Tag)>;
    reduceInto<acc_t>(Self, Mask, Out, ArithmeticOp<IsProduct>{},
                      IsProduct ? acc_t(1) : acc_t(0), Divisor);
  });
}

template <bool IsMax>
void extremumReduce(const Tensor &Self, IntArrayRef Dims, const Tensor &Out) {
  DimMask Mask = make_dim_mask(Dims, Self.dim());
  visitScalarType(Self.scalar_type(), [&](auto Tag) {
    using acc_t = opmath_type<decltype(Tag)>;
    using Limits = ::cuda::std::numeric_limits<acc_t>;
    acc_t Init;
    if constexpr (std::is_same_v<acc_t, bool>)
      Init = !IsMax;
    else if constexpr (std::is_floating_point_v<acc_t>)
      Init = IsMax ? -Limits::infinity() : Limits::infinity();
    else
      Init = IsMax ? Limits::lowest() : Limits::max();
    reduceInto<acc_t>(Self, Mask, Out, ExtremumOp<IsMax>{}, Init);
  });
}

/// all (IsAll) or any: the input converted to bool ("nonzero"), reduced
/// with & or |.
template <bool IsAll>
void logicalReduce(const Tensor &Self, IntArrayRef Dims, const Tensor &Out) {
  DimMask Mask = make_dim_mask(Dims, Self.dim());
  reduceInto<bool>(Self, Mask, Out, ExtremumOp</*IsMax=*/!IsAll>{}, IsAll);
}

/// 1 where the device value is non-zero (NaN is), else 0: what
/// count_nonzero adds up.
template <typename D> struct NonzeroCount {
  __device__ int64_t operator()(D V) const {
    return cuda_kernels::isNonzero(V) ? 1 : 0;
  }
};

} // namespace

SK_IMPL_FUNC(sum_out_cuda)
(const Tensor &self, OptionalIntArrayRef dim, bool keepdim,
 std::optional<ScalarType> dtype, const Tensor &out) {
  arithmeticReduce</*IsProduct=*/false>(self, dimsOrAll(dim), out);
}

SK_IMPL_FUNC(mean_out_cuda)
(const Tensor &self, OptionalIntArrayRef dim, bool keepdim,
 std::optional<ScalarType> dtype, const Tensor &out) {
  // Over no elements: 0 / 0, NaN, as on the CPU.
  int64_t Count = reducedCount(self, dimsOrAll(dim));
  double Divisor = Count == 0 ? std::nan("") : static_cast<double>(Count);
  arithmeticReduce</*IsProduct=*/false>(self, dimsOrAll(dim), out, Divisor);
}

SK_IMPL_FUNC(prod_out_cuda)
(const Tensor &self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype,
 const Tensor &out) {
  arithmeticReduce</*IsProduct=*/true>(self, {dim}, out);
}

SK_IMPL_FUNC(amax_out_cuda)
(const Tensor &self, IntArrayRef dim, bool keepdim, const Tensor &out) {
  extremumReduce</*IsMax=*/true>(self, dim, out);
}

SK_IMPL_FUNC(amin_out_cuda)
(const Tensor &self, IntArrayRef dim, bool keepdim, const Tensor &out) {
  extremumReduce</*IsMax=*/false>(self, dim, out);
}

SK_IMPL_FUNC(all_out_cuda)
(const Tensor &self, int64_t dim, bool keepdim, const Tensor &out) {
  logicalReduce</*IsAll=*/true>(self, {dim}, out);
}

SK_IMPL_FUNC(all_all_out_cuda)(const Tensor &self, const Tensor &out) {
  logicalReduce</*IsAll=*/true>(self, {}, out);
}

SK_IMPL_FUNC(any_out_cuda)
(const Tensor &self, int64_t dim, bool keepdim, const Tensor &out) {
  logicalReduce</*IsAll=*/false>(self, {dim}, out);
}

SK_IMPL_FUNC(any_all_out_cuda)(const Tensor &self, const Tensor &out) {
  logicalReduce</*IsAll=*/false>(self, {}, out);
}

SK_IMPL_FUNC(count_nonzero_out_cuda)
(const Tensor &self, IntArrayRef dim, const Tensor &out) {
  if (out.numel() == 0)
    return;
  DimMask Mask = make_dim_mask(dim, self.dim());
  // The counts go straight into a contiguous out that is not self's memory
  // (always so for the one count that nonzero and masked_select ask for:
  // Note [Selection on CUDA] in Indexing.cu).
  Tensor Counts = out.is_contiguous() && !out.is_alias_of(self)
                      ? out
                      : empty({out.numel()}, out.options());
  int64_t *CountData = Counts.data_ptr<int64_t>();
  ArithmeticOp</*IsProduct=*/false> Add;
  // Read in place where the layout allows, each element tested as loaded;
  // otherwise through bool, laid out as Note [CUDA reductions] says.
  bool InPlace = visitScalarType(self.scalar_type(), [&](auto Tag) {
    using D = cuda_kernels::DeviceElement<decltype(Tag)>;
    return readReducedInPlace<D>(self, Mask, CountData, Add, int64_t(0),
                                 NonzeroCount<D>{});
  });
  if (!InPlace) {
    cuda::ReductionInput In = cuda::makeReductionInput<bool>(self, Mask, kBool);
    cuda::cubReduce(thrust::make_transform_iterator(
                        static_cast<const bool *>(In.Data.data_ptr()),
                        NonzeroCount<bool>{}),
                    CountData, In.Segments, In.SegmentLength, Add, int64_t(0));
  }
  if (!Counts.is_same(out))
    out.copy_(Counts.view(out.sizes()));
}

} // namespace sk
