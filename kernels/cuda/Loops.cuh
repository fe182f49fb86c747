//===--- Loops.cuh - The CUDA elementwise launcher --------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// gpuKernel(Iter, F) runs the functor \p F on every element of a built
/// TensorIterator on the current CUDA stream (ATen/native/cuda/Loops.cuh):
///
///   struct AddFn {
///     __device__ float operator()(float A, float B) const { return A + B; }
///   };
///   gpuKernel(*this, AddFn{});
///
/// The parameter and result types of F's call operator are the C++ types of
/// the inputs and the output, as for cpu_kernel; Half and BFloat16 functors
/// convert to float (opmath_type) inside. Note [CUDA elementwise launcher]
/// says how an iteration is run.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_CUDA_LOOPS_CUH
#define SKC_KERNELS_CUDA_LOOPS_CUH

#include "AlignedVector.h"
#include "InnerVectors.h"
#include "OffsetCalculator.h"

#include "sk/core/Half.h"
#include "sk/core/OpMathType.h"
#include "sk/cuda/CUDAException.h"
#include "sk/cuda/CUDAStream.h"
#include "sk/iter/TensorIterator.h"
#include "sk/ops/Convert.h"

#include <cuda/std/tuple>

#include <cstdint>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

namespace sk {
namespace cuda {

// Note [CUDA elementwise launcher]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// One kernel per (functor, C++ types), chosen per call. But for the
// vectorized one, whose linear index needs no division, every kernel
// indexes in 32 bits, which a GPU divides several times faster than 64:
// an iteration whose elements or byte offsets do not fit in an int32
// (can_use_32bit_indexing()) and is not all contiguous is split into
// pieces that do (splitFor32BitIndexing, halves along the dimension of
// the largest extent), and each piece is launched as an iteration of its
// own, as ATen's gpu_kernel does with with_32bit_indexing().
//
//  - vectorized: every operand contiguous, of the functor's dtype and
//    aligned for kVecSize elements. Each thread loads kVecSize elements of
//    every input with one aligned vector access (a float4 for float),
//    computes and stores a vector; the last partial vector goes element by
//    element. The index is the linear one, in 64 bits: no division.
//  - inner vectors: the operands are not contiguous, but each steps along
//    the innermost dimension by one element or (an input) stays, that
//    dimension is a whole number of vectors, and every row of the operands
//    read as vectors starts aligned (planInnerVectors, InnerVectors.h):
//    broadcasts such as [N, C] * [N, 1] or [N, C] + [C], and row slices.
//    Each thread takes one vector: one division splits its index into a
//    row and a column, an OffsetCalculator over the outer dimensions gives
//    the row's offsets, and each operand is one vector access, or one
//    element repeated for an input that stays. The strided kernel would
//    split kVecSize indices over every dimension and access each element
//    alone.
//  - strided: anything else (transposed operands, a dtype that differs
//    from the functor's, a CPU scalar operand). An OffsetCalculator splits
//    each linear index over the iteration's sizes into byte offsets,
//    dividing with IntDivider's high multiply and shift. Operands whose
//    dtype differs from the functor's (the iterator promotes without
//    temporaries, Note [Type promotion without temporaries]) are
//    converted element by element, as the CPU's castingLoop does. A 0-dim
//    CPU tensor that the iterator allowed on a CUDA iteration (a "CPU
//    scalar") is read and converted to the functor's parameter type on
//    the host, and passed by value.
//
// The strided kernel is compiled twice, as ATen's gpu_kernel_impl is:
// with conversions and without. The kernel without has no dtype switch in
// its loop, and so is smaller and keeps its registers for the loads in
// flight. Nothing in the kernels takes the address of a kernel
// parameter: that copies the parameter to local memory in every thread,
// and makes every load a generic one.
//
// Blocks have kThreads threads and each thread handles kPerThread
// elements (strided: kThreads apart, so that a warp's accesses coalesce).

constexpr int kThreads = 128;
constexpr int kPerThread = 4;
constexpr int kVecSize = 4;

namespace detail {

/// The signature of a functor's call operator.
template <typename F>
struct FunctorTraits : FunctorTraits<decltype(&F::operator())> {};
template <typename C, typename R, typename... Args>
struct FunctorTraits<R (C::*)(Args...) const> {
  using result_type = R;
  using ArgsTuple = std::tuple<std::decay_t<Args>...>;
  static constexpr int arity = static_cast<int>(sizeof...(Args));
  template <size_t I> using arg = std::tuple_element_t<I, ArgsTuple>;
};

/// Reads the element at \p P, of dtype \p Src, as a \p T: on the device
/// in the kernels, on the host for CPU scalars.
template <typename T>
SK_HOST_DEVICE inline T loadAs(const char *P, ScalarType Src) {
  switch (Src) {
#define SK_LOAD_CASE(CppType, Name, PyName)                                    \
  case ScalarType::Name:                                                       \
    return sk::detail::convertElement<T>(*reinterpret_cast<const CppType *>(P));
    SK_FORALL_SCALAR_TYPES(SK_LOAD_CASE)
#undef SK_LOAD_CASE
  default:
    return T();
  }
}

/// Writes \p V at \p P as dtype \p Dst.
template <typename T>
__device__ inline void storeAs(char *P, ScalarType Dst, T V) {
  switch (Dst) {
#define SK_STORE_CASE(CppType, Name, PyName)                                   \
  case ScalarType::Name:                                                       \
    *reinterpret_cast<CppType *>(P) = sk::detail::convertElement<CppType>(V);  \
    return;
    SK_FORALL_SCALAR_TYPES(SK_STORE_CASE)
#undef SK_STORE_CASE
  default:
    return;
  }
}

/// What a kernel needs of the operands, passed by value.
template <int NArgs> struct OperandData {
  char *Ptr[NArgs];
  ScalarType Dtype[NArgs];
  /// Bit Arg is set when operand Arg is a CPU scalar, whose value the
  /// kernel takes in its ScalarArgs instead.
  uint32_t ScalarMask;
};

/// The value of each CPU scalar input, as the functor's parameter type.
template <typename Traits, typename Indices> struct ScalarValuesOf;
template <typename Traits, size_t... I>
struct ScalarValuesOf<Traits, std::index_sequence<I...>> {
  using type = ::cuda::std::tuple<typename Traits::template arg<I>...>;
};
template <typename Fn>
using ScalarValues = typename ScalarValuesOf<
    FunctorTraits<Fn>,
    std::make_index_sequence<FunctorTraits<Fn>::arity>>::type;

/// The functor's inputs as vectors of kVecSize, one per input.
template <typename Traits, size_t... I>
using InputVectors = ::cuda::std::tuple<
    AlignedVector<typename Traits::template arg<I>, kVecSize>...>;

/// Applies \p F to each lane of the input vectors \p In and stores the
/// results as one aligned vector at \p Dst.
template <typename Traits, typename Fn, typename Inputs, size_t... I>
__device__ inline void storeApplied(const Fn &F, const Inputs &In,
                                    typename Traits::result_type *Dst,
                                    std::index_sequence<I...>) {
  using Out = typename Traits::result_type;
  AlignedVector<Out, kVecSize> Result;
#pragma unroll
  for (int K = 0; K < kVecSize; ++K)
    Result.V[K] = F(::cuda::std::get<I>(In).V[K]...);
  *reinterpret_cast<AlignedVector<Out, kVecSize> *>(Dst) = Result;
}

template <typename Traits, typename Fn, size_t... I>
__device__ inline void vectorizedStep(const Fn &F, char *const *Ptr,
                                      int64_t Base, int64_t N,
                                      std::index_sequence<I...> Seq) {
  using Out = typename Traits::result_type;
  if (Base + kVecSize <= N) {
    InputVectors<Traits, I...> In{*reinterpret_cast<
        const AlignedVector<typename Traits::template arg<I>, kVecSize> *>(
        reinterpret_cast<const typename Traits::template arg<I> *>(Ptr[I + 1]) +
        Base)...};
    storeApplied<Traits>(F, In, reinterpret_cast<Out *>(Ptr[0]) + Base, Seq);
    return;
  }
  for (int64_t J = Base; J < N; ++J)
    reinterpret_cast<Out *>(Ptr[0])[J] =
        F(reinterpret_cast<const typename Traits::template arg<I> *>(
            Ptr[I + 1])[J]...);
}

template <typename Fn, int NArgs>
__global__ void __launch_bounds__(kThreads)
    vectorizedKernel(int64_t N, Fn F, OperandData<NArgs> Data) {
  using Traits = FunctorTraits<Fn>;
  int64_t Base =
      (int64_t(blockIdx.x) * kThreads + threadIdx.x) * int64_t(kVecSize);
  if (Base >= N)
    return;
  vectorizedStep<Traits>(F, Data.Ptr, Base, N,
                         std::make_index_sequence<Traits::arity>());
}

/// Input \p I's vector at column \p Column of its row at byte offset
/// \p RowOffset, or its element there repeated when it stays along the row.
template <size_t I, typename Traits, int NArgs>
__device__ inline AlignedVector<typename Traits::template arg<I>, kVecSize>
loadInnerVector(const OperandData<NArgs> &Data, uint32_t RepeatedInputs,
                int32_t RowOffset, int32_t Column) {
  using T = typename Traits::template arg<I>;
  const T *P = reinterpret_cast<const T *>(Data.Ptr[I + 1] + RowOffset);
  AlignedVector<T, kVecSize> V;
  if (RepeatedInputs & (1u << (I + 1))) {
    T Element = *P;
#pragma unroll
    for (int K = 0; K < kVecSize; ++K)
      V.V[K] = Element;
  } else {
    V = *reinterpret_cast<const AlignedVector<T, kVecSize> *>(P + Column);
  }
  return V;
}

template <typename Traits, typename Fn, int NArgs, size_t... I>
__device__ inline void
innerVectorStep(const Fn &F, const OperandData<NArgs> &Data,
                uint32_t RepeatedInputs,
                const OperandOffsets<NArgs, int32_t> &RowOffsets,
                int32_t Column, std::index_sequence<I...> Seq) {
  using Out = typename Traits::result_type;
  InputVectors<Traits, I...> In{loadInnerVector<I, Traits>(
      Data, RepeatedInputs, RowOffsets.V[I + 1], Column)...};
  storeApplied<Traits>(
      F, In, reinterpret_cast<Out *>(Data.Ptr[0] + RowOffsets.V[0]) + Column,
      Seq);
}

/// Vector V of the iteration is column (V % VectorsPerRow) * kVecSize of
/// row V / VectorsPerRow, whose offsets \p Rows gives.
template <typename Fn, int NArgs>
__global__ void __launch_bounds__(kThreads)
    innerVectorKernel(int32_t NumVectors, Fn F, OperandData<NArgs> Data,
                      uint32_t RepeatedInputs,
                      IntDivider<int32_t> VectorsPerRow,
                      OffsetCalculator<NArgs, int32_t> Rows) {
  using Traits = FunctorTraits<Fn>;
  int32_t V = int32_t(blockIdx.x) * kThreads + int32_t(threadIdx.x);
  if (V >= NumVectors)
    return;
  int32_t Row = VectorsPerRow.div(V);
  int32_t Column = (V - Row * VectorsPerRow.divisor()) * kVecSize;
  innerVectorStep<Traits>(F, Data, RepeatedInputs, Rows.get(Row), Column,
                          std::make_index_sequence<Traits::arity>());
}

/// Input \p I's element at byte offset \p Offset, as the functor's
/// parameter type.
template <bool Cast, size_t I, typename Traits, int NArgs, typename Scalars>
__device__ inline typename Traits::template arg<I>
loadInput(const OperandData<NArgs> &Data, const Scalars &ScalarArgs,
          int64_t Offset) {
  using T = typename Traits::template arg<I>;
  if (Data.ScalarMask & (1u << (I + 1)))
    return ::cuda::std::get<I>(ScalarArgs);
  const char *P = Data.Ptr[I + 1] + Offset;
  if constexpr (Cast)
    return loadAs<T>(P, Data.Dtype[I + 1]);
  else
    return *reinterpret_cast<const T *>(P);
}

/// The strided loop of one thread: its kPerThread elements' operands are
/// all loaded before the first result is stored, as PyTorch's
/// elementwise_kernel does. Loaded and stored one element at a time, each
/// load would wait for the store before it, which may alias it, and the
/// thread would have one load in flight where it can have kPerThread.
template <bool Cast, typename Traits, typename Fn, int NArgs, typename IndexT,
          typename Scalars, size_t... I>
__device__ inline void stridedSteps(IndexT N, const Fn &F,
                                    const OperandData<NArgs> &Data,
                                    const Scalars &ScalarArgs,
                                    const OffsetCalculator<NArgs, IndexT> &Calc,
                                    std::index_sequence<I...>) {
  using Out = typename Traits::result_type;
  IndexT First = IndexT(blockIdx.x) * (kThreads * kPerThread) + threadIdx.x;
  ::cuda::std::tuple<typename Traits::template arg<I>...> Args[kPerThread];
  IndexT OutOffsets[kPerThread];
#pragma unroll
  for (int K = 0; K < kPerThread; ++K) {
    IndexT Index = First + IndexT(K) * kThreads;
    if (Index < N) {
      OperandOffsets<NArgs, IndexT> Off = Calc.get(Index);
      OutOffsets[K] = Off.V[0];
      Args[K] = ::cuda::std::tuple<typename Traits::template arg<I>...>(
          loadInput<Cast, I, Traits>(Data, ScalarArgs, Off.V[I + 1])...);
    }
  }
#pragma unroll
  for (int K = 0; K < kPerThread; ++K) {
    if (First + IndexT(K) * kThreads >= N)
      return;
    Out V = F(::cuda::std::get<I>(Args[K])...);
    char *P = Data.Ptr[0] + OutOffsets[K];
    if constexpr (Cast)
      storeAs<Out>(P, Data.Dtype[0], V);
    else
      *reinterpret_cast<Out *>(P) = V;
  }
}

template <bool Cast, typename Fn, int NArgs, typename IndexT>
__global__ void __launch_bounds__(kThreads)
    stridedKernel(IndexT N, Fn F, OperandData<NArgs> Data,
                  ScalarValues<Fn> ScalarArgs,
                  OffsetCalculator<NArgs, IndexT> Calc) {
  using Traits = FunctorTraits<Fn>;
  stridedSteps<Cast, Traits>(N, F, Data, ScalarArgs, Calc,
                             std::make_index_sequence<Traits::arity>());
}

/// Reads each CPU scalar input of \p Data into \p ScalarArgs, converted to
/// the functor's parameter type.
template <typename Traits, int NArgs, typename Scalars, size_t... I>
void readCPUScalars(const OperandData<NArgs> &Data, Scalars &ScalarArgs,
                    std::index_sequence<I...>) {
  ((Data.ScalarMask & (1u << (I + 1))
        ? void(::cuda::std::get<I>(ScalarArgs) =
                   loadAs<typename Traits::template arg<I>>(Data.Ptr[I + 1],
                                                            Data.Dtype[I + 1]))
        : void()),
   ...);
}

/// The OffsetCalculator of \p Iter's dimensions from \p FirstDim outwards;
/// FirstDim 1 gives the offsets of its rows.
template <int NArgs, typename IndexT>
OffsetCalculator<NArgs, IndexT>
makeOffsetCalculator(const TensorIteratorBase &Iter, int FirstDim = 0) {
  const int64_t *Strides[NArgs];
  for (int Arg = 0; Arg < NArgs; ++Arg)
    Strides[Arg] = Iter.strides(Arg).data() + FirstDim;
  return OffsetCalculator<NArgs, IndexT>(
      Iter.ndim() - FirstDim, Iter.shape().data() + FirstDim, Strides);
}

/// Whether every operand of \p Iter but the CPU scalars of \p ScalarMask
/// has the dtype of the functor's parameter or result.
template <typename Traits, size_t... I>
bool dtypesMatch(const TensorIteratorBase &Iter, uint32_t ScalarMask,
                 std::index_sequence<I...>) {
  return Iter.dtype(0) == scalarTypeOf<typename Traits::result_type>() &&
         (((ScalarMask & (1u << (I + 1))) ||
           Iter.dtype(I + 1) ==
               scalarTypeOf<typename Traits::template arg<I>>()) &&
          ...);
}

template <typename Traits, size_t... I>
bool alignedForVectors(const TensorIteratorBase &Iter,
                       std::index_sequence<I...>) {
  return isAlignedForVector(Iter.data_ptr(0),
                            sizeof(typename Traits::result_type), kVecSize) &&
         (isAlignedForVector(Iter.data_ptr(I + 1),
                             sizeof(typename Traits::template arg<I>),
                             kVecSize) &&
          ...);
}

/// planInnerVectors for \p Iter's operands in vectors of kVecSize.
template <int NArgs>
std::optional<InnerVectorPlan>
planInnerVectors(const TensorIteratorBase &Iter) {
  const int64_t *Strides[NArgs];
  const void *Ptrs[NArgs];
  int64_t ElemSizes[NArgs];
  for (int Arg = 0; Arg < NArgs; ++Arg) {
    Strides[Arg] = Iter.strides(Arg).data();
    Ptrs[Arg] = Iter.data_ptr(Arg);
    ElemSizes[Arg] = Iter.element_size(Arg);
  }
  return cuda::planInnerVectors(Iter.ndim(), Iter.shape().data(), Strides, Ptrs,
                                ElemSizes, NArgs, kVecSize);
}

} // namespace detail

/// Runs \p F over \p Iter, a built iterator of CUDA tensors with one output
/// and as many inputs as \p F takes; see Note [CUDA elementwise launcher].
template <typename Fn> void gpuKernel(TensorIteratorBase &Iter, const Fn &F) {
  using Traits = detail::FunctorTraits<Fn>;
  constexpr int NArgs = Traits::arity + 1;
  using Indices = std::make_index_sequence<Traits::arity>;
  SK_INTERNAL_ASSERT(Iter.ninputs() == Traits::arity, "kernel takes ",
                     Traits::arity, " inputs but the iterator has ",
                     Iter.ninputs());
  SK_INTERNAL_ASSERT(Iter.noutputs() == 1, "kernel writes 1 output but the ",
                     "iterator has ", Iter.noutputs());
  const int64_t N = Iter.numel();
  if (N == 0)
    return;
  SK_CHECK(Iter.ndim() <= kMaxDims, "CUDA elementwise kernels support at ",
           "most ", kMaxDims, " dimensions, got ", Iter.ndim());

  detail::OperandData<NArgs> Data;
  Data.ScalarMask = 0;
  for (int Arg = 0; Arg < NArgs; ++Arg) {
    Data.Ptr[Arg] = static_cast<char *>(Iter.data_ptr(Arg));
    Data.Dtype[Arg] = Iter.dtype(Arg);
    if (Arg > 0 && Iter.is_cpu_scalar(Arg))
      Data.ScalarMask |= 1u << Arg;
  }
  detail::ScalarValues<Fn> ScalarArgs{};
  detail::readCPUScalars<Traits>(Data, ScalarArgs, Indices());
  // CPU scalars are converted already; the other operands decide.
  bool Cast = !detail::dtypesMatch<Traits>(Iter, Data.ScalarMask, Indices());

  cudaStream_t Stream = getCurrentCUDAStream();
  if (!Cast && Data.ScalarMask == 0 && Iter.is_contiguous() &&
      detail::alignedForVectors<Traits>(Iter, Indices())) {
    int64_t Blocks = blocksFor(N, kThreads, kVecSize);
    detail::vectorizedKernel<<<static_cast<unsigned>(Blocks), kThreads, 0,
                               Stream>>>(N, F, Data);
    SK_CUDA_KERNEL_LAUNCH_CHECK();
    return;
  }
  // The other kernels index in 32 bits: pieces of an iteration that does
  // not fit, each launched as one of its own.
  if (!Iter.can_use_32bit_indexing()) {
    for (TensorIterator &Piece : splitFor32BitIndexing(Iter))
      gpuKernel(Piece, F);
    return;
  }
  std::optional<InnerVectorPlan> Plan;
  if (!Cast && Data.ScalarMask == 0)
    Plan = detail::planInnerVectors<NArgs>(Iter);
  if (Plan) {
    auto Vectors = static_cast<int32_t>(N / kVecSize);
    IntDivider<int32_t> VectorsPerRow(
        static_cast<int32_t>(Iter.shape()[0] / kVecSize));
    unsigned Grid = static_cast<unsigned>(blocksFor(Vectors, kThreads, 1));
    detail::innerVectorKernel<<<Grid, kThreads, 0, Stream>>>(
        Vectors, F, Data, Plan->RepeatedInputs, VectorsPerRow,
        detail::makeOffsetCalculator<NArgs, int32_t>(Iter, /*FirstDim=*/1));
  } else {
    unsigned Grid = static_cast<unsigned>(blocksFor(N, kThreads, kPerThread));
    auto Calc = detail::makeOffsetCalculator<NArgs, int32_t>(Iter);
    auto Count = static_cast<int32_t>(N);
    if (Cast)
      detail::stridedKernel<true>
          <<<Grid, kThreads, 0, Stream>>>(Count, F, Data, ScalarArgs, Calc);
    else
      detail::stridedKernel<false>
          <<<Grid, kThreads, 0, Stream>>>(Count, F, Data, ScalarArgs, Calc);
  }
  SK_CUDA_KERNEL_LAUNCH_CHECK();
}

} // namespace cuda
} // namespace sk

#endif // SKC_KERNELS_CUDA_LOOPS_CUH
