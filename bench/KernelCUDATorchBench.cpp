//===--- KernelCUDATorchBench.cpp - Every operator against PyTorch on CUDA ===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// skc-bench-kernels-cuda's comparison with PyTorch on the same GPU in the
/// same run: every call of KernelBenchCases.h, and the larger shapes below,
/// through skc's dispatcher and through PyTorch's (TorchProcess.h, a python3
/// process beside this one), on the same bytes with the same
/// strides (Note [Timing against PyTorch on CUDA]). A table of ratios (skc's
/// time over PyTorch's, and a copy's over skc's) closes the run.
///
///   skc-bench-kernels-cuda [--order=torch-first] [--calls=N]
///                          [--python=python3] [--torch-script=PATH]
///                          [--benchmark_filter=...]
///
/// Without a GPU it says so and exits 0; without PyTorch it times skc only.
///
//===----------------------------------------------------------------------===//

#include "KernelBenchCases.h"
#include "PlainValues.h"
#include "TorchProcess.h"

#include "Functions.h"

#include "sk/cuda/CUDAException.h"
#include "sk/cuda/CUDAFunctions.h"
#include "sk/cuda/CUDAStream.h"
#include "sk/dispatch/Dispatcher.h"
#include "sk/ops/Factories.h"
#include "sk/util/Exception.h"

#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace sk;
using skbench::BenchCase;
using skdiff::PlainTensor;
using skdiff::PlainValue;

