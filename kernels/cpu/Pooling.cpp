//===--- Pooling.cpp - max_pool2d and max_pool3d with indices -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `max_pool2d_with_indices` and `max_pool3d_with_indices` (structured, two
/// outputs) and their composites `max_pool2d` and `max_pool3d`. The meta
/// functions are PyTorch's (DilatedMaxPool2d.cpp, DilatedMaxPool3d.cpp,
/// Pool.h): output sizes from pooling_output_shape, the input's memory
/// format kept (channels-last in, channels-last out, in batch mode).
///
/// One kernel serves both: a 2-d pool is a 3-d pool of depth 1, and its
/// flat index ih * W + iw is the 3-d index (it * H + ih) * W + iw at it = 0.
/// Channels-first inputs are walked one output row at a time; channels-last
/// ones one output position at a time, comparing all channels at once
/// (contiguous, so the compiler vectorises the channel loop). As in
/// PyTorch, NaN beats any number and the last NaN of a window wins.
///
//===----------------------------------------------------------------------===//

#include "Functions.h"
#include "NativeFunctions.h"

#include "sk/iter/Loops.h"
#include "sk/ops/Convert.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace sk {
namespace {

/// Kernel size, stride, padding and dilation per spatial dimension
/// (depth, height, width); a 2-d pool has depth 1 and no depth padding.
struct PoolParams {
  int64_t K[3], S[3], P[3], D[3];
};

/// PyTorch's div_rtn: division rounding towards negative infinity.
int64_t divRtn(int64_t X, int64_t Y) {
  int64_t Q = X / Y;
  int64_t R = X % Y;
  if (R != 0 && ((R < 0) != (Y < 0)))
    --Q;
  return Q;
}

/// PyTorch's pooling_output_shape.
int64_t poolingOutputShape(int64_t In, int64_t K, int64_t Pad, int64_t Stride,
                           int64_t Dilation, bool CeilMode) {
  SK_CHECK(Stride != 0, "stride should not be zero");
  SK_CHECK(Pad >= 0, "pad must be non-negative, but got pad: ", Pad);
  SK_CHECK(Pad <= K / 2,
           "pad should be at most half of kernel size, but got pad=", Pad,
           " and kernel_size=", K);
  int64_t Out = divRtn(In + 2 * Pad - Dilation * (K - 1) - 1 +
                           (CeilMode ? Stride - 1 : 0),
                       Stride) +
                1;
  // The last window must start inside the input (or its left padding).
  if (CeilMode && (Out - 1) * Stride >= In + Pad)
    --Out;
  return Out;
}

/// The \p Dims (2 or 3) values of a pooling argument given as one value
/// or as \p Dims values.
void expandArg(IntArrayRef Arg, int Dims, int64_t *Out) {
  for (int I = 0; I < Dims; ++I)
    Out[I] = Arg.size() == 1 ? Arg[0] : Arg[I];
}

/// Parses and checks the arguments of max_pool<Dims>d (PyTorch's wording).
PoolParams parsePoolArgs(int Dims, IntArrayRef kernel_size, IntArrayRef stride,
                         IntArrayRef padding, IntArrayRef dilation) {
  const char *Name = Dims == 2 ? "max_pool2d" : "max_pool3d";
  const char *Count = Dims == 2 ? "two" : "three";
  size_t N = static_cast<size_t>(Dims);
  SK_CHECK(kernel_size.size() == 1 || kernel_size.size() == N, Name,
           ": kernel_size must either be a single int, or a tuple of ", Count,
           " ints");
  SK_CHECK(stride.empty() || stride.size() == 1 || stride.size() == N, Name,
           ": stride must either be omitted, a single int, or a tuple of ",
           Count, " ints");
  SK_CHECK(padding.size() == 1 || padding.size() == N, Name,
           ": padding must either be a single int, or a tuple of ", Count,
           " ints");
  SK_CHECK(dilation.size() == 1 || dilation.size() == N, Name,
           ": dilation must be either a single int, or a tuple of ", Count,
           " ints");
  PoolParams P;
  int Off = 3 - Dims; // a 2-d pool fills height and width
  P.K[0] = P.S[0] = P.D[0] = 1;
  P.P[0] = 0;
  expandArg(kernel_size, Dims, P.K + Off);
  // The default stride is the kernel size (an empty list in the schema).
  expandArg(stride.empty() ? IntArrayRef(P.K + Off, N) : stride, Dims,
            P.S + Off);
  expandArg(padding, Dims, P.P + Off);
  expandArg(dilation, Dims, P.D + Off);
  return P;
}

/// Whether \p V is NaN; integers never are.
template <typename T> inline bool isNan(T V) {
  if constexpr (std::is_floating_point_v<T>)
    return std::isnan(V);
  else
    return false;
}

/// The window of output position \p O along one dimension: its first
/// input index inside the input (skipping padding by whole dilations)
/// and its end.
inline void windowBounds(int64_t O, int64_t In, int64_t K, int64_t S, int64_t P,
                         int64_t D, int64_t &Start, int64_t &End) {
  Start = O * S - P;
  End = std::min(Start + (K - 1) * D + 1, In);
  while (Start < 0)
    Start += D;
}

/// The geometry of one pooling call, batch and channels included.
struct PoolShape {
  int64_t NB, C;
  int64_t In[3], Out[3];
};

template <typename T>
void maxPoolKernel(const T *X, T *Y, int64_t *Ind, const PoolShape &Sh,
                   const PoolParams &P, bool ChannelsLast) {
  using Acc = opmath_type<T>;
  const Acc Lowest = std::numeric_limits<Acc>::has_infinity
                         ? -std::numeric_limits<Acc>::infinity()
                         : std::numeric_limits<Acc>::lowest();
  const int64_t IT = Sh.In[0], IH = Sh.In[1], IW = Sh.In[2];
  const int64_t OT = Sh.Out[0], OH = Sh.Out[1], OW = Sh.Out[2];
  const int64_t InPlane = IT * IH * IW, OutPlane = OT * OH * OW;
  if (!ChannelsLast) {
    // One task per output row (plane, ot, oh).
    int64_t Tasks = Sh.NB * Sh.C * OT * OH;
    int64_t Grain = std::max<int64_t>(
        1, kGrainSize / std::max<int64_t>(OW * P.K[0] * P.K[1] * P.K[2], 1));
    parallel_for(0, Tasks, Grain, [&](int64_t Begin, int64_t End) {
      for (int64_t Task = Begin; Task < End; ++Task) {
        int64_t Oh = Task % OH;
        int64_t Ot = (Task / OH) % OT;
        int64_t Plane = Task / (OH * OT);
        const T *In = X + Plane * InPlane;
        int64_t OutBase = Plane * OutPlane + (Ot * OH + Oh) * OW;
        int64_t T0, T1, H0, H1;
        windowBounds(Ot, IT, P.K[0], P.S[0], P.P[0], P.D[0], T0, T1);
        windowBounds(Oh, IH, P.K[1], P.S[1], P.P[1], P.D[1], H0, H1);
        for (int64_t Ow = 0; Ow < OW; ++Ow) {
          int64_t W0, W1;
          windowBounds(Ow, IW, P.K[2], P.S[2], P.P[2], P.D[2], W0, W1);
          Acc Max = Lowest;
          int64_t MaxIndex = (T0 * IH + H0) * IW + W0;
          for (int64_t It = T0; It < T1; It += P.D[0])
            for (int64_t Ih = H0; Ih < H1; Ih += P.D[1])
              for (int64_t Iw = W0; Iw < W1; Iw += P.D[2]) {
                int64_t Index = (It * IH + Ih) * IW + Iw;
                Acc V = static_cast<Acc>(In[Index]);
                if (V > Max || isNan(V)) {
                  Max = V;
                  MaxIndex = Index;
                }
              }
          Y[OutBase + Ow] = detail::convertElement<T>(Max);
          Ind[OutBase + Ow] = MaxIndex;
        }
      }
    });
    return;
  }
  // Channels last: [NB, T, H, W, C] in, [NB, OT, OH, OW, C] out.
  const int64_t C = Sh.C;
  int64_t Tasks = Sh.NB * OutPlane;
  int64_t Grain = std::max<int64_t>(
      1, kGrainSize / std::max<int64_t>(C * P.K[0] * P.K[1] * P.K[2], 1));
  parallel_for(0, Tasks, Grain, [&](int64_t Begin, int64_t End) {
    std::vector<Acc> Max(C);
    std::vector<int64_t> MaxIndex(C);
    for (int64_t Task = Begin; Task < End; ++Task) {
      int64_t Ow = Task % OW;
      int64_t Oh = (Task / OW) % OH;
      int64_t Ot = (Task / (OW * OH)) % OT;
      int64_t B = Task / OutPlane;
      int64_t T0, T1, H0, H1, W0, W1;
      windowBounds(Ot, IT, P.K[0], P.S[0], P.P[0], P.D[0], T0, T1);
      windowBounds(Oh, IH, P.K[1], P.S[1], P.P[1], P.D[1], H0, H1);
      windowBounds(Ow, IW, P.K[2], P.S[2], P.P[2], P.D[2], W0, W1);
      std::fill(Max.begin(), Max.end(), Lowest);
      std::fill(MaxIndex.begin(), MaxIndex.end(), (T0 * IH + H0) * IW + W0);
      const T *In = X + B * InPlane * C;
      for (int64_t It = T0; It < T1; It += P.D[0])
        for (int64_t Ih = H0; Ih < H1; Ih += P.D[1])
          for (int64_t Iw = W0; Iw < W1; Iw += P.D[2]) {
            int64_t Index = (It * IH + Ih) * IW + Iw;
            const T *Px = In + Index * C;
            for (int64_t Ch = 0; Ch < C; ++Ch) {
              Acc V = static_cast<Acc>(Px[Ch]);
              bool Take = V > Max[Ch] || isNan(V);
              Max[Ch] = Take ? V : Max[Ch];
              MaxIndex[Ch] = Take ? Index : MaxIndex[Ch];
            }
          }
      T *Out = Y + Task * C;
      int64_t *OutInd = Ind + Task * C;
      for (int64_t Ch = 0; Ch < C; ++Ch) {
        Out[Ch] = detail::convertElement<T>(Max[Ch]);
        OutInd[Ch] = MaxIndex[Ch];
      }
    }
  });
}

/// The shared meta function: checks (PyTorch's pool2d_shape_check and
/// pool3d_shape_check) and the output sizes and memory format.
struct PoolMeta {
  PoolShape Shape;
  std::vector<int64_t> Sizes;
  MemoryFormat Format;
};

PoolMeta poolMeta(int Dims, const Tensor &self, const PoolParams &P,
                  bool ceil_mode) {
  PoolMeta M;
  int64_t Rank = self.dim();
  M.Format = self.suggest_memory_format();
  // The loops know one channels-last layout: their own rank's. Any other
  // (a 4-D channels-last input to 3-d pooling is an unbatched [C, T, H, W]
  // whose channels are not innermost) is pooled as contiguous.
  MemoryFormat OwnChannelsLast =
      Dims == 2 ? MemoryFormat::ChannelsLast : MemoryFormat::ChannelsLast3d;
  if (M.Format != OwnChannelsLast)
    M.Format = MemoryFormat::Contiguous;
  SK_CHECK(self.scalar_type() != kBool, "max_pool", Dims,
           "d_with_indices(): expected a numeric input, but got bool");
  if (Dims == 2) {
    if (M.Format == MemoryFormat::ChannelsLast)
      SK_CHECK(Rank == 4, "non-empty 4D (batch mode) tensor expected for "
                          "input with channels_last layout");
    else
      SK_CHECK(Rank == 3 || Rank == 4,
               "non-empty 3D or 4D (batch mode) tensor expected for input");
  } else {
    if (M.Format == MemoryFormat::ChannelsLast3d)
      SK_CHECK(Rank == 5, "non-empty 5D (batch mode) tensor expected for "
                          "input with channels_last_3d layout");
    else
      SK_CHECK(Rank == 4 || Rank == 5,
               "non-empty 4D or 5D (batch mode) tensor expected for input");
  }
  bool Batch = Rank == Dims + 2;
  M.Shape.NB = Batch ? self.size(0) : 1;
  M.Shape.C = self.size(-Dims - 1);
  M.Shape.In[0] = Dims == 3 ? self.size(-3) : 1;
  M.Shape.In[1] = self.size(-2);
  M.Shape.In[2] = self.size(-1);
  for (int I = 3 - Dims; I < 3; ++I)
    M.Shape.Out[I] = poolingOutputShape(M.Shape.In[I], P.K[I], P.P[I], P.S[I],
                                        P.D[I], ceil_mode);
  M.Shape.Out[0] = Dims == 3 ? M.Shape.Out[0] : 1;

  if (Dims == 2) {
    SK_CHECK(P.K[1] > 0 && P.K[2] > 0,
             "kernel size should be greater than zero, but got kH: ", P.K[1],
             " kW: ", P.K[2]);
    SK_CHECK(P.S[1] > 0 && P.S[2] > 0,
             "stride should be greater than zero, but got dH: ", P.S[1],
             " dW: ", P.S[2]);
    SK_CHECK(P.D[1] > 0 && P.D[2] > 0,
             "dilation should be greater than zero, but got dilationH: ",
             P.D[1], " dilationW: ", P.D[2]);
    bool ValidDims = self.size(1) != 0 && self.size(2) != 0;
    if (M.Format == MemoryFormat::ChannelsLast)
      SK_CHECK(Rank == 4 && ValidDims && self.size(3) != 0,
               "Expected 4D (batch mode) tensor expected for input with "
               "channels_last layout with optional 0 dim batch size for "
               "input, but got: ",
               self.sizes());
    else
      SK_CHECK((Rank == 3 && self.size(0) != 0 && ValidDims) ||
                   (Rank == 4 && ValidDims && self.size(3) != 0),
               "Expected 3D or 4D (batch mode) tensor with optional 0 dim "
               "batch size for input, but got:",
               self.sizes());
    SK_CHECK(P.K[2] / 2 >= P.P[2] && P.K[1] / 2 >= P.P[1],
             "pad should be smaller than or equal to half of kernel size, "
             "but got padW = ",
             P.P[2], ", padH = ", P.P[1], ", kW = ", P.K[2], ", kH = ", P.K[1]);
    SK_CHECK(M.Shape.Out[2] >= 1 && M.Shape.Out[1] >= 1, "Given input size: (",
             M.Shape.C, "x", M.Shape.In[1], "x", M.Shape.In[2], "). ",
             "Calculated output size: (", M.Shape.C, "x", M.Shape.Out[1], "x",
             M.Shape.Out[2], "). Output size is too small");
  } else {
    SK_CHECK(P.K[0] > 0 && P.K[2] > 0 && P.K[1] > 0,
             "kernel size should be greater than zero, but got kT: ", P.K[0],
             " kH: ", P.K[1], " kW: ", P.K[2]);
    SK_CHECK(P.S[0] > 0 && P.S[2] > 0 && P.S[1] > 0,
             "stride should be greater than zero, but got dT: ", P.S[0],
             " dH: ", P.S[1], " dW: ", P.S[2]);
    SK_CHECK(P.D[0] > 0 && P.D[2] > 0 && P.D[1] > 0,
             "dilation should be greater than zero, but got dilationT: ",
             P.D[0], " dilationH: ", P.D[1], " dilationW: ", P.D[2]);
    for (int64_t I = 0; I < Rank; ++I) {
      if (Rank == 5 && I == 0)
        continue; // the batch may be empty
      SK_CHECK(self.size(I) > 0,
               "max_pool3d_with_indices_out_cpu_template(): Expected input's "
               "non-batch dimensions to have positive length, but input has "
               "a shape of ",
               self.sizes(), " and non-batch dimension ", self.size(I),
               " has length zero!");
    }
    SK_CHECK(P.K[0] / 2 >= P.P[0] && P.K[2] / 2 >= P.P[2] &&
                 P.K[1] / 2 >= P.P[1],
             "pad should be smaller than or equal to half of kernel size, but "
             "got kT: ",
             P.K[0], " kW: ", P.K[2], " kH: ", P.K[1], " padT: ", P.P[0],
             " padW: ", P.P[2], " padH: ", P.P[1]);
    SK_CHECK(M.Shape.Out[0] >= 1 && M.Shape.Out[2] >= 1 && M.Shape.Out[1] >= 1,
             "Given input size: (", M.Shape.C, "x", M.Shape.In[0], "x",
             M.Shape.In[1], "x", M.Shape.In[2], "). Calculated output size: (",
             M.Shape.C, "x", M.Shape.Out[0], "x", M.Shape.Out[1], "x",
             M.Shape.Out[2], "). Output size is too small");
  }
  if (Batch)
    M.Sizes.push_back(M.Shape.NB);
  M.Sizes.push_back(M.Shape.C);
  for (int I = 3 - Dims; I < 3; ++I)
    M.Sizes.push_back(M.Shape.Out[I]);
  return M;
}

void maxPoolImpl(int Dims, const Tensor &self, const PoolParams &P,
                 bool ceil_mode, const Tensor &out, const Tensor &indices) {
  PoolMeta M = poolMeta(Dims, self, P, ceil_mode);
  if (out.numel() == 0)
    return;
  bool ChannelsLast = M.Format != MemoryFormat::Contiguous;
  Tensor X = self.contiguous(M.Format);
  int64_t *Ind = indices.data_ptr<int64_t>();
  dispatchDtypes<dtypes::All>(
      self.scalar_type(), "max_pool_cpu", [&](auto Tag) {
        using T = decltype(Tag);
        maxPoolKernel<T>(X.data_ptr<T>(), out.data_ptr<T>(), Ind, M.Shape, P,
                         ChannelsLast);
      });
}

} // namespace

