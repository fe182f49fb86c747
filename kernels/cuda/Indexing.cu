//===--- Indexing.cu - index_select, take, gather, masked_select, nonzero -===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impls of the indexing family. index_select of whole rows of a
/// contiguous tensor copies rows (gatherRows in DeviceUtils.cuh, as
/// embedding does). Otherwise the three gathers share one kernel over the
/// output, as on the CPU: Out[i] = Src[i] + Index[i] * DimStride, with Src
/// self restrided to stride 0 along the indexed dimension, any strides
/// everywhere. An index out of range is a device check (Note [Device
/// checks] in sk/cuda/DeviceChecks.h): the CPU's error, naming one of the
/// offending indices (not necessarily the first), is thrown at the host's
/// next wait for the stream, not by the impl, which does not wait.
///
/// masked_select and nonzero select with CUB: Note [Selection on CUDA].
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "DeviceUtils.cuh"
#include "shared/Indexing.h"

#include "sk/cuda/CUDAStridedShape.h"

#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <vector>

namespace sk {
namespace {

using namespace cuda_kernels;

// Note [Selection on CUDA]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// The output of masked_select and nonzero is sized by the data (Note
// [Data-dependent output shapes] in sk/iter/DataDependentShape.h). Their
// meta function counts with count_nonzero on the device and reads back the
// count, 8 bytes: the only transfer and the only wait, as in PyTorch.
// impl() then makes one cub::DeviceSelect::Flagged pass:
//
//  - masked_select selects self's elements (as words of their size) under
//    the mask straight into the output;
//  - nonzero selects row-major indices (a counting iterator) into a
//    temporary of one int64 per output row, which a second kernel unravels
//    into multi-indices in the output's layout.
//
// The operands go to CUB as pointers, nonzero's through an "is non-zero"
// transform iterator. Operands of other strides, and broadcast ones, are
// made contiguous first: one more pass over them, and half the CUB
// instantiations that iterators through strides would take.
// Selection runs on the stream the count ran on, so it selects exactly as
// many elements as the output holds.

/// One gather (GatherSpec of the CPU file), DimStride in elements.
struct GatherSpec {
  const char *Op;
  int64_t DimSize;
  int64_t DimStride;
  int64_t Dim;
  bool WrapNegative;
};

/// Out[l] = Src at the index that Index holds for element l, for the
/// elements l of Out in row-major order. \p Calc gives the element offsets
/// of Out, Src and Index, in 32 bits where they fit (IntDivider: a 64-bit
/// division per dimension and element is a long instruction sequence on a
/// GPU).
template <typename Word, typename IndexT, typename OffT>
__global__ void gatherKernel(Word *Out, const Word *Src, const IndexT *Index,
                             cuda::OffsetCalculator<3, OffT> Calc, OffT N,
                             int64_t DimSize, int64_t DimStride,
                             bool WrapNegative, unsigned long long *Flag) {
  for (OffT L = OffT(globalIndex()); L < N; L += OffT(gridStride())) {
    cuda::OperandOffsets<3, OffT> Off = Calc.get(L);
    int64_t Idx = static_cast<int64_t>(Index[Off.V[2]]);
    if (Idx < 0 || Idx >= DimSize) {
      if (!WrapNegative || Idx < -DimSize || Idx >= DimSize) {
        raiseError(Flag, 1, Idx);
        Out[Off.V[0]] = Word{}; // defined, where the index is bad
        continue;
      }
      Idx += DimSize;
    }
    Out[Off.V[0]] = Src[int64_t(Off.V[1]) + Idx * DimStride];
  }
}

/// Runs the gather \p S into \p Out from \p Src at \p Index. Either Src
/// and Index have Out's sizes (Src with stride 0 along the indexed
/// dimension), or \p RowsOnly says that Out is contiguous, Src is a
/// contiguous [rows, row length] and Index a contiguous list of rows:
/// whole rows are copied (gatherRows).
void runGather(const Tensor &Out, const Tensor &Src, const Tensor &Index,
               const GatherSpec &S, bool RowsOnly = false) {
  int64_t N = Out.numel();
  if (N == 0)
    return;
  cuda::DeviceCheck Check;
  auto Run = [&](auto IndexTag) {
    using IndexT = decltype(IndexTag);
    const IndexT *Indices = static_cast<const IndexT *>(Index.data_ptr());
    if (RowsOnly) {
      int64_t Count = Index.numel();
      gatherRows(Out.view({Count, Src.size(1)}), Src, Indices, Count,
                 Check.get());
      return;
    }
    checkKernelDims(Out.sizes());
    int Rank = static_cast<int>(Out.dim());
    const int64_t *Strides[3] = {Out.strides().data(), Src.strides().data(),
                                 Index.strides().data()};
    bool Fits32 = fitsInt32GridIndex(N) &&
                  cuda::offsetsFitInt32(Rank, Out.sizes().data(), 3, Strides);
    dispatchElementSize(Out.scalar_type(), [&](auto Tag) {
      using Word = decltype(Tag);
      auto Launch = [&](auto OffTag) {
        using OffT = decltype(OffTag);
        gatherKernel<Word, IndexT, OffT>
            <<<blocksFor(N), kThreads, 0, currentStream()>>>(
                static_cast<Word *>(Out.data_ptr()),
                static_cast<const Word *>(Src.data_ptr()), Indices,
                cuda::makeRowMajorOffsetCalculator<3, OffT>(
                    Rank, Out.sizes().data(), Strides),
                OffT(N), S.DimSize, S.DimStride, S.WrapNegative, Check.get());
      };
      if (Fits32)
        Launch(int32_t());
      else
        Launch(int64_t());
      SK_CUDA_KERNEL_LAUNCH_CHECK();
    });
  };
  if (Index.scalar_type() == kInt)
    Run(int32_t{});
  else
    Run(int64_t{});
  Check.reportLater([S](int64_t, int64_t Index) {
    kernels::reportIndexOutOfRange(S.Op, Index, S.Dim, S.DimSize,
                                   S.WrapNegative);
  });
}

//===--- Selection by flags -----------------------------------------------===//

template <typename D> struct IsNonzeroFn {
  __device__ bool operator()(D V) const { return isNonzero(V); }
};

/// Calls \p F with an iterator over whether each element of the
/// contiguous \p X, of host type E, is non-zero.
template <typename E, typename Fn>
void withNonzeroFlags(const Tensor &X, Fn &&F) {
  using D = DeviceElement<E>;
  const D *P = devicePtr<E>(X);
  if constexpr (std::is_same_v<E, bool>)
    F(P);
  else
    F(thrust::make_transform_iterator(P, IsNonzeroFn<D>{}));
}

/// cub::DeviceSelect::Flagged over \p N items on the current stream: the
/// items of \p In whose flag is set, in order, to \p Out. The count CUB
/// returns stays on the device: the meta function has counted already
/// (Note [Selection on CUDA]).
template <typename InputIt, typename FlagIt, typename OutputIt>
void selectFlagged(InputIt In, FlagIt Flags, OutputIt Out, int64_t N) {
  cudaStream_t Stream = currentStream();
  DataPtr Selected =
      cuda::CUDACachingAllocator::allocateTempStorage(sizeof(int64_t));
  int64_t *NumSelected = static_cast<int64_t *>(Selected.get());
  size_t Bytes = 0;
  SK_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, Bytes, In, Flags, Out,
                                           NumSelected, N, Stream));
  DataPtr Temp = cuda::CUDACachingAllocator::allocateTempStorage(
      std::max<size_t>(Bytes, 1));
  SK_CUDA_CHECK(cub::DeviceSelect::Flagged(Temp.get(), Bytes, In, Flags, Out,
                                           NumSelected, N, Stream));
}

