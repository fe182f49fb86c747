//===--- Normalization.cpp - layer_norm and batch_norm --------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `native_layer_norm` and `native_batch_norm` (structured, three outputs
/// each) and their composites `layer_norm` and `batch_norm`.
///
/// layer_norm normalises rows of N = prod(normalized_shape) contiguous
/// values: two Highway passes per row (mean, then the centred sum of
/// squares, which is exact where E[x^2] - E[x]^2 cancels) and one that
/// writes (x - mean) * rstd * weight + bias. Rows run in parallel.
///
/// batch_norm keeps the input's memory format (PyTorch's
/// suggest_memory_format): a row-major input is walked as planes
/// [N, C, S] (statistics per plane, parallel over channels); a
/// channels-last one, and any [N, C] input, as rows [N * S, C] whose
/// columns are the channels (statistics accumulated over fixed blocks of
/// rows, so the result does not depend on the thread count). In training
/// the running statistics are updated in place with PyTorch's momentum
/// rule (the running variance takes the unbiased variance).
///
/// float16 and bfloat16 compute in float32; their parameters may be
/// float32 (mixed precision), and then the saved statistics are float32.
///
//===----------------------------------------------------------------------===//

#include "shared/Normalization.h"
#include "Functions.h"
#include "NativeFunctions.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

// The kernels are compiled for every Highway target and called for the
// best one the CPU has (Note [Highway dynamic dispatch] in sk/iter/Loops.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/Normalization.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include "sk/iter/Loops.h"
#include "sk/ops/Convert.h"

