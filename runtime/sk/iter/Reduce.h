//===--- Reduce.h - Reduction CPU loops over a TensorIterator ---*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CPU loops of reductions built with TensorIterator::reduce_op or
/// make_reduction (ReduceUtils.h): one output with stride 0 along the
/// reduced dimensions, one input.
///
///   // sum of Half into Half, accumulating in float
///   cpu_reduce(Iter, 0.0f,
///              [](float Acc, Half X) { return Acc + float(X); },  // reduce
///              [](float A, float B) { return A + B; },            // combine
///              [](float Acc) { return Half(Acc); });              // project
///
///   // sum of float, vectorized
///   cpu_reduce_vec(Iter, 0.0f, [](float A, float B) { return A + B; },
///                  [](auto A, auto B) { return hn::Add(A, B); });
///
/// Init must be the identity of the reduction: partial results start from
/// it and are combined.
///
/// Note [Reduction loop]
/// ~~~~~~~~~~~~~~~~~~~~~
/// reduce_op orders the reduced dimensions first (fastest), so the
/// iteration is [reduced dims | output dims].
///
///  - One output element (a full reduction): the input is cut into fixed
///    chunks of 2^16 elements, reduced in parallel, and the partial results
///    combined in chunk order. The chunks do not depend on the number of
///    threads, so neither does the result.
///  - Several output elements: parallel over output elements, each reduced
///    in an accumulator of acc_t. When the reduced dimensions are strided
///    but the first output dimension is contiguous in the input (sum over
///    dim 0 of a row-major matrix), up to 64 neighbouring outputs are
///    accumulated together so that the input is read row by row.
///  - The innermost contiguous runs of the input go through the vector body
///    (cpu_reduce_vec) with four vector accumulators.
///
//===----------------------------------------------------------------------===//

// Outside the include guard: Loops.h's per-target loops, for every pass
// of foreach_target.h.
#include "sk/iter/Loops.h"

#ifndef SK_ITER_REDUCE_H
#define SK_ITER_REDUCE_H

#include <algorithm>

namespace sk {
namespace detail {

inline void checkReduction(const TensorIteratorBase &Iter) {
  SK_INTERNAL_ASSERT(Iter.noutputs() == 1 && Iter.ninputs() == 1,
                     "a reduction loop needs one output and one input");
  SK_INTERNAL_ASSERT(!Iter.is_meta(), "a CPU loop cannot run on meta tensors");
  SK_INTERNAL_ASSERT(Iter.ndim() <= 64, "more than 64 dimensions");
}

} // namespace detail
} // namespace sk

#endif // SK_ITER_REDUCE_H

// The loops, once per Highway target, as Loops.h's (Note [Highway dynamic
// dispatch] there).
#if defined(SK_ITER_REDUCE_PER_TARGET) == defined(HWY_TARGET_TOGGLE)
#ifdef SK_ITER_REDUCE_PER_TARGET
#undef SK_ITER_REDUCE_PER_TARGET
#else
#define SK_ITER_REDUCE_PER_TARGET
#endif

