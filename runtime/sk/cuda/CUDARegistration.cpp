//===--- CUDARegistration.cpp - Plugging the CUDA backend in --------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every registration of the CUDA backend, at static initialization: the
/// caching allocator for DeviceType::CUDA, the device guard impl, and the
/// CUDA kernels of the runtime's operators.
///
/// Note [CUDA registrations]
/// ~~~~~~~~~~~~~~~~~~~~~~~~~
/// Nothing refers to a registration: a program that links skc::runtime_cuda
/// and only ever calls `sk::zeros({2}, Device("cuda"))` names no symbol of
/// the CUDA library. Had this file been a member of the static archive
/// libskc_runtime_cuda.a, the linker would have left it out, and the
/// program would have failed at run time with "CUDA is not available".
///
/// So this file alone is compiled into an object library,
/// skc_runtime_cuda_registration, which skc_runtime_cuda names in its
/// INTERFACE_LINK_LIBRARIES_DIRECT for executables and shared libraries
/// only (CMake 3.24): every final binary that links skc::runtime_cuda,
/// directly or through other libraries, gets this object as one of its own,
/// ahead of the archives, and the object then pulls in from the archive
/// the allocator, guard and kernels it names. It is the scheme kernel
/// libraries use for their generated registrations (Note [Static
/// registration] in docs/cmake.md), and it is exported with the package, so
/// an installed skc behaves the same. A shared skc_runtime_cuda simply
/// contains this file. Unlike --whole-archive, nothing is linker-specific
/// and no unused code is forced in; unlike an init function the user must
/// call, there is nothing to forget.
///
/// Initialization order: the allocator and guard slots are function-local
/// statics of the core runtime, and the dispatcher accepts kernels for an
/// operator whose schema is defined later, so this file needs no order
/// relative to the runtime's own static initializers.
///
//===----------------------------------------------------------------------===//

#include "sk/cuda/CUDACachingAllocator.h"
#include "sk/cuda/CUDAGuard.h"
#include "sk/cuda/CUDAKernels.h"

#include "sk/dispatch/Library.h"

namespace sk {
namespace cuda {

namespace {

/// Registers the allocator and the guard impl; constructed once, below.
struct RegisterCUDADevice {
  RegisterCUDADevice() {
    setAllocator(DeviceType::CUDA, CUDACachingAllocator::get());
    impl::registerDeviceGuardImpl(DeviceType::CUDA, &getCUDAGuardImpl());
  }
};

const RegisterCUDADevice CUDADeviceRegistration;

} // namespace

SK_LIBRARY_IMPL(sk, CUDA, m) {
  m.impl("_copy_from", SK_FN(native::copy_from_cuda));
  m.impl("_fill_", SK_FN(native::fill_cuda));
  m.impl("empty.memory_format", SK_FN(native::empty_cuda));
  m.impl("empty_strided", SK_FN(native::empty_strided_cuda));
  m.impl("zeros", SK_FN(native::zeros_cuda));
  m.impl("ones", SK_FN(native::ones_cuda));
  m.impl("full", SK_FN(native::full_cuda));
  m.impl("arange.start_step", SK_FN(native::arange_cuda));
  m.impl("rand", SK_FN(native::rand_cuda));
  m.impl("randn", SK_FN(native::randn_cuda));
}

} // namespace cuda
} // namespace sk
