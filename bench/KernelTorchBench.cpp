//===--- KernelTorchBench.cpp - Every operator against libtorch 2.x -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every operator of the kernel library on a realistic shape, through skc's
/// dispatcher and through libtorch 2.x's (the differential test's bridge,
/// test/differential/TorchBridge.h) on the same arguments in the same run,
/// on 1 and 2 threads, float32 and, where the operator takes it, bfloat16.
/// Both sides call by schema name, boxed, with the same bytes. A table of
/// ratios (skc's time over libtorch's) closes the run.
///
///   skc-bench-kernels-torch [--order=torch-first] [--benchmark_filter=...]
///
//===----------------------------------------------------------------------===//

#include "KernelBenchCases.h"
#include "PlainValues.h"
#include "TorchBridge.h"

#include "Functions.h"

#include "sk/dispatch/Dispatcher.h"
#include "sk/iter/Parallel.h"
#include "sk/ops/Factories.h"
#include "sk/util/Exception.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace sk;
using skdiff::PlainValue;
using skdiff::toPlain;

namespace {

using skbench::BenchCase;

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

/// A case's arguments on both sides. Only the case running is held: the
/// inputs of all of them would not fit in memory.
struct Prepared {
  const BenchCase *Case = nullptr;
  std::optional<OperatorHandle> Op;
  Stack Args;
  std::unique_ptr<skdiff::PreparedTorchCall> Torch;
};

Prepared &prepare(const BenchCase &C) {
  static std::unique_ptr<Prepared> Current;
  if (Current && Current->Case == &C)
    return *Current;
  Current.reset();
  auto P = std::make_unique<Prepared>();
  P->Case = &C;
  P->Op = Dispatcher::singleton().findSchemaOrThrow(C.Name, C.Overload);
  P->Args = C.MakeArgs();
  std::vector<PlainValue> Plain;
  for (size_t I = 0; I != P->Args.size(); ++I)
    Plain.push_back(toPlain(P->Args[I], P->Op->schema().Arguments[I].Type));
  P->Torch =
      std::make_unique<skdiff::PreparedTorchCall>(C.Name, C.Overload, Plain);
  Current = std::move(P);
  return *Current;
}

/// Real times in milliseconds (medians, with repetitions) per benchmark
/// name, for the closing table.
std::map<std::string, double> &getTimes() {
  static std::map<std::string, double> Times;
  return Times;
}

class RatioReporter : public benchmark::ConsoleReporter {
public:
  void ReportRuns(const std::vector<Run> &Runs) override {
    ConsoleReporter::ReportRuns(Runs);
    for (const Run &R : Runs)
      if (R.run_type == Run::RT_Iteration || R.aggregate_name == "median")
        getTimes()[R.run_name.function_name + "/" + R.run_name.args] =
            R.GetAdjustedRealTime();
  }
};

/// Registers skc's and libtorch's runs of \p C, on 1 and 2 threads, one
/// after the other in the order asked for.
void registerCase(const BenchCase &C, bool TorchFirst) {
  auto Skc = [&C](benchmark::State &State) {
    Prepared &P = prepare(C);
    int Saved = get_num_threads();
    set_num_threads(static_cast<int>(State.range(0)));
    for (auto _ : State) {
      Stack S = P.Args;
      P.Op->callBoxed(S);
      benchmark::DoNotOptimize(S);
    }
    set_num_threads(Saved);
  };
  auto Torch = [&C](benchmark::State &State) {
    Prepared &P = prepare(C);
    skdiff::PreparedTorchCall::setThreads(static_cast<int>(State.range(0)));
    for (auto _ : State)
      P.Torch->run();
  };
  for (int Threads : {1, 2}) {
    auto Register = [&](const char *Side, auto Fn) {
      benchmark::RegisterBenchmark((Side + C.Label).c_str(), Fn)
          ->Arg(Threads)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    };
    if (TorchFirst) {
      Register("torch/", Torch);
      Register("skc/", Skc);
    } else {
      Register("skc/", Skc);
      Register("torch/", Torch);
    }
  }
}

void printRatios(const std::vector<BenchCase> &Cases) {
  std::printf("\n%-48s %7s %10s %10s %7s\n", "operator, shape", "threads",
              "skc ms", "torch ms", "ratio");
  for (const BenchCase &C : Cases)
    for (int Threads : {1, 2}) {
      std::string Args = std::to_string(Threads);
      auto S = getTimes().find("skc/" + C.Label + "/" + Args);
      auto T = getTimes().find("torch/" + C.Label + "/" + Args);
      if (S == getTimes().end() || T == getTimes().end())
        continue;
      std::printf("%-48s %7d %10.3f %10.3f %7.2f\n", C.Label.c_str(), Threads,
                  S->second, T->second, S->second / T->second);
    }
}

} // namespace

int main(int Argc, char **Argv) {
  bool TorchFirst = false;
  std::vector<char *> Args;
  for (int I = 0; I != Argc; ++I) {
    if (std::strcmp(Argv[I], "--order=torch-first") == 0)
      TorchFirst = true;
    else
      Args.push_back(Argv[I]);
  }
  int N = static_cast<int>(Args.size());
  benchmark::Initialize(&N, Args.data());
  if (!skdiff::isTorchAvailable()) {
    std::fprintf(stderr, "skc-bench-kernels-torch: built without libtorch "
                         "(utils/fetch-libtorch.sh)\n");
    return 1;
  }
  std::vector<BenchCase> Cases = skbench::makeKernelCases();
  for (const BenchCase &C : Cases)
    registerCase(C, TorchFirst);
  RatioReporter Reporter;
  benchmark::RunSpecifiedBenchmarks(&Reporter);
  printRatios(Cases);
  benchmark::Shutdown();
  return 0;
}
