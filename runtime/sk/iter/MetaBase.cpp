//===--- MetaBase.cpp - The base of every structured kernel ---------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/MetaBase.h"

#include "sk/util/SmallVector.h"

namespace sk {
namespace impl {

void MetaBase::set_output_strided(int64_t, IntArrayRef, IntArrayRef,
                                  TensorOptions) {
  SK_INTERNAL_ASSERT(false, "set_output_strided not implemented");
}

void MetaBase::set_output_raw_strided(int64_t, IntArrayRef, IntArrayRef,
                                      TensorOptions) {
  SK_INTERNAL_ASSERT(false, "set_output_raw_strided not implemented");
}

void MetaBase::set_output_contiguous(int64_t OutputIdx, IntArrayRef Sizes,
                                     TensorOptions Options) {
  DimVector Strides(Sizes.size());
  int64_t Stride = 1;
  for (size_t I = Sizes.size(); I-- > 0;) {
    Strides[I] = Stride;
    Stride *= Sizes[I] > 1 ? Sizes[I] : 1;
  }
  set_output_strided(OutputIdx, Sizes, Strides, Options);
}

} // namespace impl
} // namespace sk
