//===--- LinearAlgebra.cpp - mm, bmm, addmm, matmul, cdist, linear --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Matrix products. mm, bmm and addmm are structured; their float32 and
/// float64 impls call OpenBLAS through cblas, other dtypes (integers,
/// float16, bfloat16) a plain loop that accumulates in the op-math type.
/// _cdist_forward is structured too. matmul, cdist and linear are
/// composites that go through the C++ API (sk::mm, sk::bmm, sk::addmm,
/// sk::_cdist_forward), so they run on meta tensors as well.
///
//===----------------------------------------------------------------------===//

#include "shared/LinearAlgebra.h"
#include "Functions.h"
#include "NativeFunctions.h"

#include "sk/iter/Loops.h"
#include "sk/iter/MemoryOverlap.h"

#include <cblas.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace sk {
namespace {

// Note [Matrices as strided views]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The gemm helpers below see a matrix as a base pointer, its sizes and its
// element strides, so that bmm can walk its batches without making a view
// (a TensorImpl) per batch. cblas is called in row-major layout: an operand
// whose columns are unit-stride is passed as is (NoTrans), one whose rows
// are unit-stride (a transposed contiguous matrix, `A.t()`) is passed with
// the Trans flag, and only an operand that is neither (a slice with gaps
// in both directions, an expanded matrix) is packed into a row-major
// buffer. The output gets the same treatment mirrored: a column-major C is
// computed as C^T = B^T A^T, and only a C that is neither goes through a
// row-major buffer. This is PyTorch's addmm_impl_cpu_ logic.
struct MatRef {
  char *Data;
  int64_t Rows;
  int64_t Cols;
  int64_t RowStride; ///< In elements.
  int64_t ColStride; ///< In elements.

  MatRef transposed() const { return {Data, Cols, Rows, ColStride, RowStride}; }
};
} // namespace

static MatRef matRef(const Tensor &T) {
  return {static_cast<char *>(T.data_ptr()), T.size(0), T.size(1), T.stride(0),
          T.stride(1)};
}

/// Whether \p M can be handed to cblas in row-major layout without the
/// Trans flag: unit-stride columns and a leading dimension that BLAS
/// accepts.
static bool isRowMajorForBlas(const MatRef &M) {
  return (M.ColStride == 1 || M.Cols == 1) &&
         M.RowStride >= std::max<int64_t>(1, M.Cols);
}

/// The leading dimension of a matrix that isRowMajorForBlas accepts. A
/// one-column matrix may have any column stride; its row stride is then
/// the leading dimension.
static int64_t leadingDim(const MatRef &M) {
  return std::max<int64_t>({M.RowStride, M.Cols, 1});
}

static bool fitsBlasInt(int64_t V) { return V <= INT_MAX; }

/// Copies the strided matrix \p M into \p Buffer, row-major.
template <typename T>
static void packRowMajor(const MatRef &M, std::vector<T> &Buffer) {
  Buffer.resize(static_cast<size_t>(M.Rows * M.Cols));
  const T *Src = reinterpret_cast<const T *>(M.Data);
  for (int64_t I = 0; I < M.Rows; ++I)
    for (int64_t J = 0; J < M.Cols; ++J)
      Buffer[I * M.Cols + J] = Src[I * M.RowStride + J * M.ColStride];
}

// Note [One thread pool]
// ~~~~~~~~~~~~~~~~~~~~~~
// skc links OpenBLAS's OpenMP build where it is installed
// (cmake/SkcOpenBLAS.cmake), so that matrix products run on the runtime's
// OpenMP threads. The pthreads build keeps a pool of its own whose threads
// spin after each call: on 2 cores, cdist's epilogue loop then ran at half
// speed beside them. Either way, OpenBLAS's thread count follows
// sk::get_num_threads() at each call, so that set_num_threads(1) limits
// matrix products too, and a product called from inside one of the
// runtime's parallel regions runs on its caller's thread alone.

/// Sets OpenBLAS's thread count for a call from here, when it changed.
static void syncBlasThreads() {
  static std::atomic<int> Current{0};
  int Wanted = in_parallel_region() ? 1 : get_num_threads();
  if (Current.load(std::memory_order_relaxed) == Wanted)
    return;
  openblas_set_num_threads(Wanted);
  Current.store(Wanted, std::memory_order_relaxed);
}

