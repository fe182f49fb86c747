//===--- LinearAlgebra.cu - mm, bmm, addmm, _cdist_forward on CUDA --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impls of the structured matrix products and of
/// _cdist_forward (p = 2 on many rows through the same gemm, as PyTorch's
/// _euclidean_dist). float32 and float64 go to cublas{S,D}gemmStridedBatched,
/// float16 and bfloat16 to cublasGemmStridedBatchedEx with float32
/// accumulation (CUBLAS_COMPUTE_32F); integer dtypes, empty contractions
/// and sizes beyond cuBLAS's int run a plain kernel (one thread per output
/// element) that accumulates as the CPU loop does. The meta functions are
/// the CPU file's (kernels/cpu/LinearAlgebra.cpp).
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "DeviceUtils.cuh"
#include "shared/LinearAlgebra.h"

#include "sk/cuda/CUDABlas.h"
#include "sk/iter/MemoryOverlap.h"

#include <climits>
#include <cmath>
#include <tuple>
#include <type_traits>

namespace sk {
namespace {

using namespace cuda_kernels;

// Note [cuBLAS operands]
// ~~~~~~~~~~~~~~~~~~~~~~
// cuBLAS is column-major: C = op(A) op(B) with element (i, j) of a matrix
// at i + j * ld. The products here see batches of matrices as 3-D tensors
// [batch, rows, cols] with any strides (a 2-D product is a batch of one),
// the CUDA mirror of Note [Matrices as strided views] in the CPU file:
//
//  - an operand whose rows are unit-stride (column-major) goes as is
//    (CUBLAS_OP_N); one whose columns are (row-major, a contiguous matrix)
//    goes with CUBLAS_OP_T; any other is made contiguous first;
//  - a column-major C is computed directly; a row-major C (the usual
//    contiguous output) as C^T = B^T A^T, which is column-major, by
//    swapping the transposed operands; a C that is neither through a
//    contiguous temporary.
//
// Batches go to the strided-batched calls with the tensors' batch strides
// (0 for an expanded batch).

/// Whether a [batch, rows, cols] tensor's matrices are column-major with a
/// leading dimension cuBLAS accepts.
bool isColMajor(const Tensor &T) {
  return (T.stride(1) == 1 || T.size(1) == 1) &&
         T.stride(2) >= std::max<int64_t>(1, T.size(1));
}

/// The leading dimension of a matrix that isColMajor accepts.
int64_t colMajorLd(const Tensor &T) {
  return std::max<int64_t>({T.stride(2), T.size(1), 1});
}

/// Whether every size and stride of \p T fits cuBLAS's int.
bool fitsCublas(const Tensor &T) {
  for (int64_t D = 0; D < 3; ++D)
    if (T.size(D) > INT_MAX || T.stride(D) > INT_MAX)
      return false;
  return true;
}

/// One cuBLAS operand: its data, op and leading dimension; Keep holds a
/// contiguous copy when the strides left no choice.
struct BlasOperand {
  const void *Data;
  cublasOperation_t Op;
  int64_t Ld;
  int64_t BatchStride;
  Tensor Keep;
};

BlasOperand blasOperand(const Tensor &T) {
  if (isColMajor(T))
    return {T.data_ptr(), CUBLAS_OP_N, colMajorLd(T), T.stride(0), Tensor()};
  Tensor TT = T.transpose(1, 2);
  if (isColMajor(TT))
    return {T.data_ptr(), CUBLAS_OP_T, colMajorLd(TT), T.stride(0), Tensor()};
  Tensor Packed = T.contiguous();
  Tensor PT = Packed.transpose(1, 2);
  return {Packed.data_ptr(), CUBLAS_OP_T, colMajorLd(PT), Packed.stride(0),
          Packed};
}

template <typename T> struct CublasScalar { using type = float; };
template <> struct CublasScalar<double> { using type = double; };

/// C = Beta * C + Alpha * A B through cuBLAS (Note [cuBLAS operands]), for
/// K > 0. \p T is float, double, Half or BFloat16.
template <typename T>
void cublasGemm(const Tensor &C, const Tensor &A, const Tensor &B,
                const Scalar &Alpha, const Scalar &Beta) {
  using S = typename CublasScalar<T>::type;
  S AlphaV = Alpha.to<S>(), BetaV = Beta.to<S>();
  if (!isColMajor(C)) {
    Tensor CT = C.transpose(1, 2);
    if (isColMajor(CT)) {
      cublasGemm<T>(CT, B.transpose(1, 2), A.transpose(1, 2), Alpha, Beta);
      return;
    }
    Tensor Tmp = empty(C.sizes(), C.options());
    if (BetaV != S(0))
      Tmp.copy_(C);
    cublasGemm<T>(Tmp, A, B, Alpha, Beta);
    C.copy_(Tmp);
    return;
  }
  BlasOperand OA = blasOperand(A), OB = blasOperand(B);
  int M = static_cast<int>(C.size(1)), N = static_cast<int>(C.size(2)),
      K = static_cast<int>(A.size(2)), Batch = static_cast<int>(C.size(0));
  int Lda = static_cast<int>(OA.Ld), Ldb = static_cast<int>(OB.Ld),
      Ldc = static_cast<int>(colMajorLd(C));
  cublasHandle_t Handle = cuda::getCurrentCUDABlasHandle();
  if constexpr (std::is_same_v<T, float>) {
    SK_CUBLAS_CHECK(cublasSgemmStridedBatched(
        Handle, OA.Op, OB.Op, M, N, K, &AlphaV,
        static_cast<const float *>(OA.Data), Lda, OA.BatchStride,
        static_cast<const float *>(OB.Data), Ldb, OB.BatchStride, &BetaV,
        static_cast<float *>(C.data_ptr()), Ldc, C.stride(0), Batch));
  } else if constexpr (std::is_same_v<T, double>) {
    SK_CUBLAS_CHECK(cublasDgemmStridedBatched(
        Handle, OA.Op, OB.Op, M, N, K, &AlphaV,
        static_cast<const double *>(OA.Data), Lda, OA.BatchStride,
        static_cast<const double *>(OB.Data), Ldb, OB.BatchStride, &BetaV,
        static_cast<double *>(C.data_ptr()), Ldc, C.stride(0), Batch));
  } else {
    cudaDataType_t Type = std::is_same_v<T, Half> ? CUDA_R_16F : CUDA_R_16BF;
    SK_CUBLAS_CHECK(cublasGemmStridedBatchedEx(
        Handle, OA.Op, OB.Op, M, N, K, &AlphaV, OA.Data, Type, Lda,
        OA.BatchStride, OB.Data, Type, Ldb, OB.BatchStride, &BetaV,
        C.data_ptr(), Type, Ldc, C.stride(0), Batch, CUBLAS_COMPUTE_32F,
        CUBLAS_GEMM_DEFAULT));
  }
}

/// The accumulator of the plain kernel: uint64 for integers (wrapping,
/// as the CPU loop), float for the 16-bit floats, else the type itself.
template <typename D>
using GemmAcc = std::conditional_t<std::is_integral_v<D>, uint64_t, AccType<D>>;

template <typename D> __device__ __forceinline__ GemmAcc<D> gemmLoad(D V) {
  if constexpr (std::is_integral_v<D>)
    return static_cast<uint64_t>(V);
  else
    return toAcc(V);
}

/// Strides in elements of a [batch, rows, cols] operand.
struct MatStrides {
  int64_t Batch, Row, Col;
};

MatStrides matStrides(const Tensor &T) {
  return {T.stride(0), T.stride(1), T.stride(2)};
}

/// C = Beta * C + Alpha * A B, one thread per element of C; Beta == 0
/// never reads C.
template <typename D>
__global__ void plainGemmKernel(D *C, const D *A, const D *B, int64_t Batch,
                                int64_t M, int64_t N, int64_t K, MatStrides SC,
                                MatStrides SA, MatStrides SB, GemmAcc<D> Alpha,
                                GemmAcc<D> Beta) {
  using Acc = GemmAcc<D>;
  int64_t Total = Batch * M * N;
  for (int64_t L = globalIndex(); L < Total; L += gridStride()) {
    int64_t J = L % N, I = (L / N) % M, Bt = L / (M * N);
    const D *ARow = A + Bt * SA.Batch + I * SA.Row;
    const D *BCol = B + Bt * SB.Batch + J * SB.Col;
    Acc Sum = 0;
    for (int64_t P = 0; P < K; ++P)
      Sum += gemmLoad(ARow[P * SA.Col]) * gemmLoad(BCol[P * SB.Row]);
    D &Out = C[Bt * SC.Batch + I * SC.Row + J * SC.Col];
    Acc V = Alpha * Sum;
    if (Beta != Acc(0))
      V += Beta * gemmLoad(Out);
    Out = fromAcc<D>(V);
  }
}

/// The scalar \p S as the plain kernel's accumulator of \p T.
template <typename T> GemmAcc<DeviceElement<T>> gemmScalar(const Scalar &S) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<uint64_t>(S.to<int64_t>());
  else
    return S.to<GemmAcc<DeviceElement<T>>>();
}

template <typename T>
void plainGemm(const Tensor &C, const Tensor &A, const Tensor &B,
               const Scalar &Alpha, const Scalar &Beta) {
  using D = DeviceElement<T>;
  int64_t Total = C.numel();
  plainGemmKernel<D><<<blocksFor(Total), kThreads, 0, currentStream()>>>(
      devicePtr<T>(C), devicePtr<T>(A), devicePtr<T>(B), C.size(0), C.size(1),
      C.size(2), A.size(2), matStrides(C), matStrides(A), matStrides(B),
      gemmScalar<T>(Alpha), gemmScalar<T>(Beta));
  SK_CUDA_KERNEL_LAUNCH_CHECK();
}

/// C = Beta * C + Alpha * A B for [batch, rows, cols] tensors of dtype
/// \p Dtype.
void gemm(ScalarType Dtype, const Tensor &C, const Tensor &A, const Tensor &B,
          const Scalar &Beta, const Scalar &Alpha) {
  if (C.numel() == 0)
    return;
  // bool is rejected by the meta functions.
  dispatchDtypes<dtypes::All>(Dtype, "addmm_cuda", [&](auto Tag) {
    using T = decltype(Tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                  std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      if (A.size(2) > 0 && C.size(0) <= INT_MAX && fitsCublas(C) &&
          fitsCublas(A) && fitsCublas(B)) {
        cublasGemm<T>(C, A, B, Alpha, Beta);
        return;
      }
    }
    plainGemm<T>(C, A, B, Alpha, Beta);
  });
}

//===--- cdist ------------------------------------------------------------===//

/// The p-norm a cdist kernel computes.
enum class NormKind { Zero, One, Two, Inf, General };

/// The distances of [Batch, R1, C] rows to [Batch, R2, C] rows, one thread
/// per pair, directly (the matrix-product path is euclidByMatmul).
template <typename T>
__global__ void cdistKernel(const T *X1, const T *X2, T *Out, int64_t Batch,
                            int64_t R1, int64_t R2, int64_t C, NormKind Kind,
                            T P) {
  int64_t Total = Batch * R1 * R2;
  for (int64_t L = globalIndex(); L < Total; L += gridStride()) {
    int64_t J = L % R2, I = (L / R2) % R1, Bt = L / (R1 * R2);
    const T *A = X1 + (Bt * R1 + I) * C;
    const T *B = X2 + (Bt * R2 + J) * C;
    T Sum = 0;
    for (int64_t K = 0; K < C; ++K) {
      T Diff = A[K] - B[K];
      T Abs = Diff < 0 ? -Diff : Diff;
      switch (Kind) {
      case NormKind::Zero:
        Sum += A[K] != B[K] ? T(1) : T(0);
        break;
      case NormKind::One:
        Sum += Abs;
        break;
      case NormKind::Two:
        Sum += Diff * Diff;
        break;
      case NormKind::Inf:
        Sum = Abs > Sum ? Abs : Sum;
        break;
      case NormKind::General:
        Sum += pow(Abs, P);
        break;
      }
    }
    if (Kind == NormKind::Two)
      Sum = sqrt(Sum);
    else if (Kind == NormKind::General)
      Sum = pow(Sum, T(1) / P);
    Out[L] = Sum;
  }
}

/// Norms[r] = the squared norm of row r of the \p Rows rows of \p C
/// elements at \p X, one warp per row.
template <typename T>
__global__ void squaredRowNormsKernel(const T *X, int64_t Rows, int64_t C,
                                      T *Norms) {
  int64_t Warp = globalIndex() / 32, Warps = gridStride() / 32;
  int Lane = threadIdx.x % 32;
  for (int64_t R = Warp; R < Rows; R += Warps) {
    const T *Row = X + R * C;
    T Sum = 0;
    for (int64_t K = Lane; K < C; K += 32)
      Sum += Row[K] * Row[K];
    for (int Offset = 16; Offset > 0; Offset /= 2)
      Sum += __shfl_down_sync(0xffffffffu, Sum, Offset);
    if (Lane == 0)
      Norms[R] = Sum;
  }
}

/// The epilogue of the matrix-product path: Out[b, i, j] (holding
/// -2 x1_i . x2_j) = sqrt(max(|x1_i|^2 + |x2_j|^2 + Out, 1e-30)), where a
/// NaN stays NaN, as with clamp_min and the CPU kernel's std::max.
template <typename T>
__global__ void euclidEpilogueKernel(T *Out, const T *Norms1, const T *Norms2,
                                     int64_t Batch, int64_t R1, int64_t R2) {
  int64_t Total = Batch * R1 * R2;
  for (int64_t L = globalIndex(); L < Total; L += gridStride()) {
    int64_t J = L % R2, Row = L / R2, Bt = Row / R1;
    T Square = Out[L] + Norms1[Row] + Norms2[Bt * R2 + J];
    Out[L] = sqrt(Square < T(1e-30) ? T(1e-30) : Square);
  }
}

/// cdist for p = 2 through cuBLAS, as PyTorch's _euclidean_dist computes
/// it: |a - b|^2 = |a|^2 + |b|^2 - 2 a.b, clamped at 1e-30 before the
/// square root. Equal rows then give the rounding error of that sum
/// (about sqrt(eps) |a|), not 0, as on the CPU and in PyTorch.
template <typename T>
void euclidByMatmul(const kernels::CdistBatches &In, const Tensor &Out) {
  int64_t Batch = In.Batch, R1 = In.X1.size(1), R2 = In.X2.size(1),
          C = In.X1.size(2);
  gemm(Out.scalar_type(), Out, In.X1, In.X2.transpose(1, 2), /*Beta=*/0,
       /*Alpha=*/-2);
  Tensor Norms1 = empty({Batch * R1}, Out.options());
  Tensor Norms2 = empty({Batch * R2}, Out.options());
  cudaStream_t Stream = currentStream();
  for (auto [X, Norms, Rows] : {std::make_tuple(&In.X1, &Norms1, Batch * R1),
                                std::make_tuple(&In.X2, &Norms2, Batch * R2)}) {
    squaredRowNormsKernel<T><<<blocksFor(Rows * 32), kThreads, 0, Stream>>>(
        X->template data_ptr<T>(), Rows, C, Norms->template data_ptr<T>());
    SK_CUDA_KERNEL_LAUNCH_CHECK();
  }
  euclidEpilogueKernel<T><<<blocksFor(Batch * R1 * R2), kThreads, 0, Stream>>>(
      Out.data_ptr<T>(), Norms1.data_ptr<T>(), Norms2.data_ptr<T>(), Batch, R1,
      R2);
  SK_CUDA_KERNEL_LAUNCH_CHECK();
}

NormKind normKind(double P) {
  if (P == 0)
    return NormKind::Zero;
  if (P == 1)
    return NormKind::One;
  if (P == 2)
    return NormKind::Two;
  if (std::isinf(P))
    return NormKind::Inf;
  return NormKind::General;
}

} // namespace

