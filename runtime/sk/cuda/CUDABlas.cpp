//===--- CUDABlas.cpp - cuBLAS handles for kernels ------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/cuda/CUDABlas.h"
#include "sk/cuda/CUDAStream.h"
#include "sk/util/Exception.h"

#include <mutex>
#include <vector>

namespace sk {
namespace cuda {

std::string detail::formatCUBLASError(cublasStatus_t Status, const char *Expr,
                                      const char *File, int Line) {
  return sk::detail::str(
      "cuBLAS error: '", Expr, "' failed with ", cublasGetStatusName(Status),
      " (", cublasGetStatusString(Status), ") at ", File, ":", Line);
}

void detail::throwCUBLASError(cublasStatus_t Status, const char *Expr,
                              const char *File, int Line) {
  throw Error(formatCUBLASError(Status, Expr, File, Line));
}

namespace {

/// Idle handles per device: Note [cuBLAS handle pool].
struct HandlePool {
  std::mutex Mutex;
  std::vector<cublasHandle_t> Idle[kMaxCUDADevices];

  static HandlePool &get() {
    static HandlePool *P = new HandlePool; // never destroyed
    return *P;
  }
};

/// The handles a thread holds; they go back to the pool when it exits.
struct ThreadHandles {
  cublasHandle_t Handles[kMaxCUDADevices] = {};
  ~ThreadHandles() {
    HandlePool &Pool = HandlePool::get();
    std::lock_guard<std::mutex> Lock(Pool.Mutex);
    for (int D = 0; D != kMaxCUDADevices; ++D)
      if (Handles[D])
        Pool.Idle[D].push_back(Handles[D]);
  }
};

cublasHandle_t acquireHandle(DeviceIndex D) {
  HandlePool &Pool = HandlePool::get();
  {
    std::lock_guard<std::mutex> Lock(Pool.Mutex);
    if (!Pool.Idle[D].empty()) {
      cublasHandle_t H = Pool.Idle[D].back();
      Pool.Idle[D].pop_back();
      return H;
    }
  }
  // Called with D current: the handle belongs to the current device.
  cublasHandle_t H = nullptr;
  SK_CUBLAS_CHECK(cublasCreate(&H));
  return H;
}

} // namespace

cublasHandle_t getCurrentCUDABlasHandle() {
  thread_local ThreadHandles Mine;
  DeviceIndex D = current_device();
  cublasHandle_t &H = Mine.Handles[D];
  if (!H)
    H = acquireHandle(D);
  SK_CUBLAS_CHECK(cublasSetStream(H, getCurrentCUDAStream(D).stream()));
  return H;
}

} // namespace cuda
} // namespace sk