static void cblasGemm(CBLAS_TRANSPOSE TA, CBLAS_TRANSPOSE TB, int64_t M,
                      int64_t N, int64_t K, float Alpha, const float *A,
                      int64_t Lda, const float *B, int64_t Ldb, float Beta,
                      float *C, int64_t Ldc) {
  syncBlasThreads();
  cblas_sgemm(CblasRowMajor, TA, TB, static_cast<blasint>(M),
              static_cast<blasint>(N), static_cast<blasint>(K), Alpha, A,
              static_cast<blasint>(Lda), B, static_cast<blasint>(Ldb), Beta, C,
              static_cast<blasint>(Ldc));
}

static void cblasGemm(CBLAS_TRANSPOSE TA, CBLAS_TRANSPOSE TB, int64_t M,
                      int64_t N, int64_t K, double Alpha, const double *A,
                      int64_t Lda, const double *B, int64_t Ldb, double Beta,
                      double *C, int64_t Ldc) {
  syncBlasThreads();
  cblas_dgemm(CblasRowMajor, TA, TB, static_cast<blasint>(M),
              static_cast<blasint>(N), static_cast<blasint>(K), Alpha, A,
              static_cast<blasint>(Lda), B, static_cast<blasint>(Ldb), Beta, C,
              static_cast<blasint>(Ldc));
}

/// One operand of a cblas call: its pointer, transpose flag and leading
/// dimension, packed into \p Buffer when its strides leave no choice.
template <typename T> struct BlasOperand {
  const T *Data;
  CBLAS_TRANSPOSE Trans;
  int64_t Ld;
};

template <typename T>
static BlasOperand<T> blasOperand(const MatRef &M, std::vector<T> &Buffer) {
  if (isRowMajorForBlas(M))
    return {reinterpret_cast<const T *>(M.Data), CblasNoTrans, leadingDim(M)};
  MatRef MT = M.transposed();
  if (isRowMajorForBlas(MT))
    return {reinterpret_cast<const T *>(M.Data), CblasTrans, leadingDim(MT)};
  packRowMajor(M, Buffer);
  return {Buffer.data(), CblasNoTrans, std::max<int64_t>(1, M.Cols)};
}

/// Whether every size and leading dimension of C = A B fits cblas's int.
static bool fitsBlas(const MatRef &C, const MatRef &A, const MatRef &B) {
  for (const MatRef *M : {&C, &A, &B})
    if (!fitsBlasInt(M->Rows) || !fitsBlasInt(M->Cols) ||
        !fitsBlasInt(M->RowStride) || !fitsBlasInt(M->ColStride))
      return false;
  return true;
}

/// C = Beta * C + Alpha * A B through cblas (Note [Matrices as strided
/// views]); Beta == 0 never reads C (BLAS semantics, NaN included).
template <typename T>
static void blasGemm(const MatRef &C, const MatRef &A, const MatRef &B, T Alpha,
                     T Beta) {
  if (!isRowMajorForBlas(C)) {
    if (isRowMajorForBlas(C.transposed())) {
      blasGemm<T>(C.transposed(), B.transposed(), A.transposed(), Alpha, Beta);
      return;
    }
    // Neither layout: compute into a row-major buffer and scatter it.
    std::vector<T> Tmp;
    if (Beta != T(0))
      packRowMajor(C, Tmp);
    else
      Tmp.assign(static_cast<size_t>(C.Rows * C.Cols), T(0));
    MatRef TmpRef{reinterpret_cast<char *>(Tmp.data()), C.Rows, C.Cols,
                  std::max<int64_t>(1, C.Cols), 1};
    blasGemm<T>(TmpRef, A, B, Alpha, Beta);
    T *Dst = reinterpret_cast<T *>(C.Data);
    for (int64_t I = 0; I < C.Rows; ++I)
      for (int64_t J = 0; J < C.Cols; ++J)
        Dst[I * C.RowStride + J * C.ColStride] = Tmp[I * C.Cols + J];
    return;
  }
  std::vector<T> ABuffer, BBuffer;
  BlasOperand<T> OpA = blasOperand<T>(A, ABuffer);
  BlasOperand<T> OpB = blasOperand<T>(B, BBuffer);
  cblasGemm(OpA.Trans, OpB.Trans, C.Rows, C.Cols, A.Cols, Alpha, OpA.Data,
            OpA.Ld, OpB.Data, OpB.Ld, Beta, reinterpret_cast<T *>(C.Data),
            leadingDim(C));
}

/// The accumulator type of the loop kernel: float for the 16-bit floats,
/// uint64 for integers (unsigned arithmetic wraps without undefined
/// behaviour, and truncating to the output type on store gives the bits
/// two's-complement accumulation in it would), else the type itself.
template <typename T>
using GemmAcc =
    std::conditional_t<std::is_integral_v<T>, uint64_t, opmath_type<T>>;

