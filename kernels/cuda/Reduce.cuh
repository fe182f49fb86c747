//===--- Reduce.cuh - The CUDA reductions' building blocks ------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What ReduceOps.cu and ArgReduceOps.cu share; Note [CUDA reductions].
///
//===----------------------------------------------------------------------===//

#ifndef SKC_KERNELS_CUDA_REDUCE_CUH
#define SKC_KERNELS_CUDA_REDUCE_CUH

#include "Loops.cuh"

#include "sk/cuda/CUDACachingAllocator.h"
#include "sk/iter/ReduceUtils.h"
#include "sk/ops/Factories.h"

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace sk {
namespace cuda {

// Note [CUDA reductions]
// ~~~~~~~~~~~~~~~~~~~~~~
// A reduction of self over some dims runs in three steps:
//
//  1. ReductionInput: self permuted so that the kept dims come first and
//     the reduced ones last, as a contiguous tensor of the accumulation
//     dtype (a copy by gpuKernel, which converts; none when self already is
//     one). Each output element then reduces one contiguous segment. A
//     self laid out so already is read in place, each element converted
//     as it is loaded, where the conversion is cheap: float16 and bfloat16
//     into float32, any dtype into bool for all and any (withInPlaceInput
//     in ReduceOps.cu), any dtype into count_nonzero's 0 or 1. A copy would
//     read the input, write the accumulators' bytes, and the reduction read
//     those again.
//  2. CUB: cub::DeviceReduce for one segment (a full reduction: the whole
//     GPU works on it), cub::DeviceSegmentedReduce for several, into a
//     contiguous buffer of accumulators. Temp storage comes from the
//     caching allocator (allocateTempStorage).
//  3. gpuKernel from that buffer, viewed with the output's shape, into the
//     output: any strides, the conversion to the output's dtype, and the
//     final projection (mean's division).
//
// Converting first means CUB is instantiated once per accumulation type,
// not per pair of input and output dtypes. The copy costs a pass over the
// input where self is not already laid out so; a reduction kernel that
// reads strided input (PyTorch's Reduce.cuh) would save it.

/// An element of type From as acc_t: how a reduction reads its input
/// where it converts it as loaded.
template <typename acc_t, typename From> struct ConvertTo {
  __device__ acc_t operator()(From V) const { return static_cast<acc_t>(V); }
};

/// The identity: copies, with the launcher's conversions.
template <typename T> struct IdentityFn {
  __device__ T operator()(T X) const { return X; }
};

/// Copies \p Src into \p Dst (same sizes, any strides and dtypes), with
/// the element type \p T in between.
template <typename T> void copyInto(const Tensor &Dst, const Tensor &Src) {
  TensorIteratorConfig Config;
  Config.set_check_mem_overlap(false)
      .check_all_same_dtype(false)
      .resize_outputs(false)
      .add_output(Dst)
      .add_input(Src);
  TensorIterator Iter = Config.build();
  gpuKernel(Iter, IdentityFn<T>{});
}

/// Self laid out for a segmented reduction over \p Dims (Note [CUDA
/// reductions]), with the number and length of the segments.
struct ReductionInput {
  Tensor Data;
  int64_t Segments = 0;
  int64_t SegmentLength = 1;
};

/// \p Self permuted with the dims of \p Mask last, as a view, with its
/// segments: step 1 of Note [CUDA reductions] before any copy.
inline ReductionInput
permuteForReduction(const Tensor &Self,
                    const TensorIteratorBase::DimMask &Mask) {
  ReductionInput R;
  std::vector<int64_t> Perm;
  int64_t Kept = 1, Reduced = 1;
  for (int64_t D = 0; D < Self.dim(); ++D)
    if (!Mask[D]) {
      Perm.push_back(D);
      Kept *= Self.size(D);
    }
  for (int64_t D = 0; D < Self.dim(); ++D)
    if (Mask[D]) {
      Perm.push_back(D);
      Reduced *= Self.size(D);
    }
  R.Segments = Kept;
  R.SegmentLength = Reduced;
  R.Data = Self.dim() == 0 ? Self : Self.permute(Perm);
  return R;
}

/// Step 1 of Note [CUDA reductions]: \p Self with the dims of \p Mask last,
/// contiguous, of dtype \p AccDtype (C++ type \p acc_t).
template <typename acc_t>
ReductionInput makeReductionInput(const Tensor &Self,
                                  const TensorIteratorBase::DimMask &Mask,
                                  ScalarType AccDtype) {
  ReductionInput R = permuteForReduction(Self, Mask);
  if (R.Data.is_contiguous() && R.Data.scalar_type() == AccDtype)
    return R;
  Tensor Permuted = R.Data;
  R.Data = empty(Permuted.sizes(), Self.options().dtype(AccDtype));
  if (R.Data.numel() != 0)
    copyInto<acc_t>(R.Data, Permuted);
  return R;
}

/// The offset of a segment: Index * Length.
struct SegmentOffset {
  int64_t Length;
  __host__ __device__ int64_t operator()(int64_t Index) const {
    return Index * Length;
  }
};

/// Step 2 of Note [CUDA reductions]: reduces \p Segments contiguous
/// segments of \p Length elements of \p In with \p Op from \p Init into
/// \p Out (Segments elements), on the current stream.
template <typename InputIt, typename OutputIt, typename Op, typename T>
void cubReduce(InputIt In, OutputIt Out, int64_t Segments, int64_t Length,
               Op Reduce, T Init) {
  cudaStream_t Stream = getCurrentCUDAStream();
  size_t Bytes = 0;
  if (Segments == 1) {
    SK_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, Bytes, In, Out, Length,
                                            Reduce, Init, Stream));
    DataPtr Temp = CUDACachingAllocator::allocateTempStorage(Bytes);
    SK_CUDA_CHECK(cub::DeviceReduce::Reduce(Temp.get(), Bytes, In, Out, Length,
                                            Reduce, Init, Stream));
    return;
  }
  auto Begin = thrust::make_transform_iterator(
      thrust::make_counting_iterator<int64_t>(0), SegmentOffset{Length});
  auto End = Begin + 1;
  SK_CUDA_CHECK(cub::DeviceSegmentedReduce::Reduce(
      nullptr, Bytes, In, Out, Segments, Begin, End, Reduce, Init, Stream));
  DataPtr Temp = CUDACachingAllocator::allocateTempStorage(Bytes);
  SK_CUDA_CHECK(cub::DeviceSegmentedReduce::Reduce(
      Temp.get(), Bytes, In, Out, Segments, Begin, End, Reduce, Init, Stream));
}