SK_IMPL_FUNC(mm_out_cuda)
(const Tensor &self, const Tensor &mat2, const Tensor &out) {
  // The products write each element once: an out= whose elements alias
  // each other (an expanded tensor, the self of addmm_) would come out
  // wrong. PyTorch refuses one too.
  assert_no_internal_overlap(out);
  gemm(out.scalar_type(), out.unsqueeze(0), self.unsqueeze(0),
       mat2.unsqueeze(0), /*Beta=*/0, /*Alpha=*/1);
}

SK_IMPL_FUNC(addmm_out_cuda)
(const Tensor &self, const Tensor &mat1, const Tensor &mat2, const Scalar &beta,
 const Scalar &alpha, const Tensor &out) {
  assert_no_internal_overlap(out);
  // beta == 0 ignores self entirely, NaN and infinity included.
  bool UsesSelf = beta.to<double>() != 0.0;
  if (UsesSelf && !self.is_same(out))
    out.copy_(self.expand(out.sizes()));
  gemm(out.scalar_type(), out.unsqueeze(0), mat1.unsqueeze(0),
       mat2.unsqueeze(0), UsesSelf ? beta : Scalar(0), alpha);
}

SK_IMPL_FUNC(bmm_out_cuda)
(const Tensor &self, const Tensor &mat2, const Tensor &out) {
  assert_no_internal_overlap(out);
  gemm(out.scalar_type(), out, self, mat2, /*Beta=*/0, /*Alpha=*/1);
}