namespace {

// Note [Timing against PyTorch on CUDA]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Each case's arguments are made once on the CPU. skc's side copies every
// tensor's whole storage to the GPU and restrides it there, so that a
// transposed or expanded input stays one. PyTorch's side gets the same
// storages, sizes, strides and offsets in a case file (the format is in
// test/differential/torch_cuda.py), which the script rebuilds the same way
// and calls through torch.ops.aten by schema name. Both sides warm up with
// three calls, then time --calls calls (20 by default) one at a time
// between two CUDA events on the current stream, and report the median. Each
// case is one Google Benchmark run of one iteration whose manual time is that
// median, so --benchmark_filter and the usual reporters work. Where a case
// streams (BenchCase::Streams), a device-to-device cudaMemcpy that moves as
// many bytes as the call must (each storage of its tensor arguments, as
// often as it must read them, BenchCase::InputReads, and of its results,
// once: half of them read, half written) is timed the same way;
// the counter "vs_copy" (the table's "vs copy") is the copy's time over
// skc's, the fraction of a copy's bandwidth the call reaches.

int Calls = 20;

/// PyTorch's side, when python3 imports it and it sees the GPU.
std::unique_ptr<skdiff::TorchProcess> &getTorch() {
  static std::unique_ptr<skdiff::TorchProcess> Torch;
  return Torch;
}

//===----------------------------------------------------------------------===//
// Cases
//===----------------------------------------------------------------------===//

/// The shapes of issue 21's measurements on an H100, where they are larger
/// than the CPU benchmark's.
std::vector<BenchCase> makeCUDACases() {
  using namespace skbench;
  std::vector<BenchCase> C = makeKernelCases();
  auto Add = [&](std::string Label, std::string Name, std::string Overload,
                 std::function<Stack()> Make) -> BenchCase & {
    return addCase(C, std::move(Label), std::move(Name), std::move(Overload),
                   std::move(Make));
  };
  auto Big = [] { return normal({8192, 8192}); };
  Add("cdist 2048x2048x128", "cdist", "", [] {
    return Stack{normal({2048, 128}), normal({2048, 128}), 2.0, IValue()};
  }).Streams = false;
  Add("embedding_bag sum 100k in bags of 50, 1M x 128", "_embedding_bag", "",
      [] {
        return Stack{
            normal({1 << 20, 128}),
            indices({100000}, 1 << 20),
            sk::mul(arange(0, 2000, TensorOptions().dtype(kLong)), int64_t(50)),
            false,
            int64_t(0),
            false,
            IValue(),
            false,
            int64_t(-1)};
      })
      .Streams = false;
  Add("sum dim 0 8192x8192", "sum", "dim_IntList", [=] {
    return Stack{Big(), IValue(std::vector<int64_t>{0}), false, IValue()};
  });
  // Narrow rows: the sum of 16M points' coordinates.
  Add("sum dim 0 16Mx3", "sum", "dim_IntList", [] {
    return Stack{normal({int64_t(16) << 20, 3}),
                 IValue(std::vector<int64_t>{0}), false, IValue()};
  });
  // The same after a kept dim: a batch of 16 clouds of 1M points.
  Add("sum dim 1 16x1Mx3", "sum", "dim_IntList", [] {
    return Stack{normal({16, int64_t(1) << 20, 3}),
                 IValue(std::vector<int64_t>{1}), false, IValue()};
  });
  addBatchNormCases(C, {64, 256, 56, 56});
  Add("max_pool2d 3x3 s2 p1 64x64x112x112", "max_pool2d_with_indices", "", [] {
    return Stack{
        normal({64, 64, 112, 112}),         IValue(std::vector<int64_t>{3, 3}),
        IValue(std::vector<int64_t>{2, 2}), IValue(std::vector<int64_t>{1, 1}),
        IValue(std::vector<int64_t>{1, 1}), false};
  });
  Add("mul broadcast 8192x8192 by 8192x1", "mul", "Tensor", [=] {
    return Stack{Big(), normal({8192, 1})};
  });
  Add("add transposed 8192x8192", "add", "Tensor", [=] {
    return Stack{Big().t(), Big(), IValue(int64_t(1))};
  });
  for (int64_t Columns : {32000, 8192})
    Add("softmax 4096x" + std::to_string(Columns), "_softmax", "", [=] {
      return Stack{normal({4096, Columns}), int64_t(1), false};
    });
  Add("masked_select 64M", "masked_select", "", [] {
    return Stack{normal({int64_t(64) << 20}), mask({int64_t(64) << 20})};
  }).Streams = false;
  Add("nonzero 8192x8192", "nonzero", "", [] {
    return Stack{mask({8192, 8192})};
  }).Streams = false;
  return C;
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

/// The current case on both sides; only one is held at a time.
struct Prepared {
  const BenchCase *Case = nullptr;
  std::optional<OperatorHandle> Op;
  std::vector<PlainValue> Plain;
  Stack OnDevice;
};

Prepared &prepare(const BenchCase &C) {
  static std::unique_ptr<Prepared> Current;
  if (Current && Current->Case == &C)
    return *Current;
  Current.reset();
  auto P = std::make_unique<Prepared>();
  P->Case = &C;
  P->Op = Dispatcher::singleton().findSchemaOrThrow(C.Name, C.Overload);
  Stack Args = C.MakeArgs();
  Device Cuda("cuda:0");
  for (size_t I = 0; I != Args.size(); ++I) {
    P->Plain.push_back(
        skdiff::toPlain(Args[I], P->Op->schema().Arguments[I].Type));
    const PlainValue &V = P->Plain.back();
    if (V.K == PlainValue::Kind::Tensor) {
      P->OnDevice.push_back(skdiff::fromPlain(V.Tensors[0], Cuda));
    } else if (V.K == PlainValue::Kind::TensorList) {
      std::vector<Tensor> List;
      for (const PlainTensor &T : V.Tensors)
        List.push_back(skdiff::fromPlain(T, Cuda));
      P->OnDevice.push_back(IValue(std::move(List)));
    } else {
      P->OnDevice.push_back(Args[I]);
    }
  }
  Current = std::move(P);
  return *Current;
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

/// Medians in ms per side and label, for the closing table.
std::map<std::string, double> &getMedians() {
  static std::map<std::string, double> Medians;
  return Medians;
}

/// \p Call's calls between CUDA events on the current stream, after three
/// to warm up: ms each. Outside the timed span, \p Prepare() before each
/// call, and after it the runtime's wait, which reads the calls' device
/// checks (Note [Device checks]) so that they never fill up.
template <typename PrepareFn, typename CallFn>
std::vector<double> timeCalls(PrepareFn Prepare, CallFn Call) {
  cudaStream_t Stream = cuda::getCurrentCUDAStream();
  for (int I = 0; I != 3; ++I) {
    Prepare();
    Call();
  }
  cudaEvent_t Start, Stop;
  SK_CUDA_CHECK(cudaEventCreate(&Start));
  SK_CUDA_CHECK(cudaEventCreate(&Stop));
  std::vector<double> Ms;
  for (int I = 0; I != Calls; ++I) {
    Prepare();
    SK_CUDA_CHECK(cudaEventRecord(Start, Stream));
    Call();
    SK_CUDA_CHECK(cudaEventRecord(Stop, Stream));
    SK_CUDA_CHECK(cudaEventSynchronize(Stop));
    cuda::getCurrentCUDAStream().synchronize();
    float Elapsed = 0;
    SK_CUDA_CHECK(cudaEventElapsedTime(&Elapsed, Start, Stop));
    Ms.push_back(Elapsed);
  }
  SK_CUDA_CHECK(cudaEventDestroy(Start));
  SK_CUDA_CHECK(cudaEventDestroy(Stop));
  return Ms;
}

/// skc's calls of \p P: ms each.
std::vector<double> timeSkc(Prepared &P) {
  Stack S;
  return timeCalls([&] { S = P.OnDevice; }, [&] { P.Op->callBoxed(S); });
}

/// The bytes a call of \p P moves at least where it streams
/// (BenchCase::Streams): each storage its tensor arguments look into,
/// BenchCase::InputReads times (an out= argument too), and each other
/// storage of its results, once.
int64_t streamedBytes(Prepared &P) {
  Stack Results = P.OnDevice;
  P.Op->callBoxed(Results);
  std::set<const void *> Seen;
  int64_t Bytes = 0;
  auto Count = [&](const Tensor &T, int64_t Passes) {
    if (!T.defined())
      return;
    const Storage &S = T.unsafeGetTensorImpl()->storage();
    if (Seen.insert(S.get()).second)
      Bytes += Passes * static_cast<int64_t>(S->nbytes());
  };
  auto CountAll = [&](const Stack &Values, int64_t Passes) {
    for (const IValue &V : Values) {
      if (V.isTensor())
        Count(V.toTensor(), Passes);
      else if (V.isTensorList())
        for (const Tensor &T : V.toTensorList())
          Count(T, Passes);
    }
  };
  CountAll(P.OnDevice, P.Case->InputReads);
  CountAll(Results, 1);
  return Bytes;
}

/// A device-to-device copy that moves \p Bytes, reading half of them and
/// writing the other half, timed as skc's calls are: ms each.
std::vector<double> timeCopy(int64_t Bytes) {
  const int64_t Half = std::max<int64_t>(Bytes / 2, 1);
  TensorOptions Bytes8 = TensorOptions(Device("cuda:0")).dtype(kByte);
  Tensor Src = empty({Half}, Bytes8), Dst = empty({Half}, Bytes8);
  cudaStream_t Stream = cuda::getCurrentCUDAStream();
  return timeCalls([] {},
                   [&] {
                     SK_CUDA_CHECK(
                         cudaMemcpyAsync(Dst.data_ptr(), Src.data_ptr(),
                                         static_cast<size_t>(Half),
                                         cudaMemcpyDeviceToDevice, Stream));
                   });
}

/// Reports the median of \p Ms as the one iteration's time of \p State.
void report(benchmark::State &State, const std::string &Key,
            const std::vector<double> &Ms) {
  double Median = median(Ms);
  for (auto _ : State)
    State.SetIterationTime(Median / 1e3);
  State.counters["calls"] = static_cast<double>(Ms.size());
  getMedians()[Key] = Median;
}

void registerCase(const BenchCase &C, bool TorchFirst) {
  auto Skc = [&C](benchmark::State &State) {
    try {
      Prepared &P = prepare(C);
      std::vector<double> Ms = timeSkc(P);
      report(State, "skc/" + C.Label, Ms);
      if (C.Streams) {
        double Copy = median(timeCopy(streamedBytes(P)));
        getMedians()["copy/" + C.Label] = Copy;
        State.counters["vs_copy"] = Copy / median(Ms);
      }
    } catch (const sk::Error &E) {
      State.SkipWithError(E.what());
    }
  };
  auto Torch = [&C](benchmark::State &State) {
    std::string Error;
    std::vector<double> Ms;
    try {
      Prepared &P = prepare(C);
      Ms = getTorch()->time(C.Name, C.Overload, P.Plain, Calls, Error);
    } catch (const sk::Error &E) {
      Error = E.what();
    }
    if (Ms.empty()) {
      State.SkipWithError(Error.c_str());
      return;
    }
    report(State, "torch/" + C.Label, Ms);
  };
  auto Register = [&](const char *Side, auto Fn) {
    benchmark::RegisterBenchmark((Side + C.Label).c_str(), Fn)
        ->Iterations(1)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  };
  bool WithTorch = getTorch() != nullptr;
  if (TorchFirst && WithTorch)
    Register("torch/", Torch);
  Register("skc/", Skc);
  if (!TorchFirst && WithTorch)
    Register("torch/", Torch);
}

void printRatios(const std::vector<BenchCase> &Cases) {
  // A Markdown table, as docs/performance.md keeps them.
  std::printf("\n| %-52s | %8s | %10s | %5s | %7s |\n", "operator, shape",
              "skc ms", "PyTorch ms", "ratio", "vs copy");
  std::printf("|%s|%s|%s|%s|%s|\n", std::string(54, '-').c_str(),
              std::string(10, '-').c_str(), std::string(12, '-').c_str(),
              std::string(7, '-').c_str(), std::string(9, '-').c_str());
  auto Find = [](const std::string &Key) -> std::optional<double> {
    auto It = getMedians().find(Key);
    if (It == getMedians().end())
      return std::nullopt;
    return It->second;
  };
  for (const BenchCase &C : Cases) {
    std::optional<double> Skc = Find("skc/" + C.Label);
    if (!Skc)
      continue;
    std::optional<double> Torch = Find("torch/" + C.Label);
    std::optional<double> Copy = Find("copy/" + C.Label);
    auto Cell = [](std::optional<double> V, const char *Format) {
      char Buffer[32] = "-";
      if (V)
        std::snprintf(Buffer, sizeof(Buffer), Format, *V);
      return std::string(Buffer);
    };
    std::printf(
        "| %-52s | %8.3f | %10s | %5s | %7s |\n", C.Label.c_str(), *Skc,
        Cell(Torch, "%.3f").c_str(),
        Cell(Torch ? std::optional(*Skc / *Torch) : std::nullopt, "%.2f")
            .c_str(),
        Cell(Copy ? std::optional(*Copy / *Skc) : std::nullopt, "%.2f")
            .c_str());
  }
}

} // namespace

int main(int Argc, char **Argv) {
  bool TorchFirst = false;
  std::string Python = "python3", Script = skdiff::getTorchCUDAScript();
  std::vector<char *> Args;
  for (int I = 0; I != Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--order=torch-first")
      TorchFirst = true;
    else if (A.rfind("--calls=", 0) == 0)
      Calls = std::max(1, std::atoi(A.c_str() + 8));
    else if (A.rfind("--python=", 0) == 0)
      Python = A.substr(9);
    else if (A.rfind("--torch-script=", 0) == 0)
      Script = A.substr(15);
    else
      Args.push_back(Argv[I]);
  }
  if (cuda::device_count() == 0) {
    std::printf("skc-bench-kernels-cuda: no CUDA device; nothing to "
                "measure\n");
    return 0;
  }
  int N = static_cast<int>(Args.size());
  benchmark::Initialize(&N, Args.data());
  if (benchmark::ReportUnrecognizedArguments(N, Args.data()))
    return 1;
  std::string Why;
  getTorch() = skdiff::TorchProcess::start(Python, Script, Why);
  if (getTorch())
    std::printf("reference: %s\n", getTorch()->description().c_str());
  else
    std::printf("reference: none (%s); timing skc only\n", Why.c_str());
  std::vector<BenchCase> Cases = makeCUDACases();
  for (const BenchCase &C : Cases)
    registerCase(C, TorchFirst);
  benchmark::RunSpecifiedBenchmarks();
  printRatios(Cases);
  benchmark::Shutdown();
  getTorch().reset();
  return 0;
}