// Note [Column reductions on CUDA]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// When self is contiguous and the reduced dims are one run followed by
// kept ones (sum over dim 0 of a matrix, mean over dim 1 of [B, T, D]),
// Note [CUDA reductions] would transpose the whole input so that each
// output reduces a contiguous segment. Instead self is read in place as
// [Outer, Rows, Columns]: each thread folds one column (o, c) over a chunk
// of rows, so that a warp reads 32 adjacent elements of a row at a time,
// and the chunks (enough blocks to fill the GPU) leave partial results
// that a second pass of the same kernel folds, as PyTorch's ReduceConfig
// splits the reduced dimension across blocks for outer reductions. Rows
// of fewer than 32 columns would leave most of each warp idle (a sum over
// dim 0 of [N, 2]: two threads of 256 a block, each folding N / 1024
// rows) or, with kept dims before the run too (Outer > 1), reading several
// short runs, and the copy would leave as few segments. Where each slab
// [Rows, Columns] has more values than its share of a grid of 1024 blocks
// holds threads, each thread of the slab's blocks folds one residue class
// of the slab modulo their threads, in blocks of a multiple of Columns, so
// that its values all lie in one column and a warp reads 32 adjacent
// elements (narrowColumnsKernel); each block folds its threads' by column,
// and the blocks' [Outer, Blocks, Columns] partials are reduced by columns
// as above. Other narrow rows with kept dims before them take the copy.

/// The [Outer, Rows, Columns] view of Note [Column reductions on CUDA].
struct ColumnLayout {
  int64_t Outer = 1;
  int64_t Rows = 1;
  int64_t Columns = 1;
};

/// The blocks of narrowColumnsKernel in all, and the threads of one at most.
constexpr int64_t kNarrowBlocks = 1024;
constexpr int kNarrowThreads = 256;

/// Whether \p L takes narrowColumnsKernel: rows of fewer than 32 columns,
/// at most one slab a block, and more values a slab than its blocks hold
/// threads (Note [Column reductions on CUDA]).
inline bool readsNarrowColumns(const ColumnLayout &L) {
  return L.Columns < 32 && L.Outer <= kNarrowBlocks &&
         L.Rows > kNarrowBlocks / L.Outer * kNarrowThreads / L.Columns;
}