// What every target shares, defined once.
#ifndef SKC_KERNELS_CPU_NORMALIZATION_SHARED
#define SKC_KERNELS_CPU_NORMALIZATION_SHARED
namespace sk {
namespace {

/// \p T as a contiguous array of Acc values: \p T's own data when it
/// already has that dtype, else a converted copy kept in \p Keep.
template <typename Acc> const Acc *accData(const Tensor &T, Tensor &Keep) {
  Keep = T.to(scalarTypeOf<Acc>()).contiguous();
  return Keep.data_ptr<Acc>();
}

std::string shapeString(IntArrayRef Shape) {
  std::ostringstream OS;
  OS << '[';
  for (size_t I = 0; I < Shape.size(); ++I)
    OS << (I ? ", " : "") << Shape[I];
  OS << ']';
  return OS.str();
}

/// Whether a parameter of dtype \p Param may go with an input of dtype
/// \p Input: the same dtype, or float32 for a 16-bit input.
bool isParamDtypeOk(ScalarType Input, ScalarType Param) {
  return Param == Input ||
         (Param == kFloat && (Input == kHalf || Input == kBFloat16));
}

//===--- batch_norm -------------------------------------------------------===//

/// The geometry of a batch_norm input in the layout it is walked in.
struct BatchNormShape {
  int64_t N, C, S;
  /// Rows [N * S, C] (channels last, or S == 1) instead of planes
  /// [N, C, S].
  bool ChannelsInRows;
};

/// Per-channel sums of \p X (and, with \p Mean, of squared deviations
/// from it) into \p Out, as Acc.
template <typename T, typename Acc>
void channelSums(const T *X, const BatchNormShape &Sh, const Acc *Mean,
                 Acc *Out) {
  int64_t C = Sh.C;
  if (!Sh.ChannelsInRows) {
    parallel_for(0, C, 1, [&](int64_t Begin, int64_t End) {
      for (int64_t Ch = Begin; Ch < End; ++Ch) {
        Acc Sum = 0;
        for (int64_t B = 0; B < Sh.N; ++B) {
          const T *Plane = X + (B * C + Ch) * Sh.S;
          for (int64_t I = 0; I < Sh.S; ++I) {
            Acc V = static_cast<Acc>(Plane[I]);
            Sum += Mean ? (V - Mean[Ch]) * (V - Mean[Ch]) : V;
          }
        }
        Out[Ch] = Sum;
      }
    });
    return;
  }
  // Rows [R, C]: fixed blocks of rows, each summed into its own partial
  // vector (vectorisable along C), then the partials in block order.
  int64_t Rows = Sh.N * Sh.S;
  constexpr int64_t BlockRows = 256;
  int64_t Blocks = (Rows + BlockRows - 1) / BlockRows;
  std::vector<Acc> Partial(static_cast<size_t>(Blocks * C), Acc(0));
  parallel_for(0, Blocks, 1, [&](int64_t Begin, int64_t End) {
    for (int64_t Blk = Begin; Blk < End; ++Blk) {
      Acc *P = Partial.data() + Blk * C;
      int64_t R1 = std::min(Rows, (Blk + 1) * BlockRows);
      for (int64_t R = Blk * BlockRows; R < R1; ++R) {
        const T *Row = X + R * C;
        for (int64_t Ch = 0; Ch < C; ++Ch) {
          Acc V = static_cast<Acc>(Row[Ch]);
          P[Ch] += Mean ? (V - Mean[Ch]) * (V - Mean[Ch]) : V;
        }
      }
    }
  });
  std::fill(Out, Out + C, Acc(0));
  for (int64_t Blk = 0; Blk < Blocks; ++Blk)
    for (int64_t Ch = 0; Ch < C; ++Ch)
      Out[Ch] += Partial[Blk * C + Ch];
}

/// Y = X * Alpha[c] + Beta[c] in the layout of \p Sh.
template <typename T, typename Acc>
void channelAffine(const T *X, T *Y, const BatchNormShape &Sh, const Acc *Alpha,
                   const Acc *Beta) {
  int64_t C = Sh.C;
  if (!Sh.ChannelsInRows) {
    int64_t Grain =
        std::max<int64_t>(1, kGrainSize / std::max<int64_t>(Sh.S, 1));
    parallel_for(0, Sh.N * C, Grain, [&](int64_t Begin, int64_t End) {
      for (int64_t P = Begin; P < End; ++P) {
        int64_t Ch = P % C;
        Acc A = Alpha[Ch], B = Beta[Ch];
        const T *In = X + P * Sh.S;
        T *Out = Y + P * Sh.S;
        for (int64_t I = 0; I < Sh.S; ++I)
          Out[I] = detail::convertElement<T>(static_cast<Acc>(In[I]) * A + B);
      }
    });
    return;
  }
  int64_t Grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(C, 1));
  parallel_for(0, Sh.N * Sh.S, Grain, [&](int64_t Begin, int64_t End) {
    for (int64_t R = Begin; R < End; ++R) {
      const T *In = X + R * C;
      T *Out = Y + R * C;
      for (int64_t Ch = 0; Ch < C; ++Ch)
        Out[Ch] = detail::convertElement<T>(
            static_cast<Acc>(In[Ch]) * Alpha[Ch] + Beta[Ch]);
    }
  });
}

/// Calls \p Fn with every value of channel \p Ch, as Acc.
template <typename T, typename Acc, typename F>
void forEachInChannel(const T *X, const BatchNormShape &Sh, int64_t Ch, F Fn) {
  if (!Sh.ChannelsInRows) {
    for (int64_t B = 0; B < Sh.N; ++B) {
      const T *Plane = X + (B * Sh.C + Ch) * Sh.S;
      for (int64_t I = 0; I < Sh.S; ++I)
        Fn(static_cast<Acc>(Plane[I]));
    }
    return;
  }
  for (int64_t R = 0; R < Sh.N * Sh.S; ++R)
    Fn(static_cast<Acc>(X[R * Sh.C + Ch]));
}

/// The largest deviation from \p Mean of the values \p Visit passes to
/// its argument, and the sum of the squares of the deviations divided by
/// it: the statistics of values whose sum of squared deviations overflowed
/// (Note [Variance that overflows] in shared/Normalization.h).
template <typename Acc, typename F>
std::pair<Acc, Acc> rescaledSquares(Acc Mean, F Visit) {
  Acc Scale = Acc(0);
  Visit([&](Acc V) { Scale = std::max(Scale, std::abs(V - Mean)); });
  Acc Squares = Acc(0);
  Visit([&](Acc V) {
    Acc D = (V - Mean) / Scale;
    Squares += D * D;
  });
  return {Scale, Squares};
}

/// A 1-d tensor of \p Values of dtype \p Acc, for copy_ into a parameter
/// or a saved statistic of any dtype and strides.
template <typename Acc> Tensor accTensor(const std::vector<Acc> &Values) {
  Tensor T = empty({static_cast<int64_t>(Values.size())},
                   TensorOptions(scalarTypeOf<Acc>()));
  std::copy(Values.begin(), Values.end(), T.data_ptr<Acc>());
  return T;
}

template <typename T>
void batchNormKernel(const Tensor &Input, OptionalTensorRef Weight,
                     OptionalTensorRef Bias, OptionalTensorRef RunningMean,
                     OptionalTensorRef RunningVar, bool Training,
                     double Momentum, double Eps, const Tensor &Out,
                     const Tensor &SaveMean, const Tensor &SaveInvstd) {
  using Acc = opmath_type<T>;
  MemoryFormat Format = Input.suggest_memory_format();
  Tensor X = Input.contiguous(Format);
  BatchNormShape Sh;
  Sh.N = Input.size(0);
  Sh.C = Input.size(1);
  Sh.S = Sh.N * Sh.C == 0 ? 0 : Input.numel() / (Sh.N * Sh.C);
  Sh.ChannelsInRows = Format != MemoryFormat::Contiguous || Input.dim() == 2;
  int64_t C = Sh.C;
  int64_t Count = Sh.N * Sh.S;

  std::vector<Acc> Mean(C), Invstd(C);
  Tensor Keep;
  if (Training) {
    // Scale is 0 but for channels rescaled by rescaledSquares.
    std::vector<Acc> Sum(C), Squares(C), Scale(C, Acc(0));
    const T *XData = X.data_ptr<T>();
    if (Count > 0) {
      channelSums<T, Acc>(XData, Sh, nullptr, Sum.data());
      for (int64_t Ch = 0; Ch < C; ++Ch)
        Mean[Ch] = Sum[Ch] / Acc(Count);
      channelSums<T, Acc>(XData, Sh, Mean.data(), Squares.data());
      for (int64_t Ch = 0; Ch < C; ++Ch)
        if (kernels::squaresOverflowed(Squares[Ch], Mean[Ch]))
          std::tie(Scale[Ch], Squares[Ch]) =
              rescaledSquares(Mean[Ch], [&](auto Fn) {
                forEachInChannel<T, Acc>(XData, Sh, Ch, Fn);
              });
    }
    for (int64_t Ch = 0; Ch < C; ++Ch)
      Invstd[Ch] = kernels::channelInvstd(Squares[Ch], Scale[Ch], Count, Eps);
    SaveMean.copy_(accTensor(Mean));
    SaveInvstd.copy_(accTensor(Invstd));
    if (Count > 0 && RunningMean) {
      const Acc *Old = accData<Acc>(*RunningMean, Keep);
      std::vector<Acc> New(C);
      for (int64_t Ch = 0; Ch < C; ++Ch)
        New[Ch] = Acc(Momentum) * Mean[Ch] + Acc(1 - Momentum) * Old[Ch];
      RunningMean->copy_(accTensor(New));
    }
    if (Count > 0 && RunningVar) {
      const Acc *Old = accData<Acc>(*RunningVar, Keep);
      std::vector<Acc> New(C);
      for (int64_t Ch = 0; Ch < C; ++Ch)
        New[Ch] = Acc(Momentum) * kernels::channelVariance(
                                      Squares[Ch], Scale[Ch], Count - 1) +
                  Acc(1 - Momentum) * Old[Ch];
      RunningVar->copy_(accTensor(New));
    }
  } else {
    const Acc *RM = accData<Acc>(*RunningMean, Keep);
    std::copy(RM, RM + C, Mean.begin());
    const Acc *RV = accData<Acc>(*RunningVar, Keep);
    for (int64_t Ch = 0; Ch < C; ++Ch)
      Invstd[Ch] = Acc(1) / std::sqrt(RV[Ch] + Acc(Eps));
  }

  // out = (x - mean) * invstd * w + b = x * alpha + beta.
  std::vector<Acc> Alpha(C), Beta(C);
  Tensor WKeep, BKeep;
  const Acc *W = Weight ? accData<Acc>(*Weight, WKeep) : nullptr;
  const Acc *B = Bias ? accData<Acc>(*Bias, BKeep) : nullptr;
  for (int64_t Ch = 0; Ch < C; ++Ch) {
    Alpha[Ch] = Invstd[Ch] * (W ? W[Ch] : Acc(1));
    Beta[Ch] = (B ? B[Ch] : Acc(0)) - Mean[Ch] * Alpha[Ch];
  }
  if (Input.numel() == 0)
    return;
  channelAffine<T, Acc>(X.data_ptr<T>(), Out.data_ptr<T>(), Sh, Alpha.data(),
                        Beta.data());
}

/// Checks a batch_norm parameter: \p C elements and a dtype that goes
/// with the input's.
void checkBatchNormParam(const char *Name, OptionalTensorRef P, int64_t C,
                         ScalarType InputType) {
  if (!P)
    return;
  SK_CHECK(P->numel() == C, Name, " should contain ", C, " elements not ",
           P->numel());
  SK_CHECK(isParamDtypeOk(InputType, P->scalar_type()),
           "native_batch_norm(): expected ", Name, " to have dtype ", InputType,
           ", but got ", P->scalar_type());
}
} // namespace
} // namespace sk
#endif // SKC_KERNELS_CPU_NORMALIZATION_SHARED

