//===--- FactoryKernels.h - Per-device kernels of the factories -*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The backend kernels behind the factories of Factories.h, one per device
/// (at::native::empty_cpu, empty_meta, ...). `sk::empty(...)` picks one by
/// the device in its TensorOptions; the dispatcher's BackendSelect key will
/// do the same through the operator table.
///
/// The kernels take TensorOptions unpacked into optionals, as PyTorch's
/// dispatcher signatures do (`ScalarType? dtype, Device? device`), and
/// resolve the defaults themselves: float32 (or, for full and arange, the
/// dtype the values imply). Meta kernels allocate and touch nothing, but
/// make every check their CPU twins make, so that shape inference fails
/// where a real run would.
///
//===----------------------------------------------------------------------===//

#ifndef SK_OPS_FACTORYKERNELS_H
#define SK_OPS_FACTORYKERNELS_H

#include "sk/core/Tensor.h"
#include "sk/ops/Generator.h"

#include <optional>

namespace sk {
namespace native {

Tensor empty_cpu(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                 std::optional<Device> Dev, std::optional<MemoryFormat> Format);
Tensor empty_meta(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                  std::optional<Device> Dev,
                  std::optional<MemoryFormat> Format);

Tensor empty_strided_cpu(IntArrayRef Sizes, IntArrayRef Strides,
                         std::optional<ScalarType> Dtype,
                         std::optional<Device> Dev);
Tensor empty_strided_meta(IntArrayRef Sizes, IntArrayRef Strides,
                          std::optional<ScalarType> Dtype,
                          std::optional<Device> Dev);

Tensor zeros_cpu(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                 std::optional<Device> Dev);
Tensor zeros_meta(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                  std::optional<Device> Dev);

Tensor ones_cpu(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                std::optional<Device> Dev);
Tensor ones_meta(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                 std::optional<Device> Dev);

/// Without \p Dtype: bool for a bool value, int64 for an integer, else
/// float32.
Tensor full_cpu(IntArrayRef Sizes, const Scalar &Value,
                std::optional<ScalarType> Dtype, std::optional<Device> Dev);
Tensor full_meta(IntArrayRef Sizes, const Scalar &Value,
                 std::optional<ScalarType> Dtype, std::optional<Device> Dev);

/// Without \p Dtype: int64 when start, end and step are all integers, else
/// float32.
Tensor arange_cpu(const Scalar &Start, const Scalar &End, const Scalar &Step,
                  std::optional<ScalarType> Dtype, std::optional<Device> Dev);
Tensor arange_meta(const Scalar &Start, const Scalar &End, const Scalar &Step,
                   std::optional<ScalarType> Dtype, std::optional<Device> Dev);

/// \p Gen may be null: the default generator. Meta kernels never use it.
Tensor rand_cpu(IntArrayRef Sizes, Generator *Gen,
                std::optional<ScalarType> Dtype, std::optional<Device> Dev);
Tensor rand_meta(IntArrayRef Sizes, Generator *Gen,
                 std::optional<ScalarType> Dtype, std::optional<Device> Dev);
Tensor randn_cpu(IntArrayRef Sizes, Generator *Gen,
                 std::optional<ScalarType> Dtype, std::optional<Device> Dev);
Tensor randn_meta(IntArrayRef Sizes, Generator *Gen,
                  std::optional<ScalarType> Dtype, std::optional<Device> Dev);

} // namespace native
} // namespace sk

#endif // SK_OPS_FACTORYKERNELS_H
