//===--- KernelCUDABench.cu - The CUDA kernels against the hardware -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// skc-bench-kernels-cuda: the CUDA impls of kernels/cuda/ against what the
/// GPU can do, measured in the same run with CUDA events:
///
///  - add_out of 256M float32 against a device-to-device cudaMemcpy of the
///    same bytes (add moves 3 arrays, the copy 2: the bytes/s ratio is the
///    figure, reported as the counter "vs_memcpy");
///  - sum of 256M float32 against the same memcpy;
///  - a 1-element add (dispatch, meta, launch) against an empty kernel
///    launch.
///
/// The comparison with PyTorch and main() are in KernelCUDATorchBench.cpp.
///
//===----------------------------------------------------------------------===//

#include "Functions.h"

#include "sk/cuda/CUDAException.h"
#include "sk/cuda/CUDAFunctions.h"
#include "sk/cuda/CUDAStream.h"
#include "sk/ops/Factories.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>

namespace {

constexpr int64_t kN = int64_t(256) << 20;

__global__ void emptyKernel() {}

/// Times \p F (which enqueues work on the current stream) with CUDA events
/// for every iteration of \p State; returns the mean seconds.
template <typename Fn> double timeWithEvents(benchmark::State &State, Fn F) {
  cudaStream_t Stream = sk::cuda::getCurrentCUDAStream();
  cudaEvent_t Start, Stop;
  SK_CUDA_CHECK(cudaEventCreate(&Start));
  SK_CUDA_CHECK(cudaEventCreate(&Stop));
  F(); // Warm up: allocations, module loading.
  SK_CUDA_CHECK(cudaStreamSynchronize(Stream));
  double Total = 0;
  int64_t Count = 0;
  for (auto _ : State) {
    SK_CUDA_CHECK(cudaEventRecord(Start, Stream));
    F();
    SK_CUDA_CHECK(cudaEventRecord(Stop, Stream));
    SK_CUDA_CHECK(cudaEventSynchronize(Stop));
    float Ms = 0;
    SK_CUDA_CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
    State.SetIterationTime(Ms / 1e3);
    Total += Ms / 1e3;
    ++Count;
  }
  SK_CUDA_CHECK(cudaEventDestroy(Start));
  SK_CUDA_CHECK(cudaEventDestroy(Stop));
  return Count ? Total / Count : 0;
}

/// The bytes/s of a device-to-device copy of \p Bytes.
double memcpyBandwidth(benchmark::State &State, int64_t Bytes) {
  void *Src = nullptr, *Dst = nullptr;
  SK_CUDA_CHECK(cudaMalloc(&Src, Bytes));
  SK_CUDA_CHECK(cudaMalloc(&Dst, Bytes));
  cudaStream_t Stream = sk::cuda::getCurrentCUDAStream();
  cudaEvent_t Start, Stop;
  SK_CUDA_CHECK(cudaEventCreate(&Start));
  SK_CUDA_CHECK(cudaEventCreate(&Stop));
  SK_CUDA_CHECK(
      cudaMemcpyAsync(Dst, Src, Bytes, cudaMemcpyDeviceToDevice, Stream));
  SK_CUDA_CHECK(cudaEventRecord(Start, Stream));
  constexpr int kReps = 10;
  for (int I = 0; I < kReps; ++I)
    SK_CUDA_CHECK(
        cudaMemcpyAsync(Dst, Src, Bytes, cudaMemcpyDeviceToDevice, Stream));
  SK_CUDA_CHECK(cudaEventRecord(Stop, Stream));
  SK_CUDA_CHECK(cudaEventSynchronize(Stop));
  float Ms = 0;
  SK_CUDA_CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
  SK_CUDA_CHECK(cudaFree(Src));
  SK_CUDA_CHECK(cudaFree(Dst));
  (void)State;
  // A copy reads and writes each byte.
  return 2.0 * double(Bytes) * kReps / (Ms / 1e3);
}

void BM_MemcpyDeviceToDevice(benchmark::State &State) {
  void *Src = nullptr, *Dst = nullptr;
  const int64_t Bytes = kN * int64_t(sizeof(float));
  SK_CUDA_CHECK(cudaMalloc(&Src, Bytes));
  SK_CUDA_CHECK(cudaMalloc(&Dst, Bytes));
  cudaStream_t Stream = sk::cuda::getCurrentCUDAStream();
  double Seconds = timeWithEvents(State, [&] {
    SK_CUDA_CHECK(
        cudaMemcpyAsync(Dst, Src, Bytes, cudaMemcpyDeviceToDevice, Stream));
  });
  State.counters["GB/s"] = 2.0 * double(Bytes) / Seconds / 1e9;
  SK_CUDA_CHECK(cudaFree(Src));
  SK_CUDA_CHECK(cudaFree(Dst));
}

void BM_AddOut256M(benchmark::State &State) {
  sk::Device Cuda("cuda:0");
  sk::Tensor A = sk::ones({kN}, Cuda), B = sk::ones({kN}, Cuda);
  sk::Tensor Out = sk::empty({kN}, Cuda);
  double Seconds = timeWithEvents(State, [&] { sk::add_out(Out, A, B); });
  double Bandwidth = 3.0 * double(kN) * sizeof(float) / Seconds;
  State.counters["GB/s"] = Bandwidth / 1e9;
  State.counters["vs_memcpy"] =
      Bandwidth / memcpyBandwidth(State, kN * int64_t(sizeof(float)));
}

void BM_Sum256M(benchmark::State &State) {
  sk::Device Cuda("cuda:0");
  sk::Tensor A = sk::ones({kN}, Cuda);
  double Seconds = timeWithEvents(State, [&] {
    sk::Tensor S = sk::sum(A);
    benchmark::DoNotOptimize(S);
  });
  double Bandwidth = double(kN) * sizeof(float) / Seconds;
  State.counters["GB/s"] = Bandwidth / 1e9;
  State.counters["vs_memcpy"] =
      Bandwidth / memcpyBandwidth(State, kN * int64_t(sizeof(float)));
}

/// Host time of a 1-element add, launch included (wall clock, synchronized
/// every 64 calls so the queue does not fill).
void BM_TinyAdd(benchmark::State &State) {
  sk::Device Cuda("cuda:0");
  sk::Tensor A = sk::ones({1}, Cuda), B = sk::ones({1}, Cuda);
  int64_t I = 0;
  for (auto _ : State) {
    sk::Tensor C = sk::add(A, B);
    benchmark::DoNotOptimize(C);
    if (++I % 64 == 0)
      sk::cuda::device_synchronize();
  }
  sk::cuda::device_synchronize();
}

void BM_EmptyKernelLaunch(benchmark::State &State) {
  cudaStream_t Stream = sk::cuda::getCurrentCUDAStream();
  int64_t I = 0;
  for (auto _ : State) {
    emptyKernel<<<1, 1, 0, Stream>>>();
    SK_CUDA_KERNEL_LAUNCH_CHECK();
    if (++I % 64 == 0)
      sk::cuda::device_synchronize();
  }
  sk::cuda::device_synchronize();
}

} // namespace

BENCHMARK(BM_MemcpyDeviceToDevice)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AddOut256M)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Sum256M)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TinyAdd);
BENCHMARK(BM_EmptyKernelLaunch);