HWY_BEFORE_NAMESPACE();
namespace sk {
namespace HWY_NAMESPACE {
namespace {

/// The sum of \p N contiguous values.
template <typename T> T sumRow(const T *X, int64_t N) {
  const hn::ScalableTag<T> Tag;
  const int64_t L = static_cast<int64_t>(hn::Lanes(Tag));
  auto V = hn::Zero(Tag);
  int64_t I = 0;
  for (; I + L <= N; I += L)
    V = hn::Add(V, hn::LoadU(Tag, X + I));
  T Sum = hn::GetLane(hn::SumOfLanes(Tag, V));
  for (; I < N; ++I)
    Sum += X[I];
  return Sum;
}

/// The sums of d = x - Mean and of d^2 over \p N contiguous values.
template <typename T>
std::pair<T, T> centredSums(const T *X, int64_t N, T Mean) {
  const hn::ScalableTag<T> Tag;
  const int64_t L = static_cast<int64_t>(hn::Lanes(Tag));
  const auto VM = hn::Set(Tag, Mean);
  auto V1 = hn::Zero(Tag), V2 = hn::Zero(Tag);
  int64_t I = 0;
  for (; I + L <= N; I += L) {
    auto D = hn::Sub(hn::LoadU(Tag, X + I), VM);
    V1 = hn::Add(V1, D);
    V2 = hn::MulAdd(D, D, V2);
  }
  T Sum1 = hn::GetLane(hn::SumOfLanes(Tag, V1));
  T Sum2 = hn::GetLane(hn::SumOfLanes(Tag, V2));
  for (; I < N; ++I) {
    T D = X[I] - Mean;
    Sum1 += D;
    Sum2 += D * D;
  }
  return {Sum1, Sum2};
}

/// Y = (X - Mean) * Rstd, then times \p G and plus \p B where given
/// (per-element vectors of \p N values). \p X and \p Y may alias. The
/// difference comes first, so that an element equal to the mean gives
/// exactly 0 (a fused x * Rstd - Mean * Rstd leaves a rounding error).
template <typename T>
void normalizeRow(const T *X, T *Y, int64_t N, T Mean, T Rstd, const T *G,
                  const T *B) {
  const hn::ScalableTag<T> Tag;
  const int64_t L = static_cast<int64_t>(hn::Lanes(Tag));
  const auto VM = hn::Set(Tag, Mean);
  const auto VR = hn::Set(Tag, Rstd);
  int64_t I = 0;
  for (; I + L <= N; I += L) {
    auto V = hn::Mul(hn::Sub(hn::LoadU(Tag, X + I), VM), VR);
    if (G)
      V = hn::Mul(V, hn::LoadU(Tag, G + I));
    if (B)
      V = hn::Add(V, hn::LoadU(Tag, B + I));
    hn::StoreU(V, Tag, Y + I);
  }
  for (; I < N; ++I) {
    T V = (X[I] - Mean) * Rstd;
    if (G)
      V *= G[I];
    if (B)
      V += B[I];
    Y[I] = V;
  }
}

//===--- layer_norm -------------------------------------------------------===//

template <typename T>
void layerNormKernel(const Tensor &X, const Tensor *Weight, const Tensor *Bias,
                     int64_t M, int64_t N, double Eps, const Tensor &Y,
                     const Tensor &Mean, const Tensor &Rstd) {
  using Acc = opmath_type<T>;
  constexpr bool Direct = std::is_same_v<T, Acc>;
  Tensor GKeep, BKeep;
  const Acc *G = Weight ? accData<Acc>(*Weight, GKeep) : nullptr;
  const Acc *B = Bias ? accData<Acc>(*Bias, BKeep) : nullptr;
  const T *Src = X.data_ptr<T>();
  T *Dst = Y.data_ptr<T>();
  char *MeanData = static_cast<char *>(Mean.data_ptr());
  char *RstdData = static_cast<char *>(Rstd.data_ptr());
  ScalarType StatType = Mean.scalar_type();
  int64_t Grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(N, 1));
  parallel_for(0, M, Grain, [&](int64_t Begin, int64_t End) {
    std::vector<Acc> Buf(Direct ? 0 : N);
    for (int64_t R = Begin; R < End; ++R) {
      const Acc *XRow;
      Acc *YRow;
      if constexpr (Direct) {
        XRow = Src + R * N;
        YRow = Dst + R * N;
      } else {
        for (int64_t I = 0; I < N; ++I)
          Buf[I] = static_cast<Acc>(Src[R * N + I]);
        XRow = YRow = Buf.data();
      }
      // The corrected two-pass algorithm (Chan, Golub and LeVeque): the
      // mean, then the sums of deviations from it, which correct both the
      // mean's rounding and the variance's; a constant row has variance 0
      // exactly. An empty row has no mean; 0 keeps rstd finite.
      Acc RowMean = Acc(0), Squares = Acc(0), Var = Acc(0);
      Acc RowRstd;
      if (N != 0) {
        RowMean = sumRow(XRow, N) / Acc(N);
        auto [D1, D2] = centredSums(XRow, N, RowMean);
        RowMean += D1 / Acc(N);
        Squares = D2;
        Var = (D2 - D1 * D1 / Acc(N)) / Acc(N);
      }
      if (kernels::squaresOverflowed(Squares, RowMean)) {
        // Note [Variance that overflows] (shared/Normalization.h).
        auto [Scale, Scaled] = rescaledSquares(RowMean, [&](auto Fn) {
          for (int64_t I = 0; I < N; ++I)
            Fn(XRow[I]);
        });
        RowRstd = kernels::rescaledInvstd(Scale, Scaled, N, Eps);
      } else {
        RowRstd = Acc(1) / std::sqrt(std::max(Var, Acc(0)) + Acc(Eps));
      }
      normalizeRow(XRow, YRow, N, RowMean, RowRstd, G, B);
      if constexpr (!Direct)
        for (int64_t I = 0; I < N; ++I)
          Dst[R * N + I] = detail::convertElement<T>(Buf[I]);
      detail::storeAs(MeanData + R * elementSize(StatType), StatType, RowMean);
      detail::storeAs(RstdData + R * elementSize(StatType), StatType, RowRstd);
    }
  });
}
} // namespace

static void layer_norm_outImpl(const Tensor &input,
                               IntArrayRef normalized_shape,
                               OptionalTensorRef weight, OptionalTensorRef bias,
                               double eps, const Tensor &out0,
                               const Tensor &out1, const Tensor &out2) {
  int64_t Axis = input.dim() - static_cast<int64_t>(normalized_shape.size());
  int64_t M = 1, N = 1;
  for (int64_t D = 0; D < input.dim(); ++D)
    (D < Axis ? M : N) *= input.size(D);
  if (M == 0)
    return;
  Tensor X = input.contiguous();
  dispatchDtypes<dtypes::Floating>(
      input.scalar_type(), "layer_norm_cpu", [&](auto Tag) {
        layerNormKernel<decltype(Tag)>(X, weight ? &*weight : nullptr,
                                       bias ? &*bias : nullptr, M, N, eps, out0,
                                       out1, out2);
      });
}
} // namespace HWY_NAMESPACE
} // namespace sk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sk {