SK_IMPL_FUNC(cdist_forward_out_cuda)
(const Tensor &x1, const Tensor &x2, double p,
 std::optional<int64_t> compute_mode, const Tensor &out) {
  if (out.numel() == 0)
    return;
  int64_t R1 = x1.size(-2), R2 = x2.size(-2), C = x1.size(-1);
  if (C == 0) {
    out.zero_();
    return;
  }
  kernels::CdistBatches In = kernels::flattenCdistBatches(x1, x2, out);
  int64_t Batch = In.Batch;
  // The CPU kernel's choice of the matrix-product path for p = 2.
  bool Euclid =
      kernels::useMatmulForEuclid(p, compute_mode.value_or(0), R1, R2);
  OutputBuffer Out(out);
  dispatchDtypes<dtypes::of(kFloat) | dtypes::of(kDouble)>(
      out.scalar_type(), "cdist_cuda", [&](auto Tag) {
        using T = decltype(Tag);
        Tensor Result = Out.get().view({Batch, R1, R2});
        if (Euclid) {
          euclidByMatmul<T>(In, Result);
          return;
        }
        int64_t Total = Batch * R1 * R2;
        cdistKernel<T><<<blocksFor(Total), kThreads, 0, currentStream()>>>(
            In.X1.data_ptr<T>(), In.X2.data_ptr<T>(), Result.data_ptr<T>(),
            Batch, R1, R2, C, normKind(p), static_cast<T>(p));
        SK_CUDA_KERNEL_LAUNCH_CHECK();
      });
  Out.finish();
}

} // namespace sk