SK_META_FUNC(max_pool2d_with_indices)
(const Tensor &self, IntArrayRef kernel_size, IntArrayRef stride,
 IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  PoolMeta M = poolMeta(
      2, self, parsePoolArgs(2, kernel_size, stride, padding, dilation),
      ceil_mode);
  std::vector<int64_t> Strides = stridesForMemoryFormat(M.Sizes, M.Format);
  set_output_strided(0, M.Sizes, Strides, self.options());
  set_output_strided(1, M.Sizes, Strides, self.options().dtype(kLong));
}

SK_IMPL_FUNC(max_pool2d_with_indices_out)
(const Tensor &self, IntArrayRef kernel_size, IntArrayRef stride,
 IntArrayRef padding, IntArrayRef dilation, bool ceil_mode, const Tensor &out,
 const Tensor &indices) {
  maxPoolImpl(2, self, parsePoolArgs(2, kernel_size, stride, padding, dilation),
              ceil_mode, out, indices);
}

SK_META_FUNC(max_pool3d_with_indices)
(const Tensor &self, IntArrayRef kernel_size, IntArrayRef stride,
 IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  PoolMeta M = poolMeta(
      3, self, parsePoolArgs(3, kernel_size, stride, padding, dilation),
      ceil_mode);
  std::vector<int64_t> Strides = stridesForMemoryFormat(M.Sizes, M.Format);
  set_output_strided(0, M.Sizes, Strides, self.options());
  set_output_strided(1, M.Sizes, Strides, self.options().dtype(kLong));
}

SK_IMPL_FUNC(max_pool3d_with_indices_out)
(const Tensor &self, IntArrayRef kernel_size, IntArrayRef stride,
 IntArrayRef padding, IntArrayRef dilation, bool ceil_mode, const Tensor &out,
 const Tensor &indices) {
  maxPoolImpl(3, self, parsePoolArgs(3, kernel_size, stride, padding, dilation),
              ceil_mode, out, indices);
}

Tensor SK_NATIVE_FUNC(max_pool2d)(const Tensor &self, IntArrayRef kernel_size,
                                  IntArrayRef stride, IntArrayRef padding,
                                  IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(sk::max_pool2d_with_indices(self, kernel_size, stride,
                                                 padding, dilation, ceil_mode));
}

Tensor SK_NATIVE_FUNC(max_pool3d)(const Tensor &self, IntArrayRef kernel_size,
                                  IntArrayRef stride, IntArrayRef padding,
                                  IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(sk::max_pool3d_with_indices(self, kernel_size, stride,
                                                 padding, dilation, ceil_mode));
}

} // namespace sk
