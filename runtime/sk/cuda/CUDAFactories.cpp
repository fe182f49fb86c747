//===--- CUDAFactories.cpp - The factories on CUDA devices ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA kernels of the factories (Note [Factory backend selection] in
/// sk/ops/Factories.cpp). Each resolves the device ("cuda" is the current
/// one), makes it current, and allocates through the caching allocator for
/// the current stream: the tensor's device always has an index. zeros
/// clears with cudaMemsetAsync, ones and full launch the fill kernel; rand
/// and randn draw on the device (Note [Random numbers on CUDA] in
/// CUDARandom.cu); arange computes on the CPU and copies.
///
//===----------------------------------------------------------------------===//

#include "sk/cuda/CUDAException.h"
#include "sk/cuda/CUDAGuard.h"
#include "sk/cuda/CUDAKernels.h"
#include "sk/cuda/CUDARandom.h"
#include "sk/cuda/CUDAStream.h"

#include "sk/core/EmptyTensor.h"
#include "sk/ops/Factories.h"
#include "sk/ops/FactoryKernels.h"

namespace sk {
namespace cuda {

/// The device of a factory call: cuda:<current> when none or no index is
/// given.
static Device factoryDevice(std::optional<Device> Dev) {
  return resolveDevice(Dev.value_or(Device(DeviceType::CUDA)));
}

Tensor native::empty_cuda(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                          std::optional<Device> Dev,
                          std::optional<MemoryFormat> Format) {
  Device D = factoryDevice(Dev);
  CUDAGuard Guard(D);
  return sk::detail::empty_generic(Sizes, Dtype.value_or(kFloat), D, Format);
}

Tensor native::empty_strided_cuda(IntArrayRef Sizes, IntArrayRef Strides,
                                  std::optional<ScalarType> Dtype,
                                  std::optional<Device> Dev) {
  Device D = factoryDevice(Dev);
  CUDAGuard Guard(D);
  return sk::detail::empty_strided_generic(Sizes, Strides,
                                           Dtype.value_or(kFloat), D);
}

Tensor native::zeros_cuda(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                          std::optional<Device> Dev) {
  Device D = factoryDevice(Dev);
  CUDAGuard Guard(D);
  Tensor Result = sk::detail::empty_generic(Sizes, Dtype.value_or(kFloat), D);
  // Zero is all-zero bits in every dtype.
  if (Result.nbytes() != 0)
    SK_CUDA_CHECK(cudaMemsetAsync(Result.data_ptr(), 0, Result.nbytes(),
                                  getCurrentCUDAStream(D.index())));
  return Result;
}

Tensor native::ones_cuda(IntArrayRef Sizes, std::optional<ScalarType> Dtype,
                         std::optional<Device> Dev) {
  return full_cuda(Sizes, 1, Dtype.value_or(kFloat), Dev);
}

Tensor native::full_cuda(IntArrayRef Sizes, const Scalar &Value,
                         std::optional<ScalarType> Dtype,
                         std::optional<Device> Dev) {
  // The CPU kernel's checks and default dtype, on a meta tensor.
  ScalarType D =
      sk::native::full_meta(Sizes, Value, Dtype, std::nullopt).dtype();
  Device Where = factoryDevice(Dev);
  CUDAGuard Guard(Where);
  Tensor Result = sk::detail::empty_generic(Sizes, D, Where);
  fill_cuda(Result, Value);
  return Result;
}

Tensor native::arange_cuda(const Scalar &Start, const Scalar &End,
                           const Scalar &Step, std::optional<ScalarType> Dtype,
                           std::optional<Device> Dev) {
  return sk::native::arange_cpu(Start, End, Step, Dtype, kCPU)
      .to(factoryDevice(Dev));
}

/// A new tensor of \p Meta's sizes and dtype on \p Dev, filled on the
/// device with values of \p D drawn from \p Gen (or the default
/// generator).
static Tensor randomTensor(const Tensor &Meta, Generator *Gen,
                           std::optional<Device> Dev, detail::Distribution D) {
  Device Where = factoryDevice(Dev);
  CUDAGuard Guard(Where);
  Tensor Result = sk::detail::empty_generic(Meta.sizes(), Meta.dtype(), Where);
  detail::RandomType Type;
  switch (Meta.scalar_type()) {
  case kDouble:
    Type = detail::RandomType::Double;
    break;
  case kHalf:
    Type = detail::RandomType::Half;
    break;
  case kBFloat16:
    Type = detail::RandomType::BFloat16;
    break;
  default:
    // The meta function admits floating dtypes only.
    Type = detail::RandomType::Float;
    break;
  }
  Generator &G = Gen ? *Gen : getDefaultGenerator();
  int64_t N = Result.numel();
  Generator::PhiloxState State =
      G.reservePhilox(detail::randomOffsetIncrement(N, Type));
  detail::launchRandom(Result.data_ptr(), N, Type, D, State.Seed, State.Offset,
                       getCurrentCUDAStream(Where.index()));
  SK_CUDA_CHECK(cudaGetLastError());
  return Result;
}

Tensor native::rand_cuda(IntArrayRef Sizes, Generator *Gen,
                         std::optional<ScalarType> Dtype,
                         std::optional<Device> Dev) {
  // The CPU's checks and default dtype, on a meta tensor.
  return randomTensor(sk::native::rand_meta(Sizes, Gen, Dtype, std::nullopt),
                      Gen, Dev, detail::Distribution::Uniform);
}

Tensor native::randn_cuda(IntArrayRef Sizes, Generator *Gen,
                          std::optional<ScalarType> Dtype,
                          std::optional<Device> Dev) {
  return randomTensor(sk::native::randn_meta(Sizes, Gen, Dtype, std::nullopt),
                      Gen, Dev, detail::Distribution::Normal);
}

} // namespace cuda
} // namespace sk