HWY_BEFORE_NAMESPACE();
namespace sk {
namespace HWY_NAMESPACE {
namespace loops {
using namespace ::sk::detail;

/// A scalar contiguous run: Acc = Reduce(Acc, P[J]) for every J.
template <typename scalar_t, typename acc_t, typename ReduceOp>
struct ScalarRun {
  static constexpr bool kHasColumns = false;
  ReduceOp &Reduce;
  acc_t operator()(acc_t Acc, const scalar_t *P, int64_t N) const {
    for (int64_t J = 0; J < N; ++J)
      Acc = Reduce(Acc, P[J]);
    return Acc;
  }
};

/// A vectorized contiguous run of an associative, commutative reduction
/// whose identity is \p Identity.
template <typename T, typename ReduceOp, typename VecReduceOp> struct VecRun {
  static constexpr bool kHasColumns = true;
  ReduceOp &Reduce;
  VecReduceOp &VecReduce;
  T Identity;

  /// Reduces \p Rows rows, \p Stride bytes apart, of \p Width
  /// contiguous outputs' inputs into Acc[0, Width): the accumulators stay
  /// in registers across the rows.
  template <int64_t Width>
  void columns(T *Acc, const char *P, int64_t Stride, int64_t Rows) const {
    const hn::ScalableTag<T> D;
    using V = hn::Vec<decltype(D)>;
    constexpr int64_t L = static_cast<int64_t>(hn::MaxLanes(D));
    static_assert(Width % L == 0, "a whole number of vectors");
    V A[Width / L];
    for (int64_t I = 0; I < Width / L; ++I)
      A[I] = hn::LoadU(D, Acc + I * L);
    for (int64_t R = 0; R < Rows; ++R, P += Stride) {
      const T *Row = reinterpret_cast<const T *>(P);
      for (int64_t I = 0; I < Width / L; ++I)
        A[I] = VecReduce(A[I], hn::LoadU(D, Row + I * L));
    }
    for (int64_t I = 0; I < Width / L; ++I)
      hn::StoreU(A[I], D, Acc + I * L);
  }

  T operator()(T Acc, const T *P, int64_t N) const {
    const hn::ScalableTag<T> D;
    using V = hn::Vec<decltype(D)>;
    const int64_t L = static_cast<int64_t>(hn::Lanes(D));
    int64_t J = 0;
    if (N >= 4 * L) {
      V A0 = hn::Set(D, Identity), A1 = A0, A2 = A0, A3 = A0;
      for (; J + 4 * L <= N; J += 4 * L) {
        A0 = VecReduce(A0, hn::LoadU(D, P + J));
        A1 = VecReduce(A1, hn::LoadU(D, P + J + L));
        A2 = VecReduce(A2, hn::LoadU(D, P + J + 2 * L));
        A3 = VecReduce(A3, hn::LoadU(D, P + J + 3 * L));
      }
      for (; J + L <= N; J += L)
        A0 = VecReduce(A0, hn::LoadU(D, P + J));
      A0 = VecReduce(VecReduce(A0, A1), VecReduce(A2, A3));
      alignas(64) T Lanes[HWY_MAX_BYTES / sizeof(T)];
      hn::StoreU(A0, D, Lanes);
      for (int64_t I = 0; I < L; ++I)
        Acc = Reduce(Acc, Lanes[I]);
    }
    for (; J < N; ++J)
      Acc = Reduce(Acc, P[J]);
    return Acc;
  }
};

/// The reduction loop of Note [Reduction loop] over a built reduction
/// iterator. \p Run reduces a contiguous run of scalar_t.
template <typename scalar_t, typename acc_t, typename out_t, typename ReduceOp,
          typename CombineOp, typename ProjectOp, typename RunOp>
class ReduceLoop {
public:
  ReduceLoop(const TensorIteratorBase &Iter, acc_t Init, ReduceOp &Reduce,
             CombineOp &Combine, ProjectOp &Project, RunOp &Run)
      : Iter(Iter), Init(Init), Reduce(Reduce), Combine(Combine),
        Project(Project), Run(Run), Shape(Iter.shape()),
        OutStrides(Iter.strides(0)), InStrides(Iter.strides(1)),
        OutDtype(Iter.dtype(0)), InDtype(Iter.dtype(1)) {
    OutCast = OutDtype != scalarTypeOf<out_t>();
    InCast = InDtype != scalarTypeOf<scalar_t>();
    Ndim = Iter.ndim();
    K = 0;
    while (K < Ndim && OutStrides[K] == 0)
      ++K;
    for (int D = K; D < Ndim; ++D)
      SK_INTERNAL_ASSERT(OutStrides[D] != 0 || Shape[D] == 1,
                         "reduced dimension ", D, " after an output one");
    RedNumel = 1;
    for (int D = 0; D < K; ++D)
      RedNumel *= Shape[D];
    OutNumel = 1;
    for (int D = K; D < Ndim; ++D)
      OutNumel *= Shape[D];
  }

  void run(int64_t GrainSize) {
    char *OutBase = static_cast<char *>(Iter.data_ptr(0));
    const char *InBase = static_cast<const char *>(Iter.data_ptr(1));
    if (Iter.numel() == 0)
      return fillEmpty(OutBase);
    if (OutNumel == 1)
      return reduceAll(OutBase, InBase);
    bool OuterBlocked = K > 0 && K < Ndim && !InCast &&
                        InStrides[K] == sizeof(scalar_t) &&
                        InStrides[0] != sizeof(scalar_t);
    int64_t Grain =
        std::max<int64_t>(1, GrainSize / std::max<int64_t>(1, RedNumel));
    parallel_for(0, OutNumel, Grain, [&](int64_t Begin, int64_t End) {
      reduceOutputs(OutBase, InBase, Begin, End, OuterBlocked);
    });
  }

private:
  static constexpr int64_t kChunk = int64_t(1) << 16;
  static constexpr int64_t kBlock = 64;

  scalar_t loadIn(const char *P) const {
    return InCast ? loadAs<scalar_t>(P, InDtype) : load<scalar_t>(P);
  }
  void storeOut(char *P, acc_t Acc) const {
    out_t V = Project(Acc);
    if (OutCast)
      storeAs(P, OutDtype, V);
    else
      store(P, V);
  }

