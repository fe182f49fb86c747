//===--- Indexing.cu - index_select, take, gather, masked_select, nonzero -===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impls of the indexing family. The three gathers share one
/// kernel over the output, as on the CPU: Out[i] = Src[i] + Index[i] *
/// DimStride, with Src self restrided to stride 0 along the indexed
/// dimension, any strides everywhere. Indices out of range raise a device
/// flag; the impl waits for the kernel and throws the CPU's error, naming
/// one of the offending indices (not necessarily the first).
///
/// masked_select and nonzero: the meta function has sized the output from
/// the data (Note [Data-dependent output shapes] in
/// sk/iter/DataDependentShape.h); here one kernel flags the selected
/// elements, CUB's exclusive scan turns the flags into output positions,
/// and a second kernel writes each selected element (or multi-index) at
/// its position.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "DeviceUtils.cuh"
#include "shared/Indexing.h"

#include <cub/device/device_scan.cuh>

#include <vector>

namespace sk {
namespace {

using namespace cuda_kernels;

/// One gather (GatherSpec of the CPU file), DimStride in elements.
struct GatherSpec {
  const char *Op;
  int64_t DimSize;
  int64_t DimStride;
  int64_t Dim;
  bool WrapNegative;
};

template <typename Word, typename IndexT>
__global__ void gatherKernel(Word *Out, const Word *Src, const IndexT *Index,
                             StridedGeometry<3> G, int64_t N, int64_t DimSize,
                             int64_t DimStride, bool WrapNegative,
                             unsigned long long *Flag) {
  for (int64_t L = globalIndex(); L < N; L += gridStride()) {
    int64_t Off[3];
    G.offsets(L, Off);
    int64_t Idx = static_cast<int64_t>(Index[Off[2]]);
    if (Idx < 0 || Idx >= DimSize) {
      if (!WrapNegative || Idx < -DimSize || Idx >= DimSize) {
        raiseError(Flag, 1, Idx);
        continue;
      }
      Idx += DimSize;
    }
    Out[Off[0]] = Src[Off[1] + Idx * DimStride];
  }
}

/// Runs the gather \p S into \p Out from \p Src (Out's sizes, stride 0
/// along the indexed dimension) at \p Index (Out's sizes).
void runGather(const Tensor &Out, const Tensor &Src, const Tensor &Index,
               const GatherSpec &S) {
  int64_t N = Out.numel();
  if (N == 0)
    return;
  const Tensor *Operands[3] = {&Out, &Src, &Index};
  StridedGeometry<3> G = stridedGeometry<3>(Out.sizes(), Operands);
  DeviceErrorFlag Flag;
  auto Run = [&](auto IndexTag) {
    using IndexT = decltype(IndexTag);
    dispatchElementSize(Out.scalar_type(), [&](auto Tag) {
      using Word = decltype(Tag);
      gatherKernel<Word, IndexT>
          <<<blocksFor(N), kThreads, 0, currentStream()>>>(
              static_cast<Word *>(Out.data_ptr()),
              static_cast<const Word *>(Src.data_ptr()),
              static_cast<const IndexT *>(Index.data_ptr()), G, N, S.DimSize,
              S.DimStride, S.WrapNegative, Flag.get());
      SK_CUDA_KERNEL_LAUNCH_CHECK();
    });
  };
  if (Index.scalar_type() == kInt)
    Run(int32_t{});
  else
    Run(int64_t{});
  if (std::optional<std::pair<int64_t, int64_t>> Error = Flag.read())
    kernels::reportIndexOutOfRange(S.Op, Error->second, S.Dim, S.DimSize,
                                   S.WrapNegative);
}

//===--- Selection by flags -----------------------------------------------===//

/// Whether the device value \p V is non-zero (NaN is).
template <typename D> __device__ __forceinline__ bool isNonzero(D V) {
  if constexpr (std::is_same_v<D, __half> || std::is_same_v<D, __nv_bfloat16>)
    return toAcc(V) != 0.0f;
  else
    return V != D(0);
}

/// Flags[i] = 1 where element i (row-major) of \p X is non-zero, else 0.
template <typename D>
__global__ void flagKernel(const D *X, StridedGeometry<1> G, int64_t N,
                           int64_t *Flags) {
  for (int64_t L = globalIndex(); L < N; L += gridStride()) {
    int64_t Off[1];
    G.offsets(L, Off);
    Flags[L] = isNonzero(X[Off[0]]) ? 1 : 0;
  }
}

/// The flags of the non-zero elements of \p X (any strides) and their
/// exclusive prefix sum, the output row of each: two device arrays of
/// X.numel() int64.
struct Selection {
  DataPtr Flags;
  DataPtr Positions;
  const int64_t *flags() const {
    return static_cast<const int64_t *>(Flags.get());
  }
  const int64_t *positions() const {
    return static_cast<const int64_t *>(Positions.get());
  }
};

Selection selectNonzero(const Tensor &X) {
  int64_t N = X.numel();
  size_t Bytes = static_cast<size_t>(N) * sizeof(int64_t);
  Selection S{cuda::CUDACachingAllocator::allocateTempStorage(Bytes),
              cuda::CUDACachingAllocator::allocateTempStorage(Bytes)};
  cudaStream_t Stream = currentStream();
  const Tensor *Operands[1] = {&X};
  StridedGeometry<1> G = stridedGeometry<1>(X.sizes(), Operands);
  int64_t *Flags = static_cast<int64_t *>(S.Flags.get());
  visitScalarType(X.scalar_type(), [&](auto Tag) {
    using E = decltype(Tag);
    flagKernel<DeviceElement<E>>
        <<<blocksFor(N), kThreads, 0, Stream>>>(devicePtr<E>(X), G, N, Flags);
    SK_CUDA_KERNEL_LAUNCH_CHECK();
  });
  int64_t *Positions = static_cast<int64_t *>(S.Positions.get());
  size_t TempBytes = 0;
  SK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, TempBytes, Flags,
                                              Positions, N, Stream));
  DataPtr Temp = cuda::CUDACachingAllocator::allocateTempStorage(
      std::max<size_t>(TempBytes, 1));
  SK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(Temp.get(), TempBytes, Flags,
                                              Positions, N, Stream));
  return S;
}