/// Partial[chunk, j] = Reduce over rows [chunk * RowsPerChunk, ...) of
/// column j = (o, c) of the row-major [Columns / Inner, Rows, Inner] \p In,
/// each element read as acc_t by \p Load; Columns counts them all.
template <typename acc_t, typename In_t, typename Op, typename LoadFn>
__global__ void columnReduceKernel(const In_t *In, int64_t Rows,
                                   int64_t Columns, int64_t Inner,
                                   int64_t RowsPerChunk, Op Reduce, acc_t Init,
                                   LoadFn Load, acc_t *Partial) {
  int64_t Column = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (Column >= Columns)
    return;
  // Column (o, c) = o * Inner + c starts at o * Rows * Inner + c.
  int64_t O = Inner == Columns ? 0 : Column / Inner;
  const In_t *Base = In + O * (Rows - 1) * Inner + Column;
  int64_t Begin = blockIdx.y * RowsPerChunk;
  int64_t End = Begin + RowsPerChunk < Rows ? Begin + RowsPerChunk : Rows;
  acc_t Acc = Init;
  for (int64_t R = Begin; R < End; ++R)
    Acc = Reduce(Acc, Load(Base[R * Inner]));
  Partial[blockIdx.y * Columns + Column] = Acc;
}

/// Partial[s, b, c] = Reduce over column c of the elements that block b
/// of slab s = blockIdx.y reads of the row-major [Outer, Rows, Columns]
/// \p In, each slab \p SlabSize = Rows * Columns elements, read as acc_t
/// by \p Load. A slab's blocks, of a multiple of Columns threads each,
/// take its elements congruent to their threads modulo all of theirs: each
/// thread's lie in one column, threadIdx.x % Columns (Note [Column
/// reductions on CUDA]). Four loads in flight; then the first Columns
/// threads fold the block's.
template <typename acc_t, typename In_t, typename Op, typename LoadFn>
__global__ void narrowColumnsKernel(const In_t *In, int64_t SlabSize,
                                    int Columns, Op Reduce, acc_t Init,
                                    LoadFn Load, acc_t *Partial) {
  __shared__ acc_t ThreadResults[kNarrowThreads];
  In += blockIdx.y * SlabSize;
  const int64_t Stride = int64_t(gridDim.x) * blockDim.x;
  int64_t I = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  acc_t Acc = Init;
  for (; I + 3 * Stride < SlabSize; I += 4 * Stride) {
    acc_t V0 = Load(In[I]), V1 = Load(In[I + Stride]);
    acc_t V2 = Load(In[I + 2 * Stride]), V3 = Load(In[I + 3 * Stride]);
    Acc = Reduce(Reduce(Reduce(Reduce(Acc, V0), V1), V2), V3);
  }
  for (; I < SlabSize; I += Stride)
    Acc = Reduce(Acc, Load(In[I]));
  ThreadResults[threadIdx.x] = Acc;
  __syncthreads();
  if (static_cast<int>(threadIdx.x) < Columns) {
    acc_t Column = Acc;
    for (unsigned J = threadIdx.x + Columns; J < blockDim.x; J += Columns)
      Column = Reduce(Column, ThreadResults[J]);
    int64_t Block = blockIdx.y * int64_t(gridDim.x) + blockIdx.x;
    Partial[Block * Columns + threadIdx.x] = Column;
  }
}

/// Reduces the row-major [Outer, Rows, Columns] \p In of layout \p L
/// over its rows into the Outer * Columns accumulators at \p Out, on the
/// current stream, each element read as acc_t by \p Load: a conversion (a
/// float16 or bfloat16 input accumulating in float32), or count_nonzero's
/// test.
template <typename acc_t, typename In_t, typename Op,
          typename LoadFn = ConvertTo<acc_t, In_t>>