/// Row i of \p Out = the multi-index, for an input of shape \p G, of the
/// row-major index Linear[i].
__global__ void unravelKernel(int64_t *Out, int64_t RowStride,
                              int64_t ColStride, KernelShape G,
                              const int64_t *Linear, int64_t Rows) {
  for (int64_t R = globalIndex(); R < Rows; R += gridStride()) {
    int64_t *Row = Out + R * RowStride;
    int64_t Rest = Linear[R];
    for (int D = G.Rank - 1; D >= 0; --D) {
      Row[D * ColStride] = Rest % G.Sizes[D];
      Rest /= G.Sizes[D];
    }
  }
}

} // namespace

SK_IMPL_FUNC(index_select_out_cuda)
(const Tensor &self, int64_t dim, const Tensor &index, const Tensor &out) {
  if (out.numel() == 0)
    return;
  GatherSpec S{"index_select", self.dim() == 0 ? 1 : self.size(dim),
               self.dim() == 0 ? 0 : self.stride(dim), dim,
               /*WrapNegative=*/false};
  // Whole rows of a contiguous self into a contiguous out.
  if (self.dim() >= 1 && maybeWrapDim(dim, self.dim()) == 0 &&
      self.numel() > 0 && self.is_contiguous() && out.is_contiguous()) {
    runGather(out, self.view({self.size(0), self.numel() / self.size(0)}),
              index.contiguous(), S, /*RowsOnly=*/true);
    return;
  }
  // The index runs along dim, broadcast over the rest.
  runGather(out, kernels::restrideAlong(self, out.sizes(), dim),
            kernels::indexAlong(index, self, out, dim), S);
}