HWY_EXPORT(layer_norm_outImpl);

SK_META_FUNC(native_layer_norm)
(const Tensor &input, IntArrayRef normalized_shape, OptionalTensorRef weight,
 OptionalTensorRef bias, double eps) {
  int64_t NormDim = static_cast<int64_t>(normalized_shape.size());
  SK_CHECK(NormDim >= 1,
           "Expected normalized_shape to be at least 1-dimensional, i.e., "
           "containing at least one element, but got normalized_shape = ",
           shapeString(normalized_shape));
  SK_CHECK(!weight || weight->sizes() == normalized_shape,
           "Expected weight to be of same shape as normalized_shape, but got "
           "weight of shape ",
           shapeString(weight ? weight->sizes() : IntArrayRef()),
           " and normalized_shape = ", shapeString(normalized_shape));
  SK_CHECK(!bias || bias->sizes() == normalized_shape,
           "Expected bias to be of same shape as normalized_shape, but got "
           "bias of shape ",
           shapeString(bias ? bias->sizes() : IntArrayRef()),
           " and normalized_shape = ", shapeString(normalized_shape));
  IntArrayRef Shape = input.sizes();
  int64_t Rank = input.dim();
  if (Rank < NormDim || Shape.slice(Rank - NormDim) != normalized_shape) {
    std::ostringstream OS;
    OS << "Given normalized_shape=" << shapeString(normalized_shape)
       << ", expected input with shape [*";
    for (int64_t S : normalized_shape)
      OS << ", " << S;
    OS << "], but got input of size" << shapeString(Shape);
    SK_CHECK(false, OS.str());
  }
  ScalarType Type = input.scalar_type();
  SK_CHECK(isFloatingType(Type),
           "native_layer_norm(): expected a floating-point input, but got ",
           Type);
  SK_CHECK(!weight || weight->scalar_type() == Type,
           "native_layer_norm(): expected weight to have dtype ", Type,
           " (the input's), but got ", weight->scalar_type());
  SK_CHECK(!bias || bias->scalar_type() == Type,
           "native_layer_norm(): expected bias to have dtype ", Type,
           " (the input's), but got ", bias->scalar_type());
  // mean and rstd keep the batch dimensions and have size 1 in the
  // normalised ones.
  std::vector<int64_t> StatShape(Shape.begin(), Shape.end());
  std::fill(StatShape.end() - NormDim, StatShape.end(), 1);
  set_output_contiguous(0, Shape, input.options());
  set_output_contiguous(1, StatShape, input.options());
  set_output_contiguous(2, StatShape, input.options());
}

