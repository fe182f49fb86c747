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

#include <vector>

namespace sk {
namespace {

using namespace cuda_kernels;

/// Whether cat skips \p T (the legacy 1-D empty tensor; catShouldSkip in
/// the CPU file).
bool catShouldSkip(const Tensor &T) { return T.dim() == 1 && T.numel() == 0; }

/// Concatenates the inputs cat does not skip along \p Dim into \p Out.
void catInto(TensorList Tensors, int64_t Dim, const Tensor &Out) {
  if (Out.numel() == 0)
    return;
  bool Fast = Out.is_contiguous();
  for (const Tensor &T : Tensors)
    Fast = Fast && (catShouldSkip(T) || (T.scalar_type() == Out.scalar_type() &&
                                         T.is_contiguous()));
  if (!Fast) {
    int64_t Offset = 0;
    for (const Tensor &T : Tensors) {
      if (catShouldSkip(T))
        continue;
      Out.narrow(Dim, Offset, T.size(Dim)).copy_(T);
      Offset += T.size(Dim);
    }
    return;
  }
  IntArrayRef Sizes = Out.sizes();
  int64_t Outer = 1, Inner = 1;
  for (int64_t D = 0; D < Dim; ++D)
    Outer *= Sizes[D];
  for (int64_t D = Dim + 1; D < Out.dim(); ++D)
    Inner *= Sizes[D];
  size_t ElemSize = Out.itemsize();
  size_t RowBytes = static_cast<size_t>(Sizes[Dim] * Inner) * ElemSize;
  char *Dst = static_cast<char *>(Out.data_ptr());
  cudaStream_t Stream = currentStream();
  for (const Tensor &T : Tensors) {
    if (catShouldSkip(T) || T.numel() == 0)
      continue;
    size_t Bytes = static_cast<size_t>(T.size(Dim) * Inner) * ElemSize;
    SK_CUDA_CHECK(cudaMemcpy2DAsync(Dst, RowBytes, T.data_ptr(), Bytes, Bytes,
                                    static_cast<size_t>(Outer),
                                    cudaMemcpyDeviceToDevice, Stream));
    Dst += Bytes;
  }
}

/// \p Tensors unsqueezed at \p Dim: stack is cat of these.
std::vector<Tensor> unsqueezeAll(TensorList Tensors, int64_t Dim) {
  std::vector<Tensor> Views;
  Views.reserve(Tensors.size());
  for (const Tensor &T : Tensors)
    Views.push_back(T.unsqueeze(Dim));
  return Views;
}

} // namespace

SK_IMPL_FUNC(cat_out_cuda)(TensorList tensors, int64_t dim, const Tensor &out) {
  catInto(tensors, dim, out);
}

SK_IMPL_FUNC(stack_out_cuda)
(TensorList tensors, int64_t dim, const Tensor &out) {
  catInto(unsqueezeAll(tensors, dim), dim, out);
}

} // namespace sk
