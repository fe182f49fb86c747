//===--- PrivateUse1Kernels.cpp - Functional-only PrivateUse1 kernels -----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A backend that supplies only the functional kernels of gneg and gmul
/// (seed 002): skc generates their inplace and out= kernels. The test's
/// PrivateUse1 device keeps its tensors in host memory, so these kernels
/// read and write them directly. Its copy kernel (sk::_copy_from, Note
/// [Copies between backends]) is what the generated out= and inplace
/// kernels store their results with.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "sk/dispatch/Library.h"

#include <cstring>

namespace sk {

/// Checks what these kernels support: contiguous float tensors.
static void checkFloatContiguous(const char *Op, const Tensor &T) {
  SK_CHECK(T.scalar_type() == kFloat, Op,
           "(): the PrivateUse1 kernel takes float tensors, not ",
           T.scalar_type());
  SK_CHECK(T.is_contiguous(), Op,
           "(): the PrivateUse1 kernel takes contiguous tensors");
}

Tensor SK_NATIVE_FUNC(gneg_privateuse1)(const Tensor &self) {
  checkFloatContiguous("gneg", self);
  Tensor Result = detail::empty_generic(self.sizes(), kFloat, self.device());
  const float *In = self.data_ptr<float>();
  float *Out = Result.data_ptr<float>();
  for (int64_t I = 0, N = self.numel(); I != N; ++I)
    Out[I] = -In[I];
  return Result;
}

Tensor SK_NATIVE_FUNC(gmul_privateuse1)(const Tensor &self,
                                        const Tensor &other) {
  checkFloatContiguous("gmul", self);
  checkFloatContiguous("gmul", other);
  // Broadcasting stops at one-element operands, which is all the test
  // needs (an inplace self smaller than the result).
  bool SelfIsOne = self.numel() == 1 && other.numel() != 1;
  bool OtherIsOne = other.numel() == 1;
  SK_CHECK(SelfIsOne || OtherIsOne || self.sizes() == other.sizes(),
           "gmul(): the PrivateUse1 kernel broadcasts only one-element "
           "tensors: sizes ",
           self.sizes(), " and ", other.sizes());
  const Tensor &Shape = SelfIsOne ? other : self;
  Tensor Result = detail::empty_generic(Shape.sizes(), kFloat, self.device());
  const float *A = self.data_ptr<float>();
  const float *B = other.data_ptr<float>();
  float *Out = Result.data_ptr<float>();
  for (int64_t I = 0, N = Result.numel(); I != N; ++I)
    Out[I] = A[SelfIsOne ? 0 : I] * B[OtherIsOne ? 0 : I];
  return Result;
}

/// Copies the elements of \p Src into \p Dst (same sizes and dtype, any
/// strides), dimension \p Dim onwards.
static void copyStrided(const Tensor &Dst, const Tensor &Src, int64_t Dim,
                        char *To, const char *From) {
  size_t Size = Dst.itemsize();
  if (Dim == Dst.dim()) {
    std::memcpy(To, From, Size);
    return;
  }
  for (int64_t I = 0; I != Dst.size(Dim); ++I)
    copyStrided(Dst, Src, Dim + 1, To + I * Dst.stride(Dim) * Size,
                From + I * Src.stride(Dim) * Size);
}

/// sk::_copy_from for PrivateUse1: host memory on both sides.
static Tensor copyFromPrivateUse1(const Tensor &Src, const Tensor &Dst,
                                  bool /*NonBlocking*/) {
  SK_CHECK(Src.scalar_type() == Dst.scalar_type(),
           "_copy_from(): the PrivateUse1 backend copies without converting: "
           "dtypes ",
           Src.scalar_type(), " and ", Dst.scalar_type());
  SK_CHECK(Src.sizes() == Dst.sizes(), "_copy_from(): sizes ", Src.sizes(),
           " and ", Dst.sizes());
  copyStrided(Dst, Src, 0, static_cast<char *>(Dst.data_ptr()),
              static_cast<const char *>(Src.data_ptr()));
  return Dst;
}

SK_LIBRARY_IMPL(sk, PrivateUse1, m) {
  m.impl("_copy_from", SK_FN(copyFromPrivateUse1));
}

} // namespace sk