SK_IMPL_FUNC(layer_norm_out)
(const Tensor &input, IntArrayRef normalized_shape, OptionalTensorRef weight,
 OptionalTensorRef bias, double eps, const Tensor &out0, const Tensor &out1,
 const Tensor &out2) {
  HWY_DYNAMIC_DISPATCH(layer_norm_outImpl)
  (input, normalized_shape, weight, bias, eps, out0, out1, out2);
}

SK_META_FUNC(native_batch_norm)
(const Tensor &input, OptionalTensorRef weight, OptionalTensorRef bias,
 OptionalTensorRef running_mean, OptionalTensorRef running_var, bool training,
 double momentum, double eps) {
  SK_CHECK(input.dim() >= 2,
           "native_batch_norm(): expected an input with at least 2 "
           "dimensions (N, C, ...), but got sizes ",
           shapeString(input.sizes()));
  ScalarType Type = input.scalar_type();
  SK_CHECK(isFloatingType(Type),
           "native_batch_norm(): expected a floating-point input, but got ",
           Type);
  int64_t C = input.size(1);
  checkBatchNormParam("weight", weight, C, Type);
  checkBatchNormParam("bias", bias, C, Type);
  checkBatchNormParam("running_mean", running_mean, C, Type);
  checkBatchNormParam("running_var", running_var, C, Type);
  SK_CHECK(training || running_mean,
           "running_mean must be defined in evaluation mode");
  SK_CHECK(training || running_var,
           "running_var must be defined in evaluation mode");
  // Mixed precision (16-bit input, float32 parameters) saves float32
  // statistics, as PyTorch does.
  bool Mixed = false;
  for (OptionalTensorRef P : {weight, bias, running_mean, running_var})
    Mixed |= P && P->scalar_type() != Type;
  TensorOptions StatOptions = input.options().dtype(Mixed ? kFloat : Type);
  MemoryFormat Format = input.suggest_memory_format();
  set_output_strided(0, input.sizes(),
                     stridesForMemoryFormat(input.sizes(), Format),
                     input.options());
  // Inference saves nothing: PyTorch returns empty statistics.
  int64_t StatSize = training ? C : 0;
  set_output_raw_strided(1, {StatSize}, {}, StatOptions);
  set_output_raw_strided(2, {StatSize}, {}, StatOptions);
}