SK_IMPL_FUNC(take_out_cuda)
(const Tensor &self, const Tensor &index, const Tensor &out) {
  if (out.numel() == 0)
    return;
  // take indexes self as if flattened in row-major order.
  Tensor Flat = self.reshape({self.numel()});
  GatherSpec S{"take", Flat.numel(), Flat.stride(0), 0,
               /*WrapNegative=*/true};
  std::vector<int64_t> Zeros(out.sizes().size(), 0);
  runGather(out, Flat.as_strided(out.sizes(), Zeros, Flat.storage_offset()),
            index, S);
}

SK_IMPL_FUNC(gather_out_cuda)
(const Tensor &self, int64_t dim, const Tensor &index, bool sparse_grad,
 const Tensor &out) {
  if (out.numel() == 0)
    return;
  bool IsScalar = self.dim() == 0;
  GatherSpec S{"gather", IsScalar ? 1 : self.size(dim),
               IsScalar ? 0 : self.stride(dim), dim, /*WrapNegative=*/false};
  runGather(out, kernels::restrideAlong(self, index.sizes(), dim), index, S);
}

SK_IMPL_FUNC(masked_select_out_cuda)
(const Tensor &self, const Tensor &mask, const Tensor &out) {
  if (out.numel() == 0)
    return;
  DimVector Shape = infer_size_dimvector(self.sizes(), mask.sizes());
  Tensor Src = self.expand(Shape).contiguous();
  Tensor Mask = mask.expand(Shape).contiguous();
  OutputBuffer Buffer(out);
  dispatchElementSize(self.scalar_type(), [&](auto Tag) {
    using Word = decltype(Tag);
    selectFlagged(static_cast<const Word *>(Src.data_ptr()),
                  static_cast<const bool *>(Mask.data_ptr()),
                  static_cast<Word *>(Buffer.get().data_ptr()), Src.numel());
  });
  Buffer.finish();
}

SK_IMPL_FUNC(nonzero_out_cuda)(const Tensor &self, const Tensor &out) {
  int64_t Rows = out.size(0);
  if (out.numel() == 0)
    return;
  // The row-major indices of the selected elements, then their
  // multi-indices: 8 bytes of temporary memory per output row.
  DataPtr Linear = cuda::CUDACachingAllocator::allocateTempStorage(
      static_cast<size_t>(Rows) * sizeof(int64_t));
  int64_t *Indices = static_cast<int64_t *>(Linear.get());
  Tensor Self = self.contiguous();
  visitScalarType(self.scalar_type(), [&](auto Tag) {
    withNonzeroFlags<decltype(Tag)>(Self, [&](auto Flags) {
      selectFlagged(thrust::make_counting_iterator<int64_t>(0), Flags, Indices,
                    self.numel());
    });
  });
  unravelKernel<<<blocksFor(Rows), kThreads, 0, currentStream()>>>(
      out.data_ptr<int64_t>(), out.stride(0), out.stride(1),
      kernelShape(self.sizes()), Indices, Rows);
  SK_CUDA_KERNEL_LAUNCH_CHECK();
}

} // namespace sk
