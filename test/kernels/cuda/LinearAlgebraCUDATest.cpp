//===--- LinearAlgebraCUDATest.cpp - mm, bmm, addmm, cdist on CUDA --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA matrix products (cuBLAS for the floating dtypes, the plain
/// kernel for integers) and _cdist_forward against the CPU kernels, over
/// shapes, dtypes, transposed and strided operands and out= variants.
///
//===----------------------------------------------------------------------===//

#include "CUDAKernelTestUtils.h"

#include "Functions.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <vector>

using namespace sk;
using namespace sk::test;

namespace {

/// Small integers keep integer products exact and float16 sums close.
Tensor operand(IntArrayRef Sizes, ScalarType Dtype, uint64_t Seed) {
  return randomCPU(Sizes, Dtype, Seed, -4, 4);
}

/// Tolerance of a product of \p K terms in \p Dtype.
double productTolerance(ScalarType Dtype, int64_t K) {
  return toleranceFor(Dtype) * (1 + static_cast<double>(K) / 16);
}

class MatmulCUDATest : public CUDADtypeTest {};

TEST_P(MatmulCUDATest, Mm_MatchesCPUOverShapesAndLayouts) {
  ScalarType Dtype = GetParam();
  const int64_t Shapes[][3] = {{3, 4, 5}, {1, 7, 1}, {65, 33, 17},
                               {3, 0, 4}, {0, 3, 2}, {128, 64, 96}};
  for (const auto &S : Shapes) {
    int64_t M = S[0], K = S[1], N = S[2];
    Tensor A = operand({M, K}, Dtype, 1), B = operand({K, N}, Dtype, 2);
    Tensor Want = sk::mm(A, B);
    expectClose(sk::mm(toCUDA(A), toCUDA(B)), Want, productTolerance(Dtype, K));
    // Transposed operands (cuBLAS's op flags) and the same values.
    Tensor AT = toCUDA(A.t().contiguous()).t();
    Tensor BT = toCUDA(B.t().contiguous()).t();
    expectClose(sk::mm(AT, BT), Want, productTolerance(Dtype, K));
    expectClose(sk::mm(AT, toCUDA(B)), Want, productTolerance(Dtype, K));
  }
}

TEST_P(MatmulCUDATest, Mm_StridedOperandsAndOut) {
  ScalarType Dtype = GetParam();
  // Every other column: neither layout, so a contiguous copy is made.
  Tensor A = operand({6, 10}, Dtype, 3), B = operand({5, 4}, Dtype, 4);
  Tensor ASlice = A.as_strided({6, 5}, {10, 2}, 0);
  Tensor Want = sk::mm(ASlice, B);
  Tensor ACuda = toCUDA(A);
  expectClose(sk::mm(ACuda.as_strided({6, 5}, {10, 2}, 0), toCUDA(B)), Want,
              productTolerance(Dtype, 5));
  // A column-major out= (C^T computed directly) and a strided one.
  Tensor OutT = sk::empty({4, 6}, TensorOptions(Dtype).device(Device("cuda")));
  Tensor Out = OutT.t();
  sk::mm_out(Out, toCUDA(ASlice.contiguous()), toCUDA(B));
  expectClose(Out, Want, productTolerance(Dtype, 5));
  Tensor Wide = sk::zeros({6, 8}, TensorOptions(Dtype).device(Device("cuda")));
  Tensor Gapped = Wide.as_strided({6, 4}, {8, 2}, 0);
  sk::mm_out(Gapped, toCUDA(ASlice.contiguous()), toCUDA(B));
  expectClose(Gapped, Want, productTolerance(Dtype, 5));
}

TEST_P(MatmulCUDATest, Addmm_MatchesCPUWithBetaAlphaAndBroadcast) {
  ScalarType Dtype = GetParam();
  Tensor A = operand({9, 7}, Dtype, 5), B = operand({7, 11}, Dtype, 6);
  Tensor Bias = operand({11}, Dtype, 7), Full = operand({9, 11}, Dtype, 8);
  double Tol = productTolerance(Dtype, 7) * 4;
  expectClose(sk::addmm(toCUDA(Bias), toCUDA(A), toCUDA(B)),
              sk::addmm(Bias, A, B), Tol);
  expectClose(sk::addmm(toCUDA(Full), toCUDA(A), toCUDA(B), 2, 3),
              sk::addmm(Full, A, B, 2, 3), Tol);
  // In place, and out=.
  Tensor InPlace = toCUDA(Full);
  sk::addmm_(InPlace, toCUDA(A), toCUDA(B), 1, 2);
  expectClose(InPlace, sk::addmm(Full, A, B, 1, 2), Tol);
  Tensor Out = sk::empty({0}, TensorOptions(Dtype).device(Device("cuda")));
  sk::addmm_out(Out, toCUDA(Bias), toCUDA(A), toCUDA(B));
  expectClose(Out, sk::addmm(Bias, A, B), Tol);
}

TEST_P(MatmulCUDATest, Bmm_MatchesCPUOverBatchLayouts) {
  ScalarType Dtype = GetParam();
  Tensor A = operand({4, 5, 6}, Dtype, 9), B = operand({4, 6, 3}, Dtype, 10);
  Tensor Want = sk::bmm(A, B);
  double Tol = productTolerance(Dtype, 6);
  expectClose(sk::bmm(toCUDA(A), toCUDA(B)), Want, Tol);
  // A batch of transposed matrices, and an expanded (stride 0) batch.
  Tensor AT = sk::test::transposed(
      toCUDA(sk::test::transposed(A, 1, 2).contiguous()), 1, 2);
  expectClose(sk::bmm(AT, toCUDA(B)), Want, Tol);
  Tensor One = operand({1, 6, 3}, Dtype, 11);
  expectClose(sk::bmm(toCUDA(A), toCUDA(One).expand({4, 6, 3})),
              sk::bmm(A, One.expand({4, 6, 3})), Tol);
  Tensor Empty = operand({4, 5, 0}, Dtype, 12);
  expectClose(sk::bmm(toCUDA(Empty), toCUDA(operand({4, 0, 3}, Dtype, 13))),
              sk::bmm(Empty, operand({4, 0, 3}, Dtype, 13)));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, MatmulCUDATest,
                         ::testing::Values(kFloat, kDouble, kHalf, kBFloat16,
                                           kInt, kLong, kChar),
                         dtypeName);

class CdistCUDATest : public CUDADtypeTest {};

TEST_P(CdistCUDATest, CdistForward_MatchesCPUForEveryNorm) {
  ScalarType Dtype = GetParam();
  Tensor X1 = randomCPU({2, 30, 5}, Dtype, 1),
         X2 = randomCPU({40, 5}, Dtype, 2);
  for (double P : {0.0, 1.0, 2.0, 3.0, std::numeric_limits<double>::infinity()})
    for (int64_t Mode : {0, 1, 2})
      expectClose(sk::_cdist_forward(toCUDA(X1), toCUDA(X2), P, Mode),
                  sk::_cdist_forward(X1, X2, P, Mode), 1e-4);
  // Equal rows on the matrix-product path: |a|^2 + |b|^2 - 2 a.b cancels
  // to its rounding error, about eps |a|^2, whose square root each device
  // gets from its own gemm: distances of order sqrt(eps) |a| where the
  // exact answer is 0 (as in PyTorch). Rows here have 5 elements in
  // [-3, 3), so |a| < 6.8; the bound is 4 sqrt(eps) |a|.
  double Eps = Dtype == kFloat ? 1.2e-7 : 2.3e-16;
  expectClose(sk::_cdist_forward(toCUDA(X2), toCUDA(X2), 2, 1),
              sk::_cdist_forward(X2, X2, 2, 1), 4 * std::sqrt(Eps) * 6.8);
  Tensor Empty = randomCPU({3, 0}, Dtype, 3);
  expectClose(sk::_cdist_forward(toCUDA(Empty), toCUDA(Empty), 2, 0),
              sk::_cdist_forward(Empty, Empty, 2, 0));
  // A NaN or an infinity on the matrix-product path stays NaN where the
  // CPU's does: the clamp at 1e-30 lets NaN through, as clamp_min does.
  Tensor Special = randomCPU({2, 3}, Dtype, 4);
  Special.select(0, 0).fill_(std::nan(""));
  Special.select(0, 1).select(0, 1).fill_(
      std::numeric_limits<double>::infinity());
  expectClose(
      sk::_cdist_forward(toCUDA(Special), toCUDA(X2.narrow(1, 0, 3)), 2, 1),
      sk::_cdist_forward(Special, X2.narrow(1, 0, 3), 2, 1), 1e-4);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, CdistCUDATest,
                         ::testing::Values(kFloat, kDouble), dtypeName);

class LinearAlgebraCUDATest : public CUDATest {};

TEST_F(LinearAlgebraCUDATest, Matmul_CompositesRunOnCUDA) {
  Tensor A = randomCPU({2, 3, 4, 5}), B = randomCPU({5, 6});
  expectClose(sk::matmul(toCUDA(A), toCUDA(B)), sk::matmul(A, B));
  Tensor W = randomCPU({7, 5}), Bias = randomCPU({7});
  expectClose(sk::linear(toCUDA(A), toCUDA(W), toCUDA(Bias)),
              sk::linear(A, W, Bias));
  Tensor V = randomCPU({4});
  Tensor C = randomCPU({3, 4});
  expectClose(sk::matmul(toCUDA(C), toCUDA(V)), sk::matmul(C, V));
}

TEST_F(LinearAlgebraCUDATest, Mm_BetaZeroIgnoresNaNInSelf) {
  Tensor A = randomCPU({3, 4}), B = randomCPU({4, 2});
  Tensor Self = sk::full({3, 2}, std::numeric_limits<double>::quiet_NaN());
  expectClose(sk::addmm(toCUDA(Self), toCUDA(A), toCUDA(B), 0, 1),
              sk::mm(A, B));
}

} // namespace
