//===--- CUDAKernels.h - The runtime's CUDA kernels -------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA kernels of the runtime's own operators (copies, fills, the
/// factories), which CUDARegistration.cpp registers for the CUDA key. They
/// take and return what the operators' schemas say; callers go through the
/// dispatcher (`t.copy_(src)`, `t.to(device)`, `sk::zeros(..., device)`).
///
//===----------------------------------------------------------------------===//

#ifndef SK_CUDA_CUDAKERNELS_H
#define SK_CUDA_CUDAKERNELS_H

#include "sk/core/Tensor.h"
#include "sk/ops/Generator.h"

#include <optional>

namespace sk {
namespace cuda {
namespace native {

/// sk::_copy_from: \p Dst = \p Src (already expanded to Dst's sizes), one
/// of them on a CUDA device. Note [CUDA copies] in CUDACopy.cpp.
Tensor copy_from_cuda(const Tensor &Src, const Tensor &Dst, bool NonBlocking);

/// sk::_fill_: every element of the CUDA tensor \p Self = \p Value.
void fill_cuda(Tensor &Self, const Scalar &Value);

Tensor empty_cuda(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                  std::optional<Device> Dev,
                  std::optional<MemoryFormat> Format);
Tensor empty_strided_cuda(IntArrayRef Sizes, IntArrayRef Strides,
                          std::optional<ScalarType> Dtype,
                          std::optional<Device> Dev);
Tensor zeros_cuda(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                  std::optional<Device> Dev);
Tensor ones_cuda(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                 std::optional<Device> Dev);
Tensor full_cuda(IntArrayRef Sizes, const Scalar &Value,
                 std::optional<ScalarType> Dtype, std::optional<Device> Dev);
/// arange computes on the CPU and copies the result to the device; rand
/// and randn draw on the device (Note [Random numbers on CUDA] in
/// CUDARandom.cu).
Tensor arange_cuda(const Scalar &Start, const Scalar &End, const Scalar &Step,
                   std::optional<ScalarType> Dtype, std::optional<Device> Dev);
Tensor rand_cuda(IntArrayRef Sizes, Generator *Gen,
                 std::optional<ScalarType> Dtype, std::optional<Device> Dev);
Tensor randn_cuda(IntArrayRef Sizes, Generator *Gen,
                  std::optional<ScalarType> Dtype, std::optional<Device> Dev);

} // namespace native
} // namespace cuda
} // namespace sk

#endif // SK_CUDA_CUDAKERNELS_H
