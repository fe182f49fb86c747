//===--- CUDAException.h - Errors of CUDA runtime calls ---------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// SK_CUDA_CHECK(expr) runs a CUDA runtime call and throws sk::CUDAError
/// when it does not return cudaSuccess; SK_CUDA_KERNEL_LAUNCH_CHECK() goes
/// after a `<<<...>>>` launch (its message names the `kernel launch`), whose
/// errors (a bad configuration, no kernel image for this GPU) only
/// cudaGetLastError reports. The message names the call as written, the error's
/// name and description, and where it was made:
///
///   CUDA error: 'cudaMalloc(&P, N)' failed with cudaErrorMemoryAllocation
///   (out of memory) at runtime/sk/cuda/Foo.cpp:12
///
/// Like c10's C10_CUDA_CHECK, a failed check also clears the thread's last
/// error, so that the next, unrelated check does not report it again.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CUDA_CUDAEXCEPTION_H
#define SK_CUDA_CUDAEXCEPTION_H

#include "sk/util/Exception.h"

#include <cuda_runtime_api.h>

#include <string>

namespace sk {

/// A CUDA runtime call failed; error() is its cudaError_t.
class CUDAError : public Error {
public:
  CUDAError(std::string Msg, cudaError_t Code)
      : Error(std::move(Msg)), Code(Code) {}
  cudaError_t error() const { return Code; }

private:
  cudaError_t Code;
};

namespace cuda {
namespace detail {

/// The message of a failed CUDA call: \p Expr returned \p Code at
/// \p File:\p Line. Needs no GPU (tests call it directly).
std::string formatCUDAError(cudaError_t Code, const char *Expr,
                            const char *File, int Line);

/// Throws the CUDAError of \p Code after clearing the thread's last error.
[[noreturn]] void throwCUDAError(cudaError_t Code, const char *Expr,
                                 const char *File, int Line);

} // namespace detail
} // namespace cuda
} // namespace sk

/// Throws sk::CUDAError unless \p EXPR, a CUDA runtime call, returns
/// cudaSuccess.
#define SK_CUDA_CHECK(EXPR)                                                    \
  do {                                                                         \
    const cudaError_t SkCudaErr_ = (EXPR);                                     \
    if (SK_UNLIKELY(SkCudaErr_ != cudaSuccess))                                \
      ::sk::cuda::detail::throwCUDAError(SkCudaErr_, #EXPR, __FILE__,          \
                                         __LINE__);                            \
  } while (false)

/// Reports, as an unchecked call would not, the error of the kernel launch
/// just made on this thread.
#define SK_CUDA_KERNEL_LAUNCH_CHECK()                                          \
  do {                                                                         \
    const cudaError_t SkCudaErr_ = cudaGetLastError();                         \
    if (SK_UNLIKELY(SkCudaErr_ != cudaSuccess))                                \
      ::sk::cuda::detail::throwCUDAError(SkCudaErr_, "kernel launch",          \
                                         __FILE__, __LINE__);                  \
  } while (false)

#endif // SK_CUDA_CUDAEXCEPTION_H
