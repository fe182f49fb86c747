//===--- TensorLists.cu - cat and stack on CUDA ---------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA impls of cat and stack (meta functions in the CPU file). When
/// the output and every input are row-major with the output's dtype, the
/// output is Outer rows, each the inputs' row-major chunks side by side:
/// one cudaMemcpy2DAsync per input copies its chunk of every row (the
/// device's copy engines do the strided walk). Otherwise each input is
/// copied into its slice of the output with copy_, which converts dtypes
/// and handles any strides.
///
//===----------------------------------------------------------------------===//

#include "NativeFunctions.h"

#include "DeviceUtils.cuh"
#include "shared/SizesAround.h"
#include "shared/TensorLists.h"

#include <vector>

namespace sk {
namespace {

using namespace cuda_kernels;

/// Concatenates the inputs cat does not skip along \p Dim into \p Out.
void catInto(TensorList Tensors, int64_t Dim, const Tensor &Out) {
  if (Out.numel() == 0)
    return;
  if (!kernels::catCopiesBytes(Tensors, Out)) {
    kernels::catByCopies(Tensors, Dim, Out);
    return;
  }
  IntArrayRef Sizes = Out.sizes();
  auto [Outer, Inner] = kernels::sizesAround(Sizes, Dim);
  size_t ElemSize = Out.itemsize();
  size_t RowBytes = static_cast<size_t>(Sizes[Dim] * Inner) * ElemSize;
  char *Dst = static_cast<char *>(Out.data_ptr());
  cudaStream_t Stream = currentStream();
  for (const Tensor &T : Tensors) {
    if (kernels::catShouldSkip(T) || T.numel() == 0)
      continue;
    size_t Bytes = static_cast<size_t>(T.size(Dim) * Inner) * ElemSize;
    SK_CUDA_CHECK(cudaMemcpy2DAsync(Dst, RowBytes, T.data_ptr(), Bytes, Bytes,
                                    static_cast<size_t>(Outer),
                                    cudaMemcpyDeviceToDevice, Stream));
    Dst += Bytes;
  }
}

} // namespace

SK_IMPL_FUNC(cat_out_cuda)(TensorList tensors, int64_t dim, const Tensor &out) {
  catInto(tensors, dim, out);
}

SK_IMPL_FUNC(stack_out_cuda)
(TensorList tensors, int64_t dim, const Tensor &out) {
  catInto(kernels::unsqueezeAll(tensors, dim), dim, out);
}

} // namespace sk