/// C = Beta * C + Alpha * A B with a row-at-a-time loop, for the dtypes
/// cblas lacks. Beta == 0 never reads C. Serial: callers parallelize.
template <typename T>
static void loopGemmRows(const MatRef &C, const MatRef &A, const MatRef &B,
                         GemmAcc<T> Alpha, GemmAcc<T> Beta, int64_t RowBegin,
                         int64_t RowEnd, std::vector<GemmAcc<T>> &Acc) {
  using AccT = GemmAcc<T>;
  const T *PA = reinterpret_cast<const T *>(A.Data);
  const T *PB = reinterpret_cast<const T *>(B.Data);
  T *PC = reinterpret_cast<T *>(C.Data);
  int64_t N = C.Cols, K = A.Cols;
  Acc.assign(static_cast<size_t>(N), AccT(0));
  for (int64_t I = RowBegin; I < RowEnd; ++I) {
    std::fill(Acc.begin(), Acc.end(), AccT(0));
    for (int64_t P = 0; P < K; ++P) {
      AccT AV = static_cast<AccT>(PA[I * A.RowStride + P * A.ColStride]);
      const T *BRow = PB + P * B.RowStride;
      if (B.ColStride == 1) {
        for (int64_t J = 0; J < N; ++J)
          Acc[J] += AV * static_cast<AccT>(BRow[J]);
      } else {
        for (int64_t J = 0; J < N; ++J)
          Acc[J] += AV * static_cast<AccT>(BRow[J * B.ColStride]);
      }
    }
    T *CRow = PC + I * C.RowStride;
    for (int64_t J = 0; J < N; ++J) {
      T &Out = CRow[J * C.ColStride];
      AccT V = Alpha * Acc[J];
      if (Beta != AccT(0))
        V += Beta * static_cast<AccT>(Out);
      Out = static_cast<T>(V);
    }
  }
}

/// Rows per parallel chunk of the loop kernel: about kGrainSize
/// multiply-adds each.
static int64_t rowGrain(int64_t N, int64_t K) {
  return std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, N * K));
}

template <typename T>
static void loopGemm(const MatRef &C, const MatRef &A, const MatRef &B,
                     GemmAcc<T> Alpha, GemmAcc<T> Beta) {
  parallel_for(0, C.Rows, rowGrain(C.Cols, A.Cols),
               [&](int64_t Begin, int64_t End) {
                 std::vector<GemmAcc<T>> Acc;
                 loopGemmRows<T>(C, A, B, Alpha, Beta, Begin, End, Acc);
               });
}

/// C = Beta * C + Alpha * C for K == 0 (an empty sum): BLAS would be
/// handed a zero leading dimension, and the loop has nothing to add.
template <typename T> static void scaleOnly(const MatRef &C, GemmAcc<T> Beta) {
  T *PC = reinterpret_cast<T *>(C.Data);
  for (int64_t I = 0; I < C.Rows; ++I)
    for (int64_t J = 0; J < C.Cols; ++J) {
      T &Out = PC[I * C.RowStride + J * C.ColStride];
      Out = Beta == GemmAcc<T>(0)
                ? T(0)
                : static_cast<T>(Beta * static_cast<GemmAcc<T>>(Out));
    }
}

/// The scalar \p S as the accumulator type of \p T.
template <typename T> static GemmAcc<T> scalarAs(const Scalar &S) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<uint64_t>(S.to<int64_t>());
  else
    return S.to<GemmAcc<T>>();
}

/// C = Beta * C + Alpha * A B for one matrix of dtype \p Dtype, in
/// parallel; see Note [Matrices as strided views].
static void gemm(ScalarType Dtype, const MatRef &C, const MatRef &A,
                 const MatRef &B, const Scalar &Beta, const Scalar &Alpha) {
  if (C.Rows == 0 || C.Cols == 0)
    return;
  // bool is rejected by the meta functions (checkMatmulDtype).
  dispatchDtypes<dtypes::All>(Dtype, "addmm_impl_cpu_", [&](auto Tag) {
    using T = decltype(Tag);
    if (A.Cols == 0) {
      scaleOnly<T>(C, scalarAs<T>(Beta));
      return;
    }
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (fitsBlas(C, A, B)) {
        blasGemm<T>(C, A, B, Alpha.to<T>(), Beta.to<T>());
        return;
      }
    }
    loopGemm<T>(C, A, B, scalarAs<T>(Alpha), scalarAs<T>(Beta));
  });
}