void reduceColumns(const In_t *In, const ColumnLayout &L, acc_t *Out, Op Reduce,
                   acc_t Init, LoadFn Load = LoadFn()) {
  constexpr int kThreads = 256;
  cudaStream_t Stream = getCurrentCUDAStream();
  const auto [Outer, Rows, Columns] = L;
  if (readsNarrowColumns(L)) {
    const int64_t SlabBlocks = kNarrowBlocks / Outer;
    const int Threads = kNarrowThreads / Columns * static_cast<int>(Columns);
    DataPtr Partial = CUDACachingAllocator::allocateTempStorage(
        static_cast<size_t>(Outer * SlabBlocks * Columns) * sizeof(acc_t));
    acc_t *Partials = static_cast<acc_t *>(Partial.get());
    dim3 Grid(static_cast<unsigned>(SlabBlocks), static_cast<unsigned>(Outer));
    narrowColumnsKernel<<<Grid, Threads, 0, Stream>>>(
        In, Rows * Columns, static_cast<int>(Columns), Reduce, Init, Load,
        Partials);
    SK_CUDA_KERNEL_LAUNCH_CHECK();
    // The blocks' [Outer, SlabBlocks, Columns] partials: not narrow again.
    reduceColumns(Partials, ColumnLayout{Outer, SlabBlocks, Columns}, Out,
                  Reduce, Init, ConvertTo<acc_t, acc_t>{});
    return;
  }
  const int64_t AllColumns = Outer * Columns;
  int64_t ColumnBlocks = (AllColumns + kThreads - 1) / kThreads;
  // About a thousand blocks in all, each folding at least 16 rows.
  int64_t Chunks = std::max<int64_t>(
      1, std::min<int64_t>({1024 / ColumnBlocks, Rows / 16, 65535}));
  int64_t RowsPerChunk = (Rows + Chunks - 1) / Chunks;
  Chunks = (Rows + RowsPerChunk - 1) / RowsPerChunk;
  dim3 Grid(static_cast<unsigned>(ColumnBlocks), static_cast<unsigned>(Chunks));
  if (Chunks == 1) {
    columnReduceKernel<<<Grid, kThreads, 0, Stream>>>(
        In, Rows, AllColumns, Columns, Rows, Reduce, Init, Load, Out);
    SK_CUDA_KERNEL_LAUNCH_CHECK();
    return;
  }
  DataPtr Partial = CUDACachingAllocator::allocateTempStorage(
      static_cast<size_t>(Chunks * AllColumns) * sizeof(acc_t));
  acc_t *Partials = static_cast<acc_t *>(Partial.get());
  columnReduceKernel<<<Grid, kThreads, 0, Stream>>>(
      In, Rows, AllColumns, Columns, RowsPerChunk, Reduce, Init, Load,
      Partials);
  SK_CUDA_KERNEL_LAUNCH_CHECK();
  // The partials are a [Chunks, AllColumns] matrix.
  dim3 Fold(static_cast<unsigned>(ColumnBlocks), 1);
  columnReduceKernel<<<Fold, kThreads, 0, Stream>>>(
      Partials, Chunks, AllColumns, AllColumns, Chunks, Reduce, Init,
      ConvertTo<acc_t, acc_t>{}, Out);
  SK_CUDA_KERNEL_LAUNCH_CHECK();
}

/// The [Outer, Rows, Columns] view of \p Self for \p Mask, where it has
/// one and the column kernels read it well (Note [Column reductions on
/// CUDA]).
inline std::optional<ColumnLayout>
getColumnLayout(const Tensor &Self, const TensorIteratorBase::DimMask &Mask) {
  if (!Self.is_contiguous() || Self.numel() == 0)
    return std::nullopt;
  // Kept dims before the reduced run, the run, and kept dims after it. A
  // dim of size 1 is in none of them, except a reduced one where no
  // reduced dim is larger: it then starts the run, which reduces nothing
  // (a pass that converts).
  bool ReducesAny = false;
  for (int64_t D = 0; D < Self.dim(); ++D)
    ReducesAny |= Mask[D] && Self.size(D) != 1;
  enum { Before, Reduced, After } Part = Before;
  ColumnLayout L;
  for (int64_t D = 0; D < Self.dim(); ++D) {
    int64_t Size = Self.size(D);
    if (Size == 1 && !(Part == Before && Mask[D] && !ReducesAny))
      continue;
    if (Part == Before && Mask[D])
      Part = Reduced;
    else if (Part == Reduced && !Mask[D])
      Part = After;
    else if (Part == After && Mask[D])
      return std::nullopt; // A second run of reduced dims.
    (Part == Before ? L.Outer : Part == Reduced ? L.Rows : L.Columns) *= Size;
  }
  // Nothing reduced, or nothing kept after the run: contiguous segments.
  if (Part != After)
    return std::nullopt;
  // Several short runs a warp, too few values to spread over the grid.
  if (L.Outer > 1 && L.Columns < 32 && !readsNarrowColumns(L))
    return std::nullopt;
  return L;
}

} // namespace cuda
} // namespace sk

#endif // SKC_KERNELS_CUDA_REDUCE_CUH
