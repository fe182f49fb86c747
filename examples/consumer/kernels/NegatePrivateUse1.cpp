//===--- NegatePrivateUse1.cpp - negate for the PrivateUse1 backend -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A backend that supplies only the functional kernel of an operator
/// (seed 002): skc generates negate_ and negate.out for PrivateUse1 from it.
/// The example's PrivateUse1 device keeps its tensors in host memory (see
/// main.cpp), so the kernel reads and writes them directly. The backend's
/// copy (sk::_copy_from) is what the generated negate_ and negate.out store
/// their result with.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "sk/dispatch/Library.h"

#include <cstring>

namespace sk {

Tensor SK_NATIVE_FUNC(negate_privateuse1)(const Tensor &self) {
  SK_CHECK(self.scalar_type() == kFloat,
           "negate(): the PrivateUse1 kernel takes float tensors, not ",
           self.scalar_type());
  SK_CHECK(self.is_contiguous(),
           "negate(): the PrivateUse1 kernel takes contiguous tensors");
  Tensor Result = detail::empty_generic(self.sizes(), kFloat, self.device());
  const float *In = self.data_ptr<float>();
  float *Out = Result.data_ptr<float>();
  for (int64_t I = 0, N = self.numel(); I != N; ++I)
    Out[I] = -In[I];
  return Result;
}

/// sk::_copy_from for PrivateUse1: host memory on both sides, contiguous
/// tensors of one dtype (all this example's backend makes).
static Tensor copyFromPrivateUse1(const Tensor &Src, const Tensor &Dst,
                                  bool /*NonBlocking*/) {
  SK_CHECK(Src.scalar_type() == Dst.scalar_type() &&
               Src.sizes() == Dst.sizes() && Src.is_contiguous() &&
               Dst.is_contiguous(),
           "_copy_from(): the PrivateUse1 backend copies contiguous tensors "
           "of one dtype and size");
  std::memcpy(Dst.data_ptr(), Src.data_ptr(), Src.nbytes());
  return Dst;
}

SK_LIBRARY_IMPL(sk, PrivateUse1, m) {
  m.impl("_copy_from", SK_FN(copyFromPrivateUse1));
}

} // namespace sk
