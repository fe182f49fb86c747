//===--- Pooling.cu - max_pool2d/3d_with_indices on CUDA ------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impls of max_pool2d_with_indices and max_pool3d_with_indices
/// (meta functions, with every check, in the CPU file). As on the CPU, a
/// 2-d pool is a 3-d pool of depth 1. One thread per output element walks
/// its window through the input's own strides, so every layout
/// (row-major, channels last, unbatched) is read in place and the outputs
/// are written through theirs. NaN beats any number and the last NaN of a
/// window wins; the index is the flat position in the input plane. The
/// thread's output coordinates come from its linear index by IntDivider
/// (OffsetCalculator.h), in 32 bits where they fit: a GPU divides 64-bit
/// integers in software, and six such divisions cost more than the window.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "DeviceUtils.cuh"

#include <limits>

namespace sk {
namespace {

using namespace cuda_kernels;
using cuda::IntDivider;

/// Kernel size, stride, padding and dilation per spatial dimension (depth,
/// height, width), as PoolParams in the CPU file.
struct PoolParams {
  int64_t K[3], S[3], P[3], D[3];
};

/// The \p Dims values of a pooling argument given as one or \p Dims values.
void expandArg(IntArrayRef Arg, int Dims, int64_t *Out) {
  for (int I = 0; I < Dims; ++I)
    Out[I] = Arg.size() == 1 ? Arg[0] : Arg[I];
}

/// The arguments of max_pool<Dims>d, which the meta function has checked.
PoolParams poolParams(int Dims, IntArrayRef kernel_size, IntArrayRef stride,
                      IntArrayRef padding, IntArrayRef dilation) {
  PoolParams P;
  int Off = 3 - Dims;
  P.K[0] = P.S[0] = P.D[0] = 1;
  P.P[0] = 0;
  expandArg(kernel_size, Dims, P.K + Off);
  size_t N = static_cast<size_t>(Dims);
  expandArg(stride.empty() ? IntArrayRef(P.K + Off, N) : stride, Dims,
            P.S + Off);
  expandArg(padding, Dims, P.P + Off);
  expandArg(dilation, Dims, P.D + Off);
  return P;
}

/// Sizes and element strides of a pooling operand as [batch, channel,
/// depth, height, width] (size 1 and stride 0 where it lacks one).
struct Pool5d {
  int64_t Size[5];
  int64_t Stride[5];
};

Pool5d pool5d(const Tensor &T, int Dims) {
  Pool5d G;
  int64_t Rank = T.dim();
  // Dimension I of [B, C, T, H, W] is the tensor's dimension D below,
  // missing for a batch an unbatched input lacks and for the depth of a
  // 2-d pool.
  for (int I = 0; I < 5; ++I) {
    int64_t D = I < 2 ? Rank - Dims - 2 + I : Rank - 5 + I;
    bool Missing = D < 0 || (Dims == 2 && I == 2);
    G.Size[I] = Missing ? 1 : T.size(D);
    G.Stride[I] = Missing ? 0 : T.stride(D);
  }
  return G;
}

/// The divisors that split an output's linear index into (batch, channel,
/// t, h, w).
template <typename IndexT> struct OutputDividers {
  IntDivider<IndexT> W, H, T, C;
};

template <typename T, typename IndexT>
__global__ void maxPoolKernel(const T *X, T *Y, int64_t *Ind, Pool5d In,
                              Pool5d Out, Pool5d Idx, PoolParams P,
                              OutputDividers<IndexT> Div, IndexT Total,
                              AccType<T> Lowest) {
  using A = AccType<T>;
  int64_t IT = In.Size[2], IH = In.Size[3], IW = In.Size[4];
  const IndexT Stride = IndexT(gridDim.x) * blockDim.x;
  for (IndexT L = IndexT(blockIdx.x) * blockDim.x + threadIdx.x; L < Total;
       L += Stride) {
    IndexT Rest = Div.W.div(L);
    int64_t Ow = L - Rest * Div.W.divisor();
    IndexT Next = Div.H.div(Rest);
    int64_t Oh = Rest - Next * Div.H.divisor();
    Rest = Div.T.div(Next);
    int64_t Ot = Next - Rest * Div.T.divisor();
    Next = Div.C.div(Rest);
    int64_t C = Rest - Next * Div.C.divisor(), B = Next;
    int64_t Start[3], End[3];
    int64_t O[3] = {Ot, Oh, Ow}, InSize[3] = {IT, IH, IW};
    for (int I = 0; I < 3; ++I) {
      Start[I] = O[I] * P.S[I] - P.P[I];
      End[I] = Start[I] + (P.K[I] - 1) * P.D[I] + 1;
      End[I] = End[I] < InSize[I] ? End[I] : InSize[I];
      while (Start[I] < 0)
        Start[I] += P.D[I];
    }
    const T *Base = X + B * In.Stride[0] + C * In.Stride[1];
    A Max = Lowest;
    int64_t MaxIndex = (Start[0] * IH + Start[1]) * IW + Start[2];
    for (int64_t It = Start[0]; It < End[0]; It += P.D[0])
      for (int64_t Ih = Start[1]; Ih < End[1]; Ih += P.D[1])
        for (int64_t Iw = Start[2]; Iw < End[2]; Iw += P.D[2]) {
          A V = toAcc(
              Base[It * In.Stride[2] + Ih * In.Stride[3] + Iw * In.Stride[4]]);
          if (V > Max || isNaN(V)) {
            Max = V;
            MaxIndex = (It * IH + Ih) * IW + Iw;
          }
        }
    Y[B * Out.Stride[0] + C * Out.Stride[1] + Ot * Out.Stride[2] +
      Oh * Out.Stride[3] + Ow * Out.Stride[4]] = fromAcc<T>(Max);
    Ind[B * Idx.Stride[0] + C * Idx.Stride[1] + Ot * Idx.Stride[2] +
        Oh * Idx.Stride[3] + Ow * Idx.Stride[4]] = MaxIndex;
  }
}

void maxPoolImpl(int Dims, const Tensor &self, const PoolParams &P,
                 const Tensor &out, const Tensor &indices) {
  int64_t Total = out.numel();
  if (Total == 0)
    return;
  Pool5d In = pool5d(self, Dims), Out = pool5d(out, Dims),
         Idx = pool5d(indices, Dims);
  dispatchDtypes<dtypes::All>(
      self.scalar_type(), "max_pool_cuda", [&](auto Tag) {
        using T = decltype(Tag);
        using D = DeviceElement<T>;
        using A = AccType<D>;
        A Lowest = std::numeric_limits<A>::has_infinity
                       ? -std::numeric_limits<A>::infinity()
                       : std::numeric_limits<A>::lowest();
        auto Launch = [&](auto Index) {
          using IndexT = decltype(Index);
          OutputDividers<IndexT> Div{IntDivider<IndexT>(IndexT(Out.Size[4])),
                                     IntDivider<IndexT>(IndexT(Out.Size[3])),
                                     IntDivider<IndexT>(IndexT(Out.Size[2])),
                                     IntDivider<IndexT>(IndexT(Out.Size[1]))};
          maxPoolKernel<D, IndexT>
              <<<blocksFor(Total), kThreads, 0, currentStream()>>>(
                  devicePtr<T>(self), devicePtr<T>(out),
                  indices.data_ptr<int64_t>(), In, Out, Idx, P, Div,
                  IndexT(Total), Lowest);
        };
        if (fitsInt32GridIndex(Total))
          Launch(int32_t());
        else
          Launch(int64_t());
        SK_CUDA_KERNEL_LAUNCH_CHECK();
      });
}

} // namespace

SK_IMPL_FUNC(max_pool2d_with_indices_out_cuda)
(const Tensor &self, IntArrayRef kernel_size, IntArrayRef stride,
 IntArrayRef padding, IntArrayRef dilation, bool ceil_mode, const Tensor &out,
 const Tensor &indices) {
  maxPoolImpl(2, self, poolParams(2, kernel_size, stride, padding, dilation),
              out, indices);
}

SK_IMPL_FUNC(max_pool3d_with_indices_out_cuda)
(const Tensor &self, IntArrayRef kernel_size, IntArrayRef stride,
 IntArrayRef padding, IntArrayRef dilation, bool ceil_mode, const Tensor &out,
 const Tensor &indices) {
  maxPoolImpl(3, self, poolParams(3, kernel_size, stride, padding, dilation),
              out, indices);
}

} // namespace sk