  /// Reduces \p N elements from \p P, \p Stride bytes apart, into \p Acc.
  acc_t reduceRun(acc_t Acc, const char *P, int64_t Stride, int64_t N) const {
    if (!InCast && Stride == static_cast<int64_t>(sizeof(scalar_t)))
      return Run(Acc, reinterpret_cast<const scalar_t *>(P), N);
    for (int64_t J = 0; J < N; ++J)
      Acc = Reduce(Acc, loadIn(P + J * Stride));
    return Acc;
  }

  /// Reduces the linear range [Begin, End) of the reduced dimensions of
  /// the output element whose input starts at \p In.
  acc_t reduceRange(acc_t Acc, const char *In, int64_t Begin,
                    int64_t End) const {
    if (K == 0)
      return reduceRun(Acc, In, 0, End - Begin);
    int64_t Idx[64];
    int64_t Linear = Begin;
    for (int D = 0; D < K; ++D) {
      Idx[D] = Linear % Shape[D];
      Linear /= Shape[D];
    }
    while (Begin < End) {
      const char *P = In;
      for (int D = 0; D < K; ++D)
        P += Idx[D] * InStrides[D];
      int64_t N = std::min(Shape[0] - Idx[0], End - Begin);
      Acc = reduceRun(Acc, P, InStrides[0], N);
      Begin += N;
      Idx[0] += N;
      for (int D = 0; D + 1 < K && Idx[D] == Shape[D]; ++D) {
        Idx[D] = 0;
        ++Idx[D + 1];
      }
    }
    return Acc;
  }

  void reduceAll(char *OutBase, const char *InBase) const {
    int64_t NumChunks = (RedNumel + kChunk - 1) / kChunk;
    if (NumChunks <= 1)
      return storeOut(OutBase, reduceRange(Init, InBase, 0, RedNumel));
    SmallVector<acc_t, 16> Partials(static_cast<size_t>(NumChunks), Init);
    parallel_for(0, NumChunks, 1, [&](int64_t Begin, int64_t End) {
      for (int64_t C = Begin; C < End; ++C)
        Partials[C] = reduceRange(Init, InBase, C * kChunk,
                                  std::min(RedNumel, (C + 1) * kChunk));
    });
    acc_t Acc = Partials[0];
    for (int64_t C = 1; C < NumChunks; ++C)
      Acc = Combine(Acc, Partials[C]);
    storeOut(OutBase, Acc);
  }

  /// Reduces output elements [Begin, End) (linear over the output
  /// dimensions).
  void reduceOutputs(char *OutBase, const char *InBase, int64_t Begin,
                     int64_t End, bool OuterBlocked) const {
    int64_t Idx[64];
    int64_t Linear = Begin;
    for (int D = K; D < Ndim; ++D) {
      Idx[D] = Linear % Shape[D];
      Linear /= Shape[D];
    }
    int64_t O = Begin;
    while (O < End) {
      char *OutP = OutBase;
      const char *InP = InBase;
      for (int D = K; D < Ndim; ++D) {
        OutP += Idx[D] * OutStrides[D];
        InP += Idx[D] * InStrides[D];
      }
      int64_t Count = 1;
      if (OuterBlocked) {
        Count = std::min({kBlock, Shape[K] - Idx[K], End - O});
        reduceBlock(OutP, InP, Count);
      } else {
        storeOut(OutP, reduceRange(Init, InP, 0, RedNumel));
      }
      O += Count;
      Idx[K] += Count;
      for (int D = K; D + 1 < Ndim && Idx[D] == Shape[D]; ++D) {
        Idx[D] = 0;
        ++Idx[D + 1];
      }
    }
  }

  /// Reduces \p Count outputs that are neighbours along dimension K, whose
  /// inputs are contiguous, reading the reduced dimensions row by row.
  void reduceBlock(char *OutP, const char *InP, int64_t Count) const {
    acc_t Acc[kBlock];
    for (int64_t B = 0; B < Count; ++B)
      Acc[B] = Init;
    // A whole block over one reduced dimension: on vectors held across
    // the rows.
    if constexpr (RunOp::kHasColumns) {
      if (K == 1 && Count == kBlock) {
        Run.template columns<kBlock>(Acc, InP, InStrides[0], RedNumel);
        for (int64_t B = 0; B < Count; ++B)
          storeOut(OutP + B * OutStrides[K], Acc[B]);
        return;
      }
    }
    int64_t Idx[64] = {0};
    for (int64_t R = 0; R < RedNumel; ++R) {
      const char *P = InP;
      for (int D = 0; D < K; ++D)
        P += Idx[D] * InStrides[D];
      const scalar_t *Row = reinterpret_cast<const scalar_t *>(P);
      for (int64_t B = 0; B < Count; ++B)
        Acc[B] = Reduce(Acc[B], Row[B]);
      ++Idx[0];
      for (int D = 0; D + 1 < K && Idx[D] == Shape[D]; ++D) {
        Idx[D] = 0;
        ++Idx[D + 1];
      }
    }
    for (int64_t B = 0; B < Count; ++B)
      storeOut(OutP + B * OutStrides[K], Acc[B]);
  }

