//===--- VectorMath.h - Exp, log, sin, ... on Highway vectors ---*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// exp, log, sin, cos, tanh, sigmoid and gelu on Highway vectors of float
/// or double, with the C library's answer wherever Highway's is not
/// defined (Note [Vector math]). Per Highway target, as the loops are:
/// include it after hwy/foreach_target.h.
///
//===----------------------------------------------------------------------===//

#include <hwy/highway.h>

#include <hwy/contrib/math/math-inl.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#if defined(SKC_KERNELS_CPU_VECTORMATH_PER_TARGET) == defined(HWY_TARGET_TOGGLE)
#ifdef SKC_KERNELS_CPU_VECTORMATH_PER_TARGET
#undef SKC_KERNELS_CPU_VECTORMATH_PER_TARGET
#else
#define SKC_KERNELS_CPU_VECTORMATH_PER_TARGET
#endif

HWY_BEFORE_NAMESPACE();
namespace sk {
namespace HWY_NAMESPACE {
namespace math {

namespace hn = hwy::HWY_NAMESPACE;

// Note [Vector math]
// ~~~~~~~~~~~~~~~~~~
// Highway's Exp, Log, Sin, Cos and Tanh (hwy/contrib/math) are within 1 to
// 4 ulp of the exact result, as SLEEF's u10 functions that PyTorch calls
// are within 1, but only in a valid range: outside it (infinities, NaN,
// |x| > 39000 for sin and cos, x > 104 for exp) they are undefined. Each
// function here is an Op:
//
//   struct Op {
//     static V vec(D, V);         // Highway's, or a formula over it
//     static M valid(D, V);       // the lanes where vec is defined
//     static T scalar(T);         // the C library's, for the others
//   };
//
// apply<Op> computes vec and, in the rare vector with a lane outside the
// valid range, recomputes those lanes with scalar. applyScalar<Op> is the
// same on a vector of one lane, which is what an element loop (a strided
// tensor, a loop's tail, float16 and bfloat16) calls: an element's value
// does not depend on where the loop meets it.
//
// gelu's erf is PyTorch's own vectorised one (Abramowitz and Stegun's
// 7.1.26, absolute error below 1.5e-7 with an exact exp), so that gelu
// agrees with PyTorch's CPU kernel to the last few ulp.

template <class D, class V, class Op> V apply(D d, V X) {
  using T = hn::TFromD<D>;
  V R = Op::vec(d, X);
  auto Valid = Op::valid(d, X);
  if (HWY_LIKELY(hn::AllTrue(d, Valid)))
    return R;
  constexpr size_t MaxLanes = HWY_MAX_BYTES / sizeof(T);
  HWY_ALIGN T In[MaxLanes];
  HWY_ALIGN T Out[MaxLanes];
  uint8_t Bits[(MaxLanes + 7) / 8] = {};
  hn::Store(X, d, In);
  hn::Store(R, d, Out);
  hn::StoreMaskBits(d, Valid, Bits);
  for (size_t I = 0, N = hn::Lanes(d); I != N; ++I)
    if (!(Bits[I / 8] >> (I % 8) & 1))
      Out[I] = Op::scalar(In[I]);
  return hn::Load(d, Out);
}

/// apply<Op> of one element.
template <class Op, typename T> T applyScalar(T X) {
  const hn::CappedTag<T, 1> d;
  return hn::GetLane(
      apply<decltype(d), hn::Vec<decltype(d)>, Op>(d, hn::Set(d, X)));
}

/// apply<Op> of a full vector, for cpu_kernel_vec's vector body.
template <class Op, class V> V applyVector(V X) {
  return apply<hn::DFromV<V>, V, Op>(hn::DFromV<V>(), X);
}

/// Lanes of \p X with |x| <= \p Limit (so not NaN).
template <class D, class V> auto absAtMost(D d, V X, double Limit) {
  using T = hn::TFromD<D>;
  return hn::Le(hn::Abs(X), hn::Set(d, static_cast<T>(Limit)));
}

template <typename T> constexpr double kMax = std::numeric_limits<T>::max();
/// Where exp(x) still is finite (for larger x Highway's is undefined
/// beyond 104 in float).
template <typename T>
constexpr double kExpLimit = sizeof(T) == sizeof(float) ? 88.0 : 709.0;

struct Exp {
  template <class D, class V> static V vec(D d, V X) { return hn::Exp(d, X); }
  template <class D, class V> static auto valid(D d, V X) {
    using T = hn::TFromD<D>;
    return hn::And(hn::Le(X, hn::Set(d, T(kExpLimit<T>))),
                   hn::Ge(X, hn::Set(d, T(-kMax<T>))));
  }
  template <typename T> static T scalar(T X) { return std::exp(X); }
};

struct Log {
  template <class D, class V> static V vec(D d, V X) { return hn::Log(d, X); }
  template <class D, class V> static auto valid(D d, V X) {
    using T = hn::TFromD<D>;
    return hn::And(hn::Gt(X, hn::Zero(d)), hn::Le(X, hn::Set(d, T(kMax<T>))));
  }
  template <typename T> static T scalar(T X) { return std::log(X); }
};

struct Sin {
  template <class D, class V> static V vec(D d, V X) { return hn::Sin(d, X); }
  template <class D, class V> static auto valid(D d, V X) {
    return absAtMost(d, X, 39000);
  }
  template <typename T> static T scalar(T X) { return std::sin(X); }
};

struct Cos {
  template <class D, class V> static V vec(D d, V X) { return hn::Cos(d, X); }
  template <class D, class V> static auto valid(D d, V X) {
    return absAtMost(d, X, 39000);
  }
  template <typename T> static T scalar(T X) { return std::cos(X); }
};

struct Tanh {
  template <class D, class V> static V vec(D d, V X) { return hn::Tanh(d, X); }
  template <class D, class V> static auto valid(D d, V X) {
    return absAtMost(d, X, kMax<hn::TFromD<D>>);
  }
  template <typename T> static T scalar(T X) { return std::tanh(X); }
};

/// 1 / (1 + exp(-x)), as PyTorch computes it.
struct Sigmoid {
  template <class D, class V> static V vec(D d, V X) {
    const V One = hn::Set(d, hn::TFromD<D>(1));
    return hn::Div(One, hn::Add(One, hn::Exp(d, hn::Neg(X))));
  }
  template <class D, class V> static auto valid(D d, V X) {
    return Exp::valid(d, hn::Neg(X));
  }
  template <typename T> static T scalar(T X) {
    return T(1) / (T(1) + std::exp(-X));
  }
};

/// x * Phi(x), Phi the normal distribution's CDF: x/2 (1 + erf(x / sqrt 2)).
struct GeluErf {
  template <class D, class V> static V vec(D d, V X) {
    using T = hn::TFromD<D>;
    const V One = hn::Set(d, T(1));
    V Z = hn::Mul(X, hn::Set(d, T(M_SQRT1_2)));
    // erf(z) = sign(z) (1 - r(t) t exp(-z^2)), t = 1 / (1 + p |z|).
    V A = hn::Abs(Z);
    V Sign = hn::Xor(Z, A);
    V TT = hn::Div(One, hn::MulAdd(hn::Set(d, T(0.3275911)), A, One));
    V R =
        hn::MulAdd(hn::Set(d, T(1.061405429)), TT, hn::Set(d, T(-1.453152027)));
    R = hn::MulAdd(R, TT, hn::Set(d, T(1.421413741)));
    R = hn::MulAdd(R, TT, hn::Set(d, T(-0.284496736)));
    R = hn::MulAdd(R, TT, hn::Set(d, T(0.254829592)));
    V E = hn::Exp(d, hn::Neg(hn::Mul(Z, Z)));
    V Erf = hn::Or(Sign, hn::NegMulAdd(hn::Mul(R, TT), E, One));
    return hn::Mul(hn::Mul(X, hn::Set(d, T(0.5))), hn::Add(One, Erf));
  }
  template <class D, class V> static auto valid(D d, V X) {
    // z^2 stays finite, so exp's argument is in its range.
    return absAtMost(d, X, 1e4);
  }
  template <typename T> static T scalar(T X) {
    return X * T(0.5) * (T(1) + std::erf(X * T(M_SQRT1_2)));
  }
};

/// gelu's tanh approximation, with PyTorch's constants.
struct GeluTanh {
  template <class D, class V> static V vec(D d, V X) {
    using T = hn::TFromD<D>;
    const V Beta = hn::Set(d, T(M_SQRT2 * M_2_SQRTPI * 0.5));
    const V Kappa = hn::Set(d, T(0.044715));
    V Cube = hn::Mul(hn::Mul(X, X), X);
    V Inner = hn::Mul(Beta, hn::MulAdd(Kappa, Cube, X));
    V Half = hn::Mul(X, hn::Set(d, T(0.5)));
    return hn::Mul(Half, hn::Add(hn::Set(d, T(1)), hn::Tanh(d, Inner)));
  }
  template <class D, class V> static auto valid(D d, V X) {
    // x^3 stays finite.
    return absAtMost(d, X, 1e12);
  }
  template <typename T> static T scalar(T X) {
    const T Beta = T(M_SQRT2 * M_2_SQRTPI * 0.5);
    const T Kappa = T(0.044715);
    return T(0.5) * X * (T(1) + std::tanh(Beta * (X + Kappa * X * X * X)));
  }
};

/// pow(B, E) on a full vector. float: in double, from Highway's double Log
/// and Exp, then rounded once, so that the result is the correctly rounded
/// one but for the rarest ties; lanes where that is not defined (B <= 0,
/// infinities, NaN, a product beyond exp's range) and double vectors take
/// the C library's pow.
template <class V> V powVector(V B, V E) {
  using D = hn::DFromV<V>;
  using T = hn::TFromD<D>;
  const D d;
  constexpr size_t MaxLanes = HWY_MAX_BYTES / sizeof(T);
  HWY_ALIGN T Base[MaxLanes];
  HWY_ALIGN T Exponent[MaxLanes];
  HWY_ALIGN T Out[MaxLanes];
#if HWY_TARGET != HWY_SCALAR
  if constexpr (std::is_same_v<T, float>) {
    if (hn::Lanes(d) >= 2) {
      const hn::Half<D> dh;
      const hn::RepartitionToWide<D> dw;
      auto Wide = [&](auto X, bool Upper) {
        return Upper ? hn::PromoteTo(dw, hn::UpperHalf(dh, X))
                     : hn::PromoteTo(dw, hn::LowerHalf(dh, X));
      };
      auto Valid = hn::And(hn::Gt(B, hn::Zero(d)),
                           hn::And(hn::Le(B, hn::Set(d, kMax<float>)),
                                   absAtMost(d, E, kMax<float>)));
      auto Half = [&](bool Upper) {
        auto P = hn::Mul(Wide(E, Upper), hn::Log(dw, Wide(B, Upper)));
        return std::make_pair(hn::DemoteTo(dh, hn::Exp(dw, P)),
                              absAtMost(dw, P, 700));
      };
      auto [Lo, LoValid] = Half(false);
      auto [Hi, HiValid] = Half(true);
      V R = hn::Combine(d, Hi, Lo);
      if (HWY_LIKELY(hn::AllTrue(d, Valid) && hn::AllTrue(dw, LoValid) &&
                     hn::AllTrue(dw, HiValid)))
        return R;
    }
  }
#endif
  hn::Store(B, d, Base);
  hn::Store(E, d, Exponent);
  for (size_t I = 0, N = hn::Lanes(d); I != N; ++I)
    Out[I] = std::pow(Base[I], Exponent[I]);
  return hn::Load(d, Out);
}

} // namespace math
} // namespace HWY_NAMESPACE
} // namespace sk
HWY_AFTER_NAMESPACE();

#endif // SKC_KERNELS_CPU_VECTORMATH_PER_TARGET
