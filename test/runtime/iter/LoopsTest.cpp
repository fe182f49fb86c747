//===--- LoopsTest.cpp - Elementwise CPU loops ----------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/Loops.h"

#include "sk/iter/TypePromotion.h"

#include "IterTestUtils.h"

#include <atomic>
#include <cmath>

using namespace sk;
using namespace sk::test;

namespace {

/// Restores the thread count when a test ends.
struct ThreadCountGuard {
  int Saved = get_num_threads();
  ~ThreadCountGuard() { set_num_threads(Saved); }
};

/// A + B elementwise with cpu_kernel_vec in the common dtype; counts the
/// calls of the vector body in \p VecCalls.
Tensor addVec(const Tensor &A, const Tensor &B, int64_t *VecCalls = nullptr,
              int64_t GrainSize = kGrainSize) {
  TensorIterator Iter = TensorIterator::binary_op(Tensor(), A, B);
  visitScalarType(Iter.common_dtype(), [&](auto Tag) {
    using T = decltype(Tag);
    if constexpr (std::is_same_v<T, bool>) {
      cpu_kernel(Iter, [](bool X, bool Y) { return X || Y; });
    } else {
      cpu_kernel_vec(
          Iter,
          [](T X, T Y) -> T {
            return T(opmath_type<T>(X) + opmath_type<T>(Y));
          },
          [&](auto X, auto Y) {
            if (VecCalls)
              ++*VecCalls;
            return hn::Add(X, Y);
          },
          GrainSize);
    }
  });
  return Iter.output();
}

std::vector<double> addRef(const std::vector<double> &A,
                           const std::vector<double> &B) {
  std::vector<double> R(A.size());
  for (size_t I = 0; I != A.size(); ++I)
    R[I] = A[I] + B[I];
  return R;
}

TEST(LoopsTest, CpuKernel_ContiguousFloatAdd) {
  Tensor A = arange({5, 7}), B = arange({5, 7}, kFloat, 10, 1);
  TensorIterator Iter = TensorIterator::binary_op(Tensor(), A, B);
  cpu_kernel(Iter, [](float X, float Y) { return X + Y; });
  EXPECT_EQ(toVector<double>(Iter.output()), addRef(iota(35), iota(35, 10, 1)));
}

TEST(LoopsTest, CpuKernel_StridedAndBroadcastOperands) {
  Tensor A = transposed(arange({6, 4}), 0, 1); // {4, 6}, non-contiguous
  Tensor B = arange({6}, kFloat, 100);         // broadcast over rows
  TensorIterator Iter = TensorIterator::binary_op(Tensor(), A, B);
  cpu_kernel(Iter, [](float X, float Y) { return X + Y; });
  std::vector<double> Expected;
  for (int R = 0; R < 4; ++R)
    for (int C = 0; C < 6; ++C)
      Expected.push_back(C * 4 + R + C * 100);
  EXPECT_EQ(toVector<double>(Iter.output()), Expected);
}

TEST(LoopsTest, CpuKernel_MixedDtypesConvertPerElement) {
  Tensor A = arange({4}, kInt, 1, -2); // -2, -1, 0, 1
  Tensor B = fromVector<double>({0.5, 0.25, 0.125, 2}, {4}, kFloat);
  TensorIterator Iter = TensorIterator::binary_op(Tensor(), A, B);
  ASSERT_EQ(Iter.common_dtype(), kFloat);
  cpu_kernel(Iter, [](float X, float Y) { return X * Y; });
  EXPECT_EQ(toVector<double>(Iter.output()),
            std::vector<double>({-1, -0.25, 0, 2}));

  // Into a wider output (cast_common_dtype_to_outputs).
  Tensor Out = detail::empty_cpu({4}, kDouble);
  TensorIterator Wide = TensorIterator::binary_op(Out, A, B);
  cpu_kernel(Wide, [](float X, float Y) { return X + Y; });
  EXPECT_EQ(toVector<double>(Out),
            std::vector<double>({-1.5, -0.75, 0.125, 3}));
}

TEST(LoopsTest, CpuKernel_FloatIntoIntegerOutput_ConvertsAsCopyDoes) {
  // Note [Defined element conversions]: truncated into int64, wrapped into
  // the narrower type; NaN and the infinities are INT64_MIN before that.
  // A plain static_cast would be undefined for all but the first two.
  const double Inf = INFINITY;
  Tensor In =
      fromVector<double>({2.75, -1, 3e9, -3e9, NAN, Inf, -Inf}, {7}, kFloat);
  for (auto [Dtype, Expected] :
       {std::pair{kInt, std::vector<int64_t>{2, -1, -1294967296, 1294967296, 0,
                                             0, 0}},
        std::pair{kShort, std::vector<int64_t>{2, -1, 24064, -24064, 0, 0, 0}},
        std::pair{kByte, std::vector<int64_t>{2, 255, 0, 0, 0, 0, 0}}}) {
    Tensor Out = detail::empty_cpu({7}, Dtype);
    TensorIterator Iter = TensorIteratorConfig()
                              .check_all_same_dtype(false)
                              .add_output(Out)
                              .add_input(In)
                              .build();
    cpu_kernel(Iter, [](float X) { return X; });
    EXPECT_EQ(toVector<int64_t>(Out), Expected) << Dtype;
  }
}

TEST(LoopsTest, CpuKernel_WrappedNumberOperand) {
  Tensor A = arange({3}, kChar);
  Tensor S = wrapped_scalar_tensor(100);
  TensorIterator Iter = TensorIterator::binary_op(Tensor(), A, S);
  ASSERT_EQ(Iter.common_dtype(), kChar);
  cpu_kernel(Iter, [](int8_t X, int8_t Y) { return int8_t(X + Y); });
  EXPECT_EQ(toVector<int64_t>(Iter.output()),
            std::vector<int64_t>({100, 101, 102}));
}

TEST(LoopsTest, CpuKernel_HalfAndBFloat16ComputeInFloat) {
  // In float16 arithmetic 300 * 300 and -60000 * 2 overflow to inf;
  // computed in float and rounded once, the results are exact.
  Tensor A = fromVector<double>({300, -60000}, {2}, kHalf);
  Tensor B = fromVector<double>({300, 2}, {2}, kHalf);
  TensorIterator Iter = TensorIterator::binary_op(Tensor(), A, B);
  ASSERT_EQ(Iter.common_dtype(), kHalf);
  cpu_kernel(Iter, [](Half X, Half Y) {
    opmath_type<Half> MX = X, MY = Y;
    return Half(MX * MY / 100.0f + MX / 300.0f);
  });
  EXPECT_EQ(toVector<double>(Iter.output()), std::vector<double>({901, -1400}));
}

TEST(LoopsTest, CpuKernel_BFloat16) {
  Tensor A = fromVector<double>({1, 256}, {2}, kBFloat16);
  Tensor B = fromVector<double>({3, 2}, {2}, kBFloat16);
  TensorIterator Iter = TensorIterator::binary_op(Tensor(), A, B);
  cpu_kernel(Iter, [](BFloat16 X, BFloat16 Y) {
    return BFloat16(float(X) * 1000.0f / float(Y));
  });
  // 1000/3 = 333.33 -> bfloat16 rounds to 334; 256000/2 = 128000 -> 128000.
  EXPECT_EQ(toVector<double>(Iter.output()),
            std::vector<double>({334, 128000}));
}

TEST(LoopsTest, CpuKernelVec_ContiguousUsesVectorBody) {
  for (int64_t N : {0, 1, 7, 8, 31, 32, 33, 1000}) {
    int64_t VecCalls = 0;
    Tensor Out = addVec(arange({N}), arange({N}, kFloat, 2), &VecCalls);
    EXPECT_EQ(toVector<double>(Out), addRef(iota(N), iota(N, 2)))
        << "N = " << N;
    if (N >= 64) {
      EXPECT_GT(VecCalls, 0) << "N = " << N;
    }
  }
}

TEST(LoopsTest, CpuKernelVec_BroadcastScalarInput) {
  for (int Pos = 0; Pos < 2; ++Pos) {
    int64_t VecCalls = 0;
    Tensor A = arange({300}, kDouble), S = arange({1}, kDouble, 1, 7);
    Tensor Out = Pos == 0 ? addVec(A, S, &VecCalls) : addVec(S, A, &VecCalls);
    EXPECT_EQ(toVector<double>(Out), iota(300, 1, 7));
    EXPECT_GT(VecCalls, 0);
  }
}

TEST(LoopsTest, CpuKernelVec_StridedFallsBackToScalar) {
  int64_t VecCalls = 0;
  Tensor A = transposed(arange({10, 20}, kInt), 0, 1);
  Tensor B = arange({20, 10}, kInt);
  Tensor Out = addVec(A, B, &VecCalls);
  std::vector<double> Expected;
  for (int R = 0; R < 20; ++R)
    for (int C = 0; C < 10; ++C)
      Expected.push_back(C * 20 + R + R * 10 + C);
  EXPECT_EQ(toVector<double>(Out), Expected);
}

TEST(LoopsTest, CpuKernelVec_AllDtypes) {
  for (ScalarType T : {kBool, kByte, kChar, kShort, kInt, kLong, kHalf,
                       kBFloat16, kFloat, kDouble}) {
    Tensor A = arange({70}, T, 0.0, 1), B = arange({70}, T, 0.0, 1);
    Tensor Out = addVec(A, B);
    ASSERT_EQ(Out.dtype(), T);
    std::vector<double> Expected(70, T == kBool ? 1 : 2);
    EXPECT_EQ(toVector<double>(Out), Expected) << T;
  }
}

TEST(LoopsTest, CpuKernelVec_MixedDtypesConvert) {
  int64_t VecCalls = 0;
  Tensor Out = addVec(arange({100}, kInt), arange({100}, kDouble), &VecCalls);
  EXPECT_EQ(Out.dtype(), kDouble);
  EXPECT_EQ(toVector<double>(Out), iota(100, 2));
  EXPECT_EQ(VecCalls, 0);
}

TEST(LoopsTest, CpuKernelVec_ParallelMatchesSerial) {
  ThreadCountGuard Guard;
  Tensor A = arange({3, 50000}, kFloat, 0.5), B = arange({50000}, kFloat, 2);
  set_num_threads(1);
  std::vector<double> Serial = toVector<double>(addVec(A, B));
  set_num_threads(2);
  std::vector<double> Parallel = toVector<double>(addVec(A, B, nullptr, 1000));
  EXPECT_EQ(Serial, Parallel);
  EXPECT_EQ(Serial[50000 + 3], (50000 + 3) * 0.5 + 3 * 2);
}

TEST(LoopsTest, NullaryKernel_FillsOutput) {
  Tensor Out = transposed(detail::empty_cpu({3, 4}, kLong), 0, 1);
  TensorIterator Iter = TensorIterator::nullary_op(Out);
  cpu_kernel(Iter, []() -> int64_t { return 42; });
  EXPECT_EQ(toVector<int64_t>(Out), std::vector<int64_t>(12, 42));
}

TEST(LoopsTest, SerialKernel_RunsOnCaller) {
  ThreadCountGuard Guard;
  set_num_threads(2);
  Tensor A = arange({100000});
  TensorIterator Iter = TensorIterator::unary_op(Tensor(), A);
  std::atomic<int> Outside{0};
  cpu_serial_kernel(Iter, [&](float X) {
    if (in_parallel_region())
      ++Outside;
    return -X;
  });
  EXPECT_EQ(Outside.load(), 0);
  EXPECT_EQ(toVector<double>(Iter.output())[99999], -99999);
}

TEST(LoopsTest, MultipleOutputs_WriteEachOutput) {
  Tensor In = fromVector<double>({1.5, -2.25, 3}, {3});
  TensorIterator Iter = TensorIteratorConfig()
                            .add_owned_output(Tensor())
                            .add_owned_output(Tensor())
                            .add_input(In)
                            .build();
  cpu_kernel_multiple_outputs(Iter, [](float X) {
    float Int = std::trunc(X);
    return std::make_tuple(Int, X - Int);
  });
  EXPECT_EQ(toVector<double>(Iter.output(0)), std::vector<double>({1, -2, 3}));
  EXPECT_EQ(toVector<double>(Iter.output(1)),
            std::vector<double>({0.5, -0.25, 0}));
}

TEST(LoopsTest, ArityMismatch_IsInternalError) {
  TensorIterator Iter =
      TensorIterator::binary_op(Tensor(), arange({2}), arange({2}));
  expectError([&] { cpu_kernel(Iter, [](float X) { return X; }); },
              "kernel takes 1 inputs but the iterator has 2");
}

} // namespace