/// C = A B with the loop kernel on the calling thread, for callers that
/// are already parallel.
static void serialLoopGemm(ScalarType Dtype, const MatRef &C, const MatRef &A,
                           const MatRef &B) {
  if (C.Rows == 0 || C.Cols == 0)
    return;
  dispatchDtypes<dtypes::All>(Dtype, "addmm_impl_cpu_", [&](auto Tag) {
    using T = decltype(Tag);
    if (A.Cols == 0) {
      scaleOnly<T>(C, GemmAcc<T>(0));
    } else {
      std::vector<GemmAcc<T>> Acc;
      loopGemmRows<T>(C, A, B, GemmAcc<T>(1), GemmAcc<T>(0), 0, C.Rows, Acc);
    }
  });
}

/// bool has no matrix product in PyTorch ("addmm_impl_cpu_" not
/// implemented for 'Bool'); say so in the meta function, where the Meta
/// backend sees it too.
static void checkMatmulDtype(const char *Op, const Tensor &T) {
  SK_CHECK(T.scalar_type() != kBool, "\"", Op, "\" not implemented for '",
           T.scalar_type(), "'");
}

//===----------------------------------------------------------------------===//
// mm, addmm, bmm
//===----------------------------------------------------------------------===//

SK_META_FUNC(mm)(const Tensor &self, const Tensor &mat2) {
  SK_CHECK(self.dim() == 2, "self must be a matrix");
  SK_CHECK(mat2.dim() == 2, "mat2 must be a matrix");
  SK_CHECK(self.size(1) == mat2.size(0),
           "mat1 and mat2 shapes cannot be multiplied (", self.size(0), "x",
           self.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
  // PyTorch checks the dtypes in the CPU impl, so meta tensors of mixed
  // dtypes pass there; here they fail on every backend.
  SK_CHECK(self.scalar_type() == mat2.scalar_type(),
           "expected m1 and m2 to have the same dtype, but got: ",
           self.scalar_type(), " != ", mat2.scalar_type());
  checkMatmulDtype("mm", self);
  set_output_raw_strided(0, {self.size(0), mat2.size(1)}, {}, self.options());
}

SK_IMPL_FUNC(mm_out)
(const Tensor &self, const Tensor &mat2, const Tensor &out) {
  // The products write each element once: an out= whose elements alias
  // each other (an expanded tensor, the self of addmm_) would come out
  // wrong. PyTorch refuses one too.
  assert_no_internal_overlap(out);
  gemm(out.scalar_type(), matRef(out), matRef(self), matRef(mat2),
       /*Beta=*/0, /*Alpha=*/1);
}

SK_META_FUNC(addmm)
(const Tensor &self, const Tensor &mat1, const Tensor &mat2, const Scalar &beta,
 const Scalar &alpha) {
  SK_CHECK(self.scalar_type() == mat2.scalar_type(),
           "self and mat2 must have the same dtype, but got ",
           self.scalar_type(), " and ", mat2.scalar_type());
  SK_CHECK(mat1.scalar_type() == mat2.scalar_type(),
           "mat1 and mat2 must have the same dtype, but got ",
           mat1.scalar_type(), " and ", mat2.scalar_type());
  SK_CHECK(mat1.dim() == 2, "mat1 must be a matrix, got ", mat1.dim(),
           "-D tensor");
  SK_CHECK(mat2.dim() == 2, "mat2 must be a matrix, got ", mat2.dim(),
           "-D tensor");
  SK_CHECK(mat1.size(1) == mat2.size(0),
           "mat1 and mat2 shapes cannot be multiplied (", mat1.size(0), "x",
           mat1.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
  checkMatmulDtype("addmm", mat1);
  // PyTorch expands self in the CPU impl (expand_size), so a self that
  // does not broadcast passes on meta tensors; check it here instead.
  int64_t M = mat1.size(0), N = mat2.size(1);
  bool Broadcasts = self.dim() <= 2;
  for (int64_t D = 0; Broadcasts && D < self.dim(); ++D) {
    int64_t Target = D + 2 - self.dim() == 0 ? M : N;
    Broadcasts = self.size(D) == Target || self.size(D) == 1;
  }
  SK_CHECK(Broadcasts, "addmm(): self of size ", self.sizes(),
           " cannot be broadcast to the result's size [", M, ", ", N, "]");
  set_output_raw_strided(0, {M, N}, {}, mat1.options());
}

SK_IMPL_FUNC(addmm_out)
(const Tensor &self, const Tensor &mat1, const Tensor &mat2, const Scalar &beta,
 const Scalar &alpha, const Tensor &out) {
  assert_no_internal_overlap(out);
  // beta == 0 ignores self entirely, NaN and infinity included (BLAS
  // semantics, as PyTorch documents for addmm).
  bool UsesSelf = beta.to<double>() != 0.0;
  if (UsesSelf && !self.is_same(out))
    out.copy_(self.expand(out.sizes()));
  gemm(out.scalar_type(), matRef(out), matRef(mat1), matRef(mat2),
       UsesSelf ? beta : Scalar(0), alpha);
}

SK_META_FUNC(bmm)(const Tensor &self, const Tensor &mat2) {
  SK_CHECK(self.dim() == 3, "batch1 must be a 3D tensor");
  SK_CHECK(mat2.dim() == 3, "batch2 must be a 3D tensor");
  int64_t Batch = self.size(0), Contraction = self.size(2);
  SK_CHECK(mat2.size(0) == Batch && mat2.size(1) == Contraction,
           "Expected size for first two dimensions of batch2 tensor to be: [",
           Batch, ", ", Contraction, "] but got: [", mat2.size(0), ", ",
           mat2.size(1), "].");
  SK_CHECK(self.scalar_type() == mat2.scalar_type(),
           "expected batch1 and batch2 to have the same dtype, but got: ",
           self.scalar_type(), " != ", mat2.scalar_type());
  checkMatmulDtype("bmm", self);
  set_output_raw_strided(0, {Batch, self.size(1), mat2.size(2)}, {},
                         mat2.options());
}

SK_IMPL_FUNC(bmm_out)
(const Tensor &self, const Tensor &mat2, const Tensor &out) {
  assert_no_internal_overlap(out);
  int64_t Batch = out.size(0), M = out.size(1), N = out.size(2),
          K = self.size(2);
  if (out.numel() == 0)
    return;
  auto Slice = [](const Tensor &T, int64_t B) {
    return MatRef{static_cast<char *>(T.data_ptr()) +
                      B * T.stride(0) * static_cast<int64_t>(T.itemsize()),
                  T.size(1), T.size(2), T.stride(1), T.stride(2)};
  };
  ScalarType Dtype = out.scalar_type();
  // Small products lose more to a BLAS call's setup than they gain, and
  // each one is too small to thread: run them through the loop kernel on
  // one thread each, in parallel over the batch (PyTorch's threshold).
  if (M * N * K < 400) {
    int64_t Grain =
        std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, M * N * K));
    parallel_for(0, Batch, Grain, [&](int64_t Begin, int64_t End) {
      for (int64_t B = Begin; B < End; ++B)
        serialLoopGemm(Dtype, Slice(out, B), Slice(self, B), Slice(mat2, B));
    });
    return;
  }
  // One multithreaded product (BLAS, or the parallel loop) per batch.
  for (int64_t B = 0; B < Batch; ++B)
    gemm(Dtype, Slice(out, B), Slice(self, B), Slice(mat2, B), 0, 1);
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

/// Whether matmul may fold the batch dimensions of \p T1 (at least 3-D)
/// into the rows of one mm with a \p Dim2-D right operand (PyTorch's
/// should_fold): not when \p T1 is a batch of transposed matrices, which
/// bmm handles with the Trans flag instead of a copy.
static bool shouldFold(const Tensor &T1, int64_t Dim2) {
  if (T1.dim() < 3 || (Dim2 != 1 && Dim2 != 2))
    return false;
  if (T1.dim() == 3 && Dim2 == 2 && T1.stride(2) != 1 &&
      T1.stride(0) == T1.size(1) * T1.size(2))
    return false;
  return true;
}

Tensor SK_NATIVE_FUNC(matmul)(const Tensor &self, const Tensor &other) {
  int64_t Dim1 = self.dim(), Dim2 = other.dim();
  SK_CHECK(Dim1 != 0 && Dim2 != 0,
           "both arguments to matmul need to be at least 1D, but they are ",
           Dim1, "D and ", Dim2, "D");

  if (Dim1 == 1 && Dim2 == 1) {
    // dot: checked with PyTorch's words, computed as (1 x n) (n x 1).
    SK_CHECK(self.scalar_type() == other.scalar_type(),
             "dot : expected both vectors to have same dtype, but found ",
             self.scalar_type(), " and ", other.scalar_type());
    SK_CHECK(self.numel() == other.numel(),
             "inconsistent tensor size, expected tensor [", self.numel(),
             "] and src [", other.numel(),
             "] to have the same number of elements, but got ", self.numel(),
             " and ", other.numel(), " elements respectively");
    return sk::mm(self.unsqueeze(0), other.unsqueeze(1)).view({});
  }
  if (Dim1 == 2 && Dim2 == 1) {
    // mv.
    SK_CHECK(self.size(1) == other.size(0), "size mismatch, got input (",
             self.size(0), "), mat (", self.size(0), "x", self.size(1),
             "), vec (", other.size(0), ")");
    return sk::mm(self, other.unsqueeze(1)).squeeze(1);
  }
  if (Dim1 == 1 && Dim2 == 2)
    return sk::mm(self.unsqueeze(0), other).squeeze(0);
  if (Dim1 == 2 && Dim2 == 2)
    return sk::mm(self, other);

  if (shouldFold(self, Dim2)) {
    // (..., n, k) @ (k[, p]): one mm over the folded rows. The mm result
    // is row-major, so the final view never copies.
    IntArrayRef Sizes1 = self.sizes();
    std::vector<int64_t> OutShape(Sizes1.begin(), Sizes1.end() - 1);
    int64_t Folded = 1;
    for (int64_t S : OutShape)
      Folded *= S;
    Tensor Rows = self.reshape({Folded, Sizes1.back()});
    if (Dim2 == 2) {
      OutShape.push_back(other.size(1));
      return sk::mm(Rows, other).view(OutShape);
    }
    SK_CHECK(Sizes1.back() == other.size(0), "size mismatch, got input (",
             Folded, "), mat (", Folded, "x", Sizes1.back(), "), vec (",
             other.size(0), ")");
    return sk::mm(Rows, other.unsqueeze(1)).view(OutShape);
  }

  // Batched: broadcast the batch dimensions, flatten them, one bmm.
  int64_t N = Dim1 > 1 ? self.size(-2) : 1;
  int64_t M1 = self.size(-1);
  IntArrayRef Batch1(self.sizes().data(), std::max<int64_t>(Dim1 - 2, 0));
  int64_t M2 = Dim2 > 1 ? other.size(-2) : other.size(0);
  int64_t P = Dim2 > 1 ? other.size(-1) : 1;
  IntArrayRef Batch2(other.sizes().data(), std::max<int64_t>(Dim2 - 2, 0));
  DimVector BatchShape = infer_size_dimvector(Batch1, Batch2);
  int64_t BatchProduct = 1;
  for (int64_t S : BatchShape)
    BatchProduct *= S;

  std::vector<int64_t> Expand1(BatchShape.begin(), BatchShape.end());
  Expand1.push_back(N);
  Expand1.push_back(M1);
  Tensor Left = self.expand(Expand1).reshape({BatchProduct, N, M1});

  // A vector right operand broadcasts as a column, not as a batch of
  // rows.
  bool VectorRhs = Dim2 == 1;
  std::vector<int64_t> Expand2(BatchShape.begin(), BatchShape.end());
  Expand2.push_back(M2);
  if (!VectorRhs)
    Expand2.push_back(P);
  Tensor Right = other.expand(Expand2);
  Right = VectorRhs ? Right.reshape({BatchProduct, M2}).unsqueeze(2)
                    : Right.reshape({BatchProduct, M2, P});

  std::vector<int64_t> OutShape(BatchShape.begin(), BatchShape.end());
  if (Dim1 > 1)
    OutShape.push_back(N);
  if (Dim2 > 1)
    OutShape.push_back(P);
  return sk::bmm(Left, Right).view(OutShape);
}

//===----------------------------------------------------------------------===//
// linear
//===----------------------------------------------------------------------===//

/// \p Out += \p Bias, broadcasting Bias to Out's shape (add_ of
/// PyTorch's linear, for the shapes addmm cannot take).
static void addBiasInPlace(const Tensor &Out, const Tensor &Bias) {
  SK_CHECK(Out.scalar_type() == Bias.scalar_type(),
           "linear(): expected bias of dtype ", Out.scalar_type(), ", but got ",
           Bias.scalar_type());
  DimVector Shape = infer_size_dimvector(Out.sizes(), Bias.sizes());
  SK_CHECK(IntArrayRef(Shape) == Out.sizes(), "output with shape ", Out.sizes(),
           " doesn't match the broadcast shape ", IntArrayRef(Shape));
  if (Out.is_meta() || Out.numel() == 0)
    return;
  TensorIterator Iter = TensorIteratorConfig()
                            .add_output(Out)
                            .add_input(Out)
                            .add_input(Bias)
                            .resize_outputs(false)
                            .build();
  visitScalarType(Out.scalar_type(), [&](auto Tag) {
    using T = decltype(Tag);
    using Acc = opmath_type<T>;
    if constexpr (std::is_same_v<T, bool>)
      cpu_kernel(Iter, [](bool X, bool Y) { return X || Y; });
    else
      cpu_kernel(Iter, [](T X, T Y) {
        return static_cast<T>(static_cast<Acc>(X) + static_cast<Acc>(Y));
      });
  });
}

Tensor SK_NATIVE_FUNC(linear)(const Tensor &input, const Tensor &weight,
                              const std::optional<Tensor> &bias) {
  bool HasBias = bias.has_value() && bias->defined();
  if (HasBias && input.dim() == 2)
    return sk::addmm(*bias, input, weight.t());
  if (HasBias && input.dim() >= 3 && weight.dim() == 2) {
    // Fold the leading dimensions into rows: one fused addmm.
    IntArrayRef Sizes = input.sizes();
    Tensor Rows = input.reshape({-1, Sizes.back()});
    std::vector<int64_t> OutShape(Sizes.begin(), Sizes.end() - 1);
    OutShape.push_back(weight.size(0));
    return sk::addmm(*bias, Rows, weight.t()).view(OutShape);
  }
  Tensor Output = sk::matmul(input, weight.t());
  if (HasBias)
    addBiasInPlace(Output, *bias);
  return Output;
}

//===----------------------------------------------------------------------===//
// cdist
//===----------------------------------------------------------------------===//

SK_META_FUNC(_cdist_forward)
(const Tensor &x1, const Tensor &x2, double p,
 std::optional<int64_t> compute_mode) {
  SK_CHECK(x1.dim() >= 2,
           "cdist only supports at least 2D tensors, X1 got: ", x1.dim(), "D");
  SK_CHECK(x2.dim() >= 2,
           "cdist only supports at least 2D tensors, X2 got: ", x2.dim(), "D");
  SK_CHECK(x1.size(-1) == x2.size(-1),
           "X1 and X2 must have the same number of columns. X1: ", x1.size(-1),
           " X2: ", x2.size(-1));
  // PyTorch's CPU loop exists for float32 and float64 only.
  SK_CHECK(x1.scalar_type() == kFloat || x1.scalar_type() == kDouble,
           "cdist only supports float32 and float64 dtypes, X1 got: ",
           x1.scalar_type());
  SK_CHECK(x2.scalar_type() == x1.scalar_type(),
           "cdist expects X1 and X2 to have the same dtype, but got X1: ",
           x1.scalar_type(), " X2: ", x2.scalar_type());
  SK_CHECK(p >= 0, "cdist only supports non-negative p values");
  SK_CHECK(x1.device() == x2.device(),
           "X1 and X2 must have the same device type. X1: ", x1.device(),
           " X2: ", x2.device());
  int64_t Mode = compute_mode.value_or(0);
  SK_CHECK(Mode >= 0 && Mode <= 2, "possible modes: 0, 1, 2, but was: ", Mode);

  IntArrayRef Batch1(x1.sizes().data(), x1.dim() - 2);
  IntArrayRef Batch2(x2.sizes().data(), x2.dim() - 2);
  DimVector Shape = infer_size_dimvector(Batch1, Batch2);
  Shape.push_back(x1.size(-2));
  Shape.push_back(x2.size(-2));
  // The loops below walk a row-major result.
  set_output_contiguous(0, Shape, x1.options());
}

/// The distance of two rows of \p C elements for a p-norm.
template <typename T>
static T rowDistance(const T *A, const T *B, int64_t C, double P) {
  T Sum = 0;
  if (P == 0) {
    for (int64_t I = 0; I < C; ++I)
      Sum += A[I] != B[I] ? T(1) : T(0);
    return Sum;
  }
  if (P == 1) {
    for (int64_t I = 0; I < C; ++I)
      Sum += std::abs(A[I] - B[I]);
    return Sum;
  }
  if (P == 2) {
    for (int64_t I = 0; I < C; ++I) {
      T D = A[I] - B[I];
      Sum += D * D;
    }
    return std::sqrt(Sum);
  }
  if (std::isinf(P)) {
    for (int64_t I = 0; I < C; ++I)
      Sum = std::max(Sum, std::abs(A[I] - B[I]));
    return Sum;
  }
  T PT = static_cast<T>(P);
  for (int64_t I = 0; I < C; ++I)
    Sum += std::pow(std::abs(A[I] - B[I]), PT);
  return std::pow(Sum, T(1) / PT);
}

template <typename T>
static void cdistKernel(const Tensor &X1, const Tensor &X2, const Tensor &Out,
                        double P, bool Euclid) {
  int64_t Batch = X1.size(0), R1 = X1.size(1), R2 = X2.size(1), C = X1.size(2);
  const T *A = X1.data_ptr<T>();
  const T *B = X2.data_ptr<T>();
  T *D = Out.data_ptr<T>();
  if (!Euclid) {
    parallel_for(0, Batch * R1, std::max<int64_t>(1, kGrainSize / (R2 * C)),
                 [&](int64_t Begin, int64_t End) {
                   for (int64_t Row = Begin; Row < End; ++Row) {
                     int64_t Bt = Row / R1;
                     const T *ARow = A + Row * C;
                     for (int64_t J = 0; J < R2; ++J)
                       D[Row * R2 + J] =
                           rowDistance(ARow, B + (Bt * R2 + J) * C, C, P);
                   }
                 });
    return;
  }
  // |a - b|^2 = |a|^2 + |b|^2 - 2 a.b, with a.b from one gemm per batch.
  // PyTorch's _euclidean_dist clamps at 1e-30 before the square root,
  // so equal rows give 1e-15 rather than 0; so does this.
  std::vector<T> Norm1(static_cast<size_t>(R1)), Norm2(static_cast<size_t>(R2));
  auto SquaredNorms = [C](const T *Rows, int64_t N, T *Out) {
    parallel_for(0, N, std::max<int64_t>(1, kGrainSize / C),
                 [&](int64_t Begin, int64_t End) {
                   for (int64_t I = Begin; I < End; ++I) {
                     T S = 0;
                     for (int64_t K = 0; K < C; ++K)
                       S += Rows[I * C + K] * Rows[I * C + K];
                     Out[I] = S;
                   }
                 });
  };
  for (int64_t Bt = 0; Bt < Batch; ++Bt) {
    const T *ABatch = A + Bt * R1 * C;
    const T *BBatch = B + Bt * R2 * C;
    T *DBatch = D + Bt * R1 * R2;
    MatRef CRef{reinterpret_cast<char *>(DBatch), R1, R2, R2, 1};
    MatRef ARef{reinterpret_cast<char *>(const_cast<T *>(ABatch)), R1, C, C, 1};
    MatRef BRef{reinterpret_cast<char *>(const_cast<T *>(BBatch)), C, R2, 1, C};
    gemm(scalarTypeOf<T>(), CRef, ARef, BRef, 0, -2);
    SquaredNorms(ABatch, R1, Norm1.data());
    SquaredNorms(BBatch, R2, Norm2.data());
    // The epilogue is a pass over the whole result: in parallel, and
    // branch-free so that it vectorises (with -fno-math-errno, the square
    // root is an instruction).
    const T *N1 = Norm1.data(), *N2 = Norm2.data();
    parallel_for(0, R1, std::max<int64_t>(1, kGrainSize / R2),
                 [&](int64_t Begin, int64_t End) {
                   for (int64_t I = Begin; I < End; ++I) {
                     T *Row = DBatch + I * R2;
                     T RowNorm = N1[I];
                     for (int64_t J = 0; J < R2; ++J)
                       Row[J] = std::sqrt(
                           std::max(Row[J] + RowNorm + N2[J], T(1e-30)));
                   }
                 });
  }
}

SK_IMPL_FUNC(cdist_forward_out)
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
  bool Euclid =
      kernels::useMatmulForEuclid(p, compute_mode.value_or(0), R1, R2);
  dispatchDtypes<dtypes::of(kFloat) | dtypes::of(kDouble)>(
      out.scalar_type(), "cdist_cpu", [&](auto Tag) {
        cdistKernel<decltype(Tag)>(In.X1, In.X2, out, p, Euclid);
      });
}

Tensor SK_NATIVE_FUNC(cdist)(const Tensor &x1, const Tensor &x2, double p,
                             std::optional<int64_t> compute_mode) {
  // PyTorch's cdist checks these before choosing between _euclidean_dist
  // and _cdist_forward (the choice matters to autograd only, which skc
  // does not have; _cdist_forward makes the same choice inside).
  SK_CHECK(x1.dim() >= 2,
           "cdist only supports at least 2D tensors, X1 got: ", x1.dim(), "D");
  SK_CHECK(x2.dim() >= 2,
           "cdist only supports at least 2D tensors, X2 got: ", x2.dim(), "D");
  SK_CHECK(x1.size(-1) == x2.size(-1),
           "X1 and X2 must have the same number of columns. X1: ", x1.size(-1),
           " X2: ", x2.size(-1));
  return sk::_cdist_forward(x1, x2, p, compute_mode);
}

} // namespace sk
