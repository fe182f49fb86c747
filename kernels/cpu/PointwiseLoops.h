//===--- PointwiseLoops.h - The pointwise kernels' loops --------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The loops the pointwise kernels (BinaryOps.cpp, UnaryOps.cpp) run their
/// element functions with: a small contiguous iteration inline, else
/// cpu_kernel_vec with a Highway body for float and double, else
/// cpu_kernel; element functions compute in opmath_type (float for Half
/// and BFloat16). Per Highway target, as the loops are: include it after
/// hwy/foreach_target.h.
///
//===----------------------------------------------------------------------===//

#include "sk/Kernel.h"
#include "sk/iter/Loops.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>

// Once per Highway target (Note [Highway dynamic dispatch] in
// sk/iter/Loops.h).
#if defined(SKC_KERNELS_CPU_POINTWISELOOPS_PER_TARGET) ==                      \
    defined(HWY_TARGET_TOGGLE)
#ifdef SKC_KERNELS_CPU_POINTWISELOOPS_PER_TARGET
#undef SKC_KERNELS_CPU_POINTWISELOOPS_PER_TARGET
#else
#define SKC_KERNELS_CPU_POINTWISELOOPS_PER_TARGET
#endif

HWY_BEFORE_NAMESPACE();
namespace sk {
namespace HWY_NAMESPACE {

// Note [Small contiguous iterations]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// for_each's generic walk costs about 450 instructions a call (the stride
// and pointer vectors of serial_for_each, a type-erased 2-d body, the
// checks of cpu_kernel_vec): more than the arithmetic below a few hundred
// elements, and a third of a functional add of 1-element tensors. An
// iteration of one contiguous dimension whose operands all have the
// kernel's dtype and that is below the grain size (so that for_each would
// run it on the calling thread anyway) runs here instead, as one inline
// loop the compiler vectorizes. Everything else, the large contiguous
// case included, goes through cpu_kernel_vec / cpu_kernel.

/// Runs \p Elem (NumInputs values of T to a T) over \p Iter inline when
/// Note [Small contiguous iterations] allows; returns whether it did.
template <typename T, int NumInputs, typename Fn>
bool runSmallContiguous(TensorIteratorBase &Iter, const Fn &Elem) {
  // is_contiguous() without its second pass over the shape: a built CPU
  // iterator has coalesced a contiguous iteration into one dimension.
  IntArrayRef Shape = Iter.shape();
  if (Shape.size() > 1)
    return false;
  int64_t N = Shape.empty() ? 1 : Shape[0];
  if (N >= kGrainSize)
    return false;
  for (int Arg = 0; Arg <= NumInputs; ++Arg)
    if (Iter.dtype(Arg) != scalarTypeOf<T>() ||
        (N > 1 && Iter.strides(Arg)[0] != int64_t(sizeof(T))))
      return false;
  T *Out = static_cast<T *>(Iter.data_ptr(0));
  const T *A = static_cast<const T *>(Iter.data_ptr(1));
  if constexpr (NumInputs == 1) {
    for (int64_t I = 0; I < N; ++I)
      Out[I] = Elem(A[I]);
  } else {
    const T *B = static_cast<const T *>(Iter.data_ptr(2));
    for (int64_t I = 0; I < N; ++I)
      Out[I] = Elem(A[I], B[I]);
  }
  return true;
}

// Note [Reduced floats on float vectors]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// float16 and bfloat16 compute in float32 (opmath_type). A row whose
// operands are all contiguous (or, for an input, one value broadcast) and
// of the kernel's dtype is converted a chunk at a time into float32
// buffers on the stack, run through the float32 vector body, and rounded
// back, as PyTorch's Vectorized<BFloat16> does; the chunk's tail and every
// other row run the element function, which computes the same values
// (Note [Vector math] in VectorMath.h).

/// The loop of Note [Reduced floats on float vectors] for \p NumInputs
/// inputs of type \p T, float16 or bfloat16.
template <typename T, int NumInputs, typename Fn, typename VecFn>
void reducedFloatKernel(TensorIteratorBase &Iter, const Fn &Elem,
                        const VecFn &VecOp) {
  for (int Arg = 0; Arg <= NumInputs; ++Arg)
    if (Iter.dtype(Arg) != scalarTypeOf<T>()) {
      cpu_kernel(Iter, Elem);
      return;
    }
  Iter.for_each([&](char **Data, const int64_t *Strides, int64_t N) {
    // Inputs may also be one value broadcast (stride 0).
    bool Contiguous = Strides[0] == int64_t(sizeof(T));
    for (int Arg = 1; Arg <= NumInputs; ++Arg)
      Contiguous &= Strides[Arg] == int64_t(sizeof(T)) || Strides[Arg] == 0;
    T *Out = reinterpret_cast<T *>(Data[0]);
    const T *A = reinterpret_cast<const T *>(Data[1]);
    const T *B = reinterpret_cast<const T *>(Data[NumInputs]);
    const int64_t StepA = Strides[1] == 0 ? 0 : 1;
    const int64_t StepB = Strides[NumInputs] == 0 ? 0 : 1;
    if (!Contiguous) {
      for (int64_t I = 0; I < N; ++I) {
        auto At = [&](int Arg) {
          return *reinterpret_cast<const T *>(Data[Arg] + I * Strides[Arg]);
        };
        T R;
        if constexpr (NumInputs == 1)
          R = Elem(At(1));
        else
          R = Elem(At(1), At(2));
        *reinterpret_cast<T *>(Data[0] + I * Strides[0]) = R;
      }
      return;
    }
    const hn::ScalableTag<float> D;
    const int64_t L = static_cast<int64_t>(hn::Lanes(D));
    constexpr int64_t Chunk = 256;
    HWY_ALIGN float BufA[Chunk];
    HWY_ALIGN float BufB[NumInputs == 2 ? Chunk : 1];
    for (int64_t Begin = 0; Begin < N; Begin += Chunk) {
      int64_t Len = std::min(Chunk, N - Begin);
      int64_t Vectors = Len / L * L;
      // Two loops, not one with a step, so that the compiler vectorizes
      // the conversion.
      auto Widen = [&](const T *In, int64_t Step, float *Buf) {
        if (Step == 0) {
          std::fill(Buf, Buf + Vectors, static_cast<float>(In[0]));
          return;
        }
        for (int64_t I = 0; I < Vectors; ++I)
          Buf[I] = static_cast<float>(In[Begin + I]);
      };
      Widen(A, StepA, BufA);
      if constexpr (NumInputs == 2)
        Widen(B, StepB, BufB);
      for (int64_t I = 0; I < Vectors; I += L) {
        if constexpr (NumInputs == 1)
          hn::Store(VecOp(hn::Load(D, BufA + I)), D, BufA + I);
        else
          hn::Store(VecOp(hn::Load(D, BufA + I), hn::Load(D, BufB + I)), D,
                    BufA + I);
      }
      for (int64_t I = 0; I < Vectors; ++I)
        Out[Begin + I] = static_cast<T>(BufA[I]);
      for (int64_t I = Vectors; I < Len; ++I) {
        if constexpr (NumInputs == 1)
          Out[Begin + I] = Elem(A[(Begin + I) * StepA]);
        else
          Out[Begin + I] = Elem(A[(Begin + I) * StepA], B[(Begin + I) * StepB]);
      }
    }
  });
}

/// Runs the binary op \p Op over \p Iter, whose common dtype has C++ type
/// \p T. \p Op takes and returns opmath_type<T> (float for Half and
/// BFloat16). float and double run \p VecOp on Highway vectors where rows
/// are contiguous (cpu_kernel_vec); \p VecOp is instantiated for them
/// only.
template <typename T, typename Fn, typename VecFn>
void binaryKernel(TensorIteratorBase &Iter, Fn Op, VecFn VecOp) {
  using M = opmath_type<T>;
  auto Elem = [Op](T A, T B) -> T {
    return static_cast<T>(Op(static_cast<M>(A), static_cast<M>(B)));
  };
  if (runSmallContiguous<T, 2>(Iter, Elem))
    return;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
    cpu_kernel_vec(Iter, Elem, VecOp);
  else if constexpr (std::is_same_v<M, float>)
    reducedFloatKernel<T, 2>(Iter, Elem, VecOp);
  else
    cpu_kernel(Iter, Elem);
}

/// binaryKernel without a vector body.
template <typename T, typename Fn>
void binaryScalarKernel(TensorIteratorBase &Iter, Fn Op) {
  using M = opmath_type<T>;
  auto Elem = [Op](T A, T B) -> T {
    return static_cast<T>(Op(static_cast<M>(A), static_cast<M>(B)));
  };
  if (!runSmallContiguous<T, 2>(Iter, Elem))
    cpu_kernel(Iter, Elem);
}

/// The unary counterpart of binaryKernel, for the Scalar overloads (Note
/// [Scalar operands kept out of the iterator]).
template <typename T, typename Fn, typename VecFn>
void unaryKernel(TensorIteratorBase &Iter, Fn Op, VecFn VecOp) {
  using M = opmath_type<T>;
  auto Elem = [Op](T A) -> T { return static_cast<T>(Op(static_cast<M>(A))); };
  if (runSmallContiguous<T, 1>(Iter, Elem))
    return;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
    cpu_kernel_vec(Iter, Elem, VecOp);
  else if constexpr (std::is_same_v<M, float>)
    reducedFloatKernel<T, 1>(Iter, Elem, VecOp);
  else
    cpu_kernel(Iter, Elem);
}

/// unaryKernel without a vector body.
template <typename T, typename Fn>
void unaryScalarKernel(TensorIteratorBase &Iter, Fn Op) {
  using M = opmath_type<T>;
  auto Elem = [Op](T A) -> T { return static_cast<T>(Op(static_cast<M>(A))); };
  if (!runSmallContiguous<T, 1>(Iter, Elem))
    cpu_kernel(Iter, Elem);
}

/// A Highway vector of \p V's type with every lane \p X.
template <typename V, typename S> inline V splat(S X) {
  const hn::DFromV<V> D;
  return hn::Set(D, static_cast<hn::TFromV<V>>(X));
}

} // namespace HWY_NAMESPACE
} // namespace sk
HWY_AFTER_NAMESPACE();

#endif // SKC_KERNELS_CPU_POINTWISELOOPS_PER_TARGET
