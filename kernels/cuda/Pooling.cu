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
/// (OffsetCalculator.h), and all its index arithmetic, the window's
/// included, is 32-bit where every index fits, as in PyTorch's kernel: a
/// GPU has no 64-bit integer multiplier, and 64-bit offsets doubled the
/// instructions per window element.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "DeviceUtils.cuh"
#include "OffsetCalculator.h"

#include "sk/cuda/CUDAStridedShape.h"

#include <cstdint>
#include <limits>

namespace sk {
namespace {

using namespace cuda_kernels;
using cuda::IntDivider;

/// Kernel size, stride, padding and dilation per spatial dimension (depth,
/// height, width), as PoolParams in the CPU file.
template <typename IndexT> struct PoolParams {
  IndexT K[3], S[3], P[3], D[3];

  template <typename To> PoolParams<To> as() const {
    PoolParams<To> R;
    for (int I = 0; I < 3; ++I) {
      R.K[I] = To(K[I]);
      R.S[I] = To(S[I]);
      R.P[I] = To(P[I]);
      R.D[I] = To(D[I]);
    }
    return R;
  }
};

/// The \p Dims values of a pooling argument given as one or \p Dims values.
void expandArg(IntArrayRef Arg, int Dims, int64_t *Out) {
  for (int I = 0; I < Dims; ++I)
    Out[I] = Arg.size() == 1 ? Arg[0] : Arg[I];
}

/// The arguments of max_pool<Dims>d, which the meta function has checked.
PoolParams<int64_t> poolParams(int Dims, IntArrayRef kernel_size,
                               IntArrayRef stride, IntArrayRef padding,
                               IntArrayRef dilation) {
  PoolParams<int64_t> P;
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
template <typename IndexT> struct Pool5d {
  IndexT Size[5];
  IndexT Stride[5];

  template <typename To> Pool5d<To> as() const {
    Pool5d<To> R;
    for (int I = 0; I < 5; ++I) {
      R.Size[I] = To(Size[I]);
      R.Stride[I] = To(Stride[I]);
    }
    return R;
  }
};

Pool5d<int64_t> pool5d(const Tensor &T, int Dims) {
  Pool5d<int64_t> G;
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

/// Whether the kernel can do all its index arithmetic in 32 bits: the
/// outputs' count (\p Total) and offsets, the input's offsets and plane
/// indices, every window coordinate, which reaches up to a dilation step past
/// the input's end and the padding before its start, and the pointer's step
/// along a window's row.
bool poolFitsInt32(int64_t Total, const Pool5d<int64_t> &In,
                   const Pool5d<int64_t> &Out, const Pool5d<int64_t> &Idx,
                   const PoolParams<int64_t> &P) {
  const int64_t *InStrides[] = {In.Stride};
  const int64_t *OutStrides[] = {Out.Stride, Idx.Stride};
  if (!fitsInt32GridIndex(Total) ||
      !cuda::offsetsFitInt32(5, In.Size, 1, InStrides) ||
      !cuda::offsetsFitInt32(5, Out.Size, 2, OutStrides) ||
      In.Size[2] * In.Size[3] * In.Size[4] > INT32_MAX ||
      P.D[2] * In.Stride[4] > INT32_MAX)
    return false;
  for (int I = 0; I < 3; ++I) {
    int64_t Reach = (Out.Size[2 + I] - 1) * P.S[I] + (P.K[I] - 1) * P.D[I] + 1 +
                    P.P[I] + P.D[I];
    if (Reach > INT32_MAX)
      return false;
  }
  return true;
}

/// The divisors that split an output's linear index into (batch, channel,
/// t, h, w).
template <typename IndexT> struct OutputDividers {
  IntDivider<IndexT> W, H, T, C;
};

template <typename T, typename IndexT>
__global__ void
maxPoolKernel(const T *__restrict__ X, T *Y, int64_t *Ind, Pool5d<IndexT> In,
              Pool5d<IndexT> Out, Pool5d<IndexT> Idx, PoolParams<IndexT> P,
              OutputDividers<IndexT> Div, IndexT Total, AccType<T> Lowest) {
  using A = AccType<T>;
  const IndexT IH = In.Size[3], IW = In.Size[4];
  const IndexT Step = IndexT(gridDim.x) * blockDim.x;
  const IndexT PtrStep = P.D[2] * In.Stride[4];
  for (IndexT L = IndexT(blockIdx.x) * blockDim.x + threadIdx.x; L < Total;
       L += Step) {
    IndexT Rest = Div.W.div(L);
    IndexT Ow = L - Rest * Div.W.divisor();
    IndexT Next = Div.H.div(Rest);
    IndexT Oh = Rest - Next * Div.H.divisor();
    Rest = Div.T.div(Next);
    IndexT Ot = Next - Rest * Div.T.divisor();
    Next = Div.C.div(Rest);
    IndexT C = Rest - Next * Div.C.divisor(), B = Next;
    IndexT Start[3], End[3];
    IndexT O[3] = {Ot, Oh, Ow};
    for (int I = 0; I < 3; ++I) {
      Start[I] = O[I] * P.S[I] - P.P[I];
      End[I] = Start[I] + (P.K[I] - 1) * P.D[I] + 1;
      End[I] = End[I] < In.Size[2 + I] ? End[I] : In.Size[2 + I];
      while (Start[I] < 0)
        Start[I] += P.D[I];
    }
    const T *Base = X + B * In.Stride[0] + C * In.Stride[1];
    A Max = Lowest;
    IndexT MaxIndex = (Start[0] * IH + Start[1]) * IW + Start[2];
    for (IndexT It = Start[0]; It < End[0]; It += P.D[0])
      for (IndexT Ih = Start[1]; Ih < End[1]; Ih += P.D[1]) {
        IndexT RowIndex = (It * IH + Ih) * IW;
        const T *Ptr = Base + It * In.Stride[2] + Ih * In.Stride[3] +
                       Start[2] * In.Stride[4];
        for (IndexT Iw = Start[2]; Iw < End[2]; Iw += P.D[2], Ptr += PtrStep) {
          A V = toAcc(*Ptr);
          if (V > Max || isNaN(V)) {
            Max = V;
            MaxIndex = RowIndex + Iw;
          }
        }
      }
    Y[B * Out.Stride[0] + C * Out.Stride[1] + Ot * Out.Stride[2] +
      Oh * Out.Stride[3] + Ow * Out.Stride[4]] = fromAcc<T>(Max);
    Ind[B * Idx.Stride[0] + C * Idx.Stride[1] + Ot * Idx.Stride[2] +
        Oh * Idx.Stride[3] + Ow * Idx.Stride[4]] = MaxIndex;
  }
}

void maxPoolImpl(int Dims, const Tensor &self, const PoolParams<int64_t> &P,
                 const Tensor &out, const Tensor &indices) {
  int64_t Total = out.numel();
  if (Total == 0)
    return;
  Pool5d<int64_t> In = pool5d(self, Dims), Out = pool5d(out, Dims),
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
                  indices.data_ptr<int64_t>(), In.as<IndexT>(),
                  Out.as<IndexT>(), Idx.as<IndexT>(), P.as<IndexT>(), Div,
                  IndexT(Total), Lowest);
        };
        if (poolFitsInt32(Total, In, Out, Idx, P))
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