/// Out[Positions[i] * OutStride] = Src[i] for the flagged elements i of
/// Src (row-major, any strides); at most \p Limit are written.
template <typename Word>
__global__ void compactKernel(Word *Out, int64_t OutStride, const Word *Src,
                              StridedGeometry<1> G, int64_t N,
                              const int64_t *Flags, const int64_t *Positions,
                              int64_t Limit) {
  for (int64_t L = globalIndex(); L < N; L += gridStride()) {
    if (!Flags[L] || Positions[L] >= Limit)
      continue;
    int64_t Off[1];
    G.offsets(L, Off);
    Out[Positions[L] * OutStride] = Src[Off[0]];
  }
}

/// Row Positions[i] of \p Out = the multi-index of each flagged element
/// i, for an input of the sizes in \p G.
__global__ void nonzeroKernel(int64_t *Out, int64_t RowStride,
                              int64_t ColStride, StridedGeometry<1> G,
                              int64_t N, const int64_t *Flags,
                              const int64_t *Positions, int64_t Limit) {
  for (int64_t L = globalIndex(); L < N; L += gridStride()) {
    if (!Flags[L] || Positions[L] >= Limit)
      continue;
    int64_t *Row = Out + Positions[L] * RowStride;
    int64_t Rest = L;
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
  Tensor Src = self.expand(Shape), Mask = mask.expand(Shape);
  int64_t N = Src.numel();
  Selection Sel = selectNonzero(Mask);
  const Tensor *Operands[1] = {&Src};
  StridedGeometry<1> G = stridedGeometry<1>(Shape, Operands);
  dispatchElementSize(self.scalar_type(), [&](auto Tag) {
    using Word = decltype(Tag);
    compactKernel<Word><<<blocksFor(N), kThreads, 0, currentStream()>>>(
        static_cast<Word *>(out.data_ptr()), out.stride(0),
        static_cast<const Word *>(Src.data_ptr()), G, N, Sel.flags(),
        Sel.positions(), out.numel());
    SK_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

SK_IMPL_FUNC(nonzero_out_cuda)(const Tensor &self, const Tensor &out) {
  if (out.numel() == 0)
    return;
  int64_t N = self.numel();
  Selection Sel = selectNonzero(self);
  const Tensor *Operands[1] = {&self};
  StridedGeometry<1> G = stridedGeometry<1>(self.sizes(), Operands);
  nonzeroKernel<<<blocksFor(N), kThreads, 0, currentStream()>>>(
      out.data_ptr<int64_t>(), out.stride(0), out.stride(1), G, N, Sel.flags(),
      Sel.positions(), out.size(0));
  SK_CUDA_KERNEL_LAUNCH_CHECK();
}

} // namespace sk