SK_IMPL_FUNC(batch_norm_out)
(const Tensor &input, OptionalTensorRef weight, OptionalTensorRef bias,
 OptionalTensorRef running_mean, OptionalTensorRef running_var, bool training,
 double momentum, double eps, const Tensor &out, const Tensor &save_mean,
 const Tensor &save_invstd) {
  dispatchDtypes<dtypes::Floating>(
      input.scalar_type(), "batch_norm_cpu", [&](auto Tag) {
        batchNormKernel<decltype(Tag)>(input, weight, bias, running_mean,
                                       running_var, training, momentum, eps,
                                       out, save_mean, save_invstd);
      });
}

Tensor SK_NATIVE_FUNC(layer_norm)(const Tensor &input,
                                  IntArrayRef normalized_shape,
                                  const std::optional<Tensor> &weight,
                                  const std::optional<Tensor> &bias, double eps,
                                  bool cudnn_enable) {
  return std::get<0>(
      sk::native_layer_norm(input, normalized_shape, weight, bias, eps));
}

Tensor SK_NATIVE_FUNC(batch_norm)(const Tensor &input,
                                  const std::optional<Tensor> &weight,
                                  const std::optional<Tensor> &bias,
                                  const std::optional<Tensor> &running_mean,
                                  const std::optional<Tensor> &running_var,
                                  bool training, double momentum, double eps,
                                  bool cudnn_enabled) {
  return std::get<0>(sk::native_batch_norm(
      input, weight, bias, running_mean, running_var, training, momentum, eps));
}
} // namespace sk
#endif // HWY_ONCE
