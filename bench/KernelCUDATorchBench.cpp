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
/// time over PyTorch's) closes the run.
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
// median, so --benchmark_filter and the usual reporters work.

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
                 std::function<Stack()> Make) {
    C.push_back({std::move(Label), "aten::" + std::move(Name),
                 std::move(Overload), std::move(Make)});
  };
  auto Big = [] { return normal({8192, 8192}); };
  Add("cdist 2048x2048x128", "cdist", "", [] {
    return Stack{normal({2048, 128}), normal({2048, 128}), 2.0, IValue()};
  });
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
      });
  Add("sum dim 0 8192x8192", "sum", "dim_IntList", [=] {
    return Stack{Big(), IValue(std::vector<int64_t>{0}), false, IValue()};
  });
  for (bool Training : {true, false})
    Add(std::string("batch_norm ") + (Training ? "train" : "eval") +
            " 64x256x56x56",
        "native_batch_norm", "", [=] {
          return batchNormArgs(normal({64, 256, 56, 56}), Training);
        });
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
  });
  Add("nonzero 8192x8192", "nonzero", "", [] {
    return Stack{mask({8192, 8192})};
  });
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

/// skc's calls of \p P between CUDA events: ms each.
std::vector<double> timeSkc(Prepared &P) {
  cudaStream_t Stream = cuda::getCurrentCUDAStream();
  auto Call = [&] {
    Stack S = P.OnDevice;
    P.Op->callBoxed(S);
  };
  for (int I = 0; I != 3; ++I)
    Call();
  cudaEvent_t Start, Stop;
  SK_CUDA_CHECK(cudaEventCreate(&Start));
  SK_CUDA_CHECK(cudaEventCreate(&Stop));
  std::vector<double> Ms;
  for (int I = 0; I != Calls; ++I) {
    Stack S = P.OnDevice;
    SK_CUDA_CHECK(cudaEventRecord(Start, Stream));
    P.Op->callBoxed(S);
    SK_CUDA_CHECK(cudaEventRecord(Stop, Stream));
    SK_CUDA_CHECK(cudaEventSynchronize(Stop));
    // Outside the timed span: the runtime's wait, which reads the calls'
    // device checks (Note [Device checks]) so that they never fill up.
    cuda::getCurrentCUDAStream().synchronize();
    float Elapsed = 0;
    SK_CUDA_CHECK(cudaEventElapsedTime(&Elapsed, Start, Stop));
    Ms.push_back(Elapsed);
  }
  SK_CUDA_CHECK(cudaEventDestroy(Start));
  SK_CUDA_CHECK(cudaEventDestroy(Stop));
  return Ms;
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
      report(State, "skc/" + C.Label, timeSkc(prepare(C)));
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
  std::printf("\n%-52s %10s %10s %7s\n", "operator, shape", "skc ms",
              "torch ms", "ratio");
  for (const BenchCase &C : Cases) {
    auto S = getMedians().find("skc/" + C.Label);
    auto T = getMedians().find("torch/" + C.Label);
    if (S == getMedians().end())
      continue;
    if (T == getMedians().end())
      std::printf("%-52s %10.3f %10s %7s\n", C.Label.c_str(), S->second, "-",
                  "-");
    else
      std::printf("%-52s %10.3f %10.3f %7.2f\n", C.Label.c_str(), S->second,
                  T->second, S->second / T->second);
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