  /// An empty input: every output element is Project(Init) (the sum of no
  /// elements is 0).
  void fillEmpty(char *OutBase) const {
    // The output's own extent: reduced dimensions count once.
    int64_t Count = 1;
    for (int D = 0; D < Ndim; ++D)
      Count *= OutStrides[D] == 0 ? 1 : Shape[D];
    int64_t Idx[64] = {0};
    for (int64_t I = 0; I < Count; ++I) {
      char *P = OutBase;
      for (int D = 0; D < Ndim; ++D)
        if (OutStrides[D] != 0)
          P += Idx[D] * OutStrides[D];
      storeOut(P, Init);
      for (int D = 0; D < Ndim; ++D) {
        if (OutStrides[D] == 0)
          continue;
        if (++Idx[D] < Shape[D])
          break;
        Idx[D] = 0;
      }
    }
  }

  const TensorIteratorBase &Iter;
  acc_t Init;
  ReduceOp &Reduce;
  CombineOp &Combine;
  ProjectOp &Project;
  RunOp &Run;
  IntArrayRef Shape, OutStrides, InStrides;
  ScalarType OutDtype, InDtype;
  bool OutCast = false, InCast = false;
  int Ndim = 0, K = 0;
  int64_t RedNumel = 1, OutNumel = 1;
};

} // namespace loops

/// Reduces the input of \p Iter into its output: see the file comment.
/// \p Reduce is `acc_t(acc_t, scalar_t)`, \p Combine `acc_t(acc_t, acc_t)`
/// and \p Project `out_t(acc_t)`; scalar_t and out_t are the C++ types of
/// the input and the output (others are converted per element).
template <typename acc_t, typename ReduceOp, typename CombineOp,
          typename ProjectOp>
void cpu_reduce(TensorIteratorBase &Iter, acc_t Init, ReduceOp Reduce,
                CombineOp Combine, ProjectOp Project,
                int64_t GrainSize = kGrainSize) {
  using scalar_t = typename ::sk::detail::LoopBodyTraits<ReduceOp>::template arg<1>;
  using out_t = typename ::sk::detail::LoopBodyTraits<ProjectOp>::result_type;
  ::sk::detail::checkReduction(Iter);
  loops::ScalarRun<scalar_t, acc_t, ReduceOp> Run{Reduce};
  loops::ReduceLoop<scalar_t, acc_t, out_t, ReduceOp, CombineOp, ProjectOp,
                     decltype(Run)>
      Loop(Iter, Init, Reduce, Combine, Project, Run);
  Loop.run(GrainSize);
}

/// A reduction whose input, accumulator and output are one type scalar_t
/// and whose \p Reduce is associative and commutative (sum, max), with the
/// Highway body \p VecReduce for contiguous runs.
template <typename scalar_t, typename ReduceOp, typename VecReduceOp>
void cpu_reduce_vec(TensorIteratorBase &Iter, scalar_t Init, ReduceOp Reduce,
                    VecReduceOp VecReduce, int64_t GrainSize = kGrainSize) {
  auto Identity = [](scalar_t Acc) { return Acc; };
  if constexpr (!::sk::detail::kHasVec<scalar_t>) {
    (void)VecReduce;
    cpu_reduce(Iter, Init, Reduce, Reduce, Identity, GrainSize);
  } else {
    ::sk::detail::checkReduction(Iter);
    loops::VecRun<scalar_t, ReduceOp, VecReduceOp> Run{
        Reduce, VecReduce, Init};
    loops::ReduceLoop<scalar_t, scalar_t, scalar_t, ReduceOp, ReduceOp,
                       decltype(Identity), decltype(Run)>
        Loop(Iter, Init, Reduce, Reduce, Identity, Run);
    Loop.run(GrainSize);
  }
}

} // namespace HWY_NAMESPACE
} // namespace sk
HWY_AFTER_NAMESPACE();

// As Loops.h's sk::cpu_kernel.
#if HWY_ONCE && !defined(HWY_TARGET_INCLUDE)
namespace sk {
using HWY_NAMESPACE::cpu_reduce;
using HWY_NAMESPACE::cpu_reduce_vec;
} // namespace sk
#endif

#endif // SK_ITER_REDUCE_PER_TARGET
