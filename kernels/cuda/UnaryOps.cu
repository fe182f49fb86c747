//===--- UnaryOps.cu - neg, abs, exp, sqrt, relu, gelu, ... on CUDA -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impls of the groups of cpu/UnaryOps.cpp, whose meta functions
/// they share: the same dtypes, float16 and bfloat16 computed in float32,
/// run by gpuKernel (Loops.cuh). The transcendental functions are CUDA's
/// correctly rounded or few-ulp math library functions (not the fast
/// intrinsics), and rsqrt is 1 / sqrt(x), as on the CPU.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "Loops.cuh"

#include <cmath>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace sk {
namespace {

/// Applies Op (on opmath_type) to one element of type T.
template <typename T, typename Op> struct UnaryFn {
  using M = opmath_type<T>;
  __device__ T operator()(T X) const {
    return static_cast<T>(Op::apply(static_cast<M>(X)));
  }
};

struct NegOp {
  template <typename M> __device__ static M apply(M X) {
    if constexpr (kIsInteger<M>)
      return static_cast<M>(uint64_t(0) - static_cast<uint64_t>(X));
    else
      return -X;
  }
};

struct AbsOp {
  template <typename M> __device__ static M apply(M X) {
    if constexpr (std::is_unsigned_v<M>)
      return X;
    else if constexpr (kIsInteger<M>)
      return X < 0 ? NegOp::apply(X) : X;
    else
      return fabs(X);
  }
};

/// NaN stays NaN, as clamp_min(x, 0) keeps it.
struct ReluOp {
  template <typename M> __device__ static M apply(M X) {
    if constexpr (std::is_unsigned_v<M>)
      return X;
    else
      return X < M(0) ? M(0) : X;
  }
};

#define SK_MATH_OP(Name, Expr)                                                 \
  struct Name {                                                                \
    template <typename M> __device__ static M apply(M X) { return Expr; }      \
  };
SK_MATH_OP(ExpOp, exp(X))
SK_MATH_OP(LogOp, log(X))
SK_MATH_OP(SinOp, sin(X))
SK_MATH_OP(CosOp, cos(X))
SK_MATH_OP(TanhOp, tanh(X))
SK_MATH_OP(SigmoidOp, M(1) / (M(1) + exp(-X)))
SK_MATH_OP(SqrtOp, sqrt(X))
SK_MATH_OP(RsqrtOp, M(1) / sqrt(X))
// x * Phi(x), Phi the normal distribution's CDF.
SK_MATH_OP(GeluOp, X *M(0.5) * (M(1) + erf(X * M(M_SQRT1_2))))
SK_MATH_OP(GeluTanhOp, M(0.5) * X *
                           (M(1) + tanh(M(M_SQRT2 * M_2_SQRTPI * 0.5) *
                                        (X + M(0.044715) * X * X * X))))
#undef SK_MATH_OP

/// Runs Op over \p Iter in its common dtype, one of \p Mask.
template <unsigned Mask, typename Op>
void unaryKernel(TensorIteratorBase &Iter, const char *Name) {
  dispatchDtypes<Mask>(Iter.common_dtype(), Name, [&](auto Tag) {
    cuda::gpuKernel(Iter, UnaryFn<decltype(Tag), Op>{});
  });
}

/// gelu's `approximate`, with PyTorch's message for anything else.
bool isTanhApproximation(std::string_view Approximate) {
  if (Approximate == "none")
    return false;
  SK_CHECK(Approximate == "tanh",
           "approximate argument must be either none or tanh.");
  return true;
}

} // namespace

SK_IMPL_FUNC(neg_out_cuda)(const Tensor &self, const Tensor &out) {
  unaryKernel<dtypes::All, NegOp>(*this, "neg_cuda");
}

SK_IMPL_FUNC(abs_out_cuda)(const Tensor &self, const Tensor &out) {
  unaryKernel<dtypes::All, AbsOp>(*this, "abs_cuda");
}

SK_IMPL_FUNC(exp_out_cuda)(const Tensor &self, const Tensor &out) {
  unaryKernel<dtypes::Floating, ExpOp>(*this, "exp_cuda");
}

SK_IMPL_FUNC(log_out_cuda)(const Tensor &self, const Tensor &out) {
  unaryKernel<dtypes::Floating, LogOp>(*this, "log_cuda");
}

SK_IMPL_FUNC(sin_out_cuda)(const Tensor &self, const Tensor &out) {
  unaryKernel<dtypes::Floating, SinOp>(*this, "sin_cuda");
}

SK_IMPL_FUNC(cos_out_cuda)(const Tensor &self, const Tensor &out) {
  unaryKernel<dtypes::Floating, CosOp>(*this, "cos_cuda");
}

SK_IMPL_FUNC(tanh_out_cuda)(const Tensor &self, const Tensor &out) {
  unaryKernel<dtypes::Floating, TanhOp>(*this, "tanh_cuda");
}

SK_IMPL_FUNC(sigmoid_out_cuda)(const Tensor &self, const Tensor &out) {
  unaryKernel<dtypes::Floating, SigmoidOp>(*this, "sigmoid_cuda");
}

SK_IMPL_FUNC(sqrt_out_cuda)(const Tensor &self, const Tensor &out) {
  unaryKernel<dtypes::Floating, SqrtOp>(*this, "sqrt_cuda");
}

SK_IMPL_FUNC(rsqrt_out_cuda)(const Tensor &self, const Tensor &out) {
  unaryKernel<dtypes::Floating, RsqrtOp>(*this, "rsqrt_cuda");
}

SK_IMPL_FUNC(relu_out_cuda)(const Tensor &self, const Tensor &out) {
  unaryKernel<dtypes::All, ReluOp>(*this, "relu_cuda");
}

SK_IMPL_FUNC(gelu_out_cuda)
(const Tensor &self, std::string_view approximate, const Tensor &out) {
  if (isTanhApproximation(approximate))
    unaryKernel<dtypes::Floating, GeluTanhOp>(*this, "GeluCUDAKernelImpl");
  else
    unaryKernel<dtypes::Floating, GeluOp>(*this, "GeluCUDAKernelImpl");
}

} // namespace sk
