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

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

Tensor normal(std::vector<int64_t> Sizes, ScalarType D = kFloat) {
  return randn(Sizes).to(D);
}
Tensor unit(std::vector<int64_t> Sizes, ScalarType D = kFloat) {
  return rand(Sizes).to(D);
}
/// Uniform int64 indices in [0, High).
Tensor indices(std::vector<int64_t> Sizes, int64_t High) {
  return sk::mul(rand(Sizes, TensorOptions().dtype(kDouble)), double(High))
      .to(kLong);
}
Tensor mask(std::vector<int64_t> Sizes) { return sk::gt(rand(Sizes), 0.5); }

//===----------------------------------------------------------------------===//
// Cases
//===----------------------------------------------------------------------===//

/// One operator call: the schema name and a maker of its arguments.
struct BenchCase {
  std::string Label;
  std::string Name, Overload;
  std::function<Stack()> MakeArgs;
};

std::vector<BenchCase> makeCases() {
  const int64_t M16 = int64_t(16) << 20;
  std::vector<BenchCase> C;
  auto Add = [&](std::string Label, std::string Name, std::string Overload,
                 std::function<Stack()> Make) {
    C.push_back({std::move(Label), "aten::" + std::move(Name),
                 std::move(Overload), std::move(Make)});
  };
  // Pointwise, float32 and bfloat16.
  for (ScalarType D : {kFloat, kBFloat16}) {
    std::string T = D == kFloat ? "f32" : "bf16";
    auto X = [=] { return normal({M16}, D); };
    Add("add 16M " + T, "add", "Tensor", [=] {
      return Stack{X(), X(), IValue(int64_t(1))};
    });
    Add("mul broadcast 4096x4096 by 4096x1 " + T, "mul", "Tensor", [=] {
      return Stack{normal({4096, 4096}, D), normal({4096, 1}, D)};
    });
    Add("div trunc 16M " + T, "div", "Tensor_mode", [=] {
      return Stack{X(), X(), IValue(std::string("trunc"))};
    });
    for (const char *Op :
         {"exp", "sin", "cos", "tanh", "sigmoid", "neg", "abs", "relu"})
      Add(std::string(Op) + " 16M " + T, Op, "", [=] { return Stack{X()}; });
    // Defined for positive inputs only.
    for (const char *Op : {"log", "sqrt", "rsqrt"})
      Add(std::string(Op) + " 16M " + T, Op, "",
          [=] { return Stack{unit({M16}, D)}; });
    Add("gelu 16M " + T, "gelu", "", [=] {
      return Stack{X(), IValue(std::string("none"))};
    });
    Add("gelu tanh 16M " + T, "gelu", "", [=] {
      return Stack{X(), IValue(std::string("tanh"))};
    });
    Add("softmax 4096x1024 " + T, "_softmax", "", [=] {
      return Stack{normal({4096, 1024}, D), int64_t(1), false};
    });
    Add("log_softmax 4096x1024 " + T, "_log_softmax", "", [=] {
      return Stack{normal({4096, 1024}, D), int64_t(1), false};
    });
    Add("layer_norm 4096x1024 " + T, "native_layer_norm", "", [=] {
      return Stack{normal({4096, 1024}, D), IValue(std::vector<int64_t>{1024}),
                   normal({1024}, D), normal({1024}, D), 1e-5};
    });
  }
  // float32 only from here.
  auto X16 = [=] { return normal({M16}); };
  Add("add_out 16M", "add", "out", [=] {
    return Stack{X16(), X16(), IValue(int64_t(1)), empty({M16})};
  });
  Add("add transposed 4096x4096", "add", "Tensor", [] {
    return Stack{normal({4096, 4096}).t(), normal({4096, 4096}),
                 IValue(int64_t(1))};
  });
  Add("add scalar 16M", "add", "Scalar", [=] {
    return Stack{X16(), 2.5, IValue(int64_t(1))};
  });
  Add("pow 2 16M", "pow", "Tensor_Scalar", [=] {
    return Stack{X16(), IValue(int64_t(2))};
  });
  Add("pow tensor 16M", "pow", "Tensor_Tensor", [=] {
    return Stack{unit({M16}), X16()};
  });
  Add("clamp 16M", "clamp", "", [=] { return Stack{X16(), -0.5, 0.5}; });
  Add("clamp tensor 16M", "clamp", "Tensor", [=] {
    return Stack{X16(), X16(), X16()};
  });
  Add("where 16M", "where", "self", [=] {
    return Stack{mask({M16}), X16(), X16()};
  });
  Add("lt 16M", "lt", "Tensor", [=] { return Stack{X16(), X16()}; });
  Add("eq scalar 16M", "eq", "Scalar", [=] { return Stack{X16(), 0.0}; });
  // Reductions.
  auto Big = [] { return normal({4096, 4096}); };
  auto Dims = [](int64_t D) { return IValue(std::vector<int64_t>{D}); };
  Add("sum 16M", "sum", "", [=] { return Stack{Big(), IValue()}; });
  Add("sum dim 0 4096x4096", "sum", "dim_IntList", [=] {
    return Stack{Big(), Dims(0), false, IValue()};
  });
  Add("sum dim 1 4096x4096", "sum", "dim_IntList", [=] {
    return Stack{Big(), Dims(1), false, IValue()};
  });
  Add("mean dim 1 4096x4096", "mean", "dim", [=] {
    return Stack{Big(), Dims(1), false, IValue()};
  });
  Add("prod dim 1 4096x4096", "prod", "dim_int", [=] {
    return Stack{unit({4096, 4096}), int64_t(1), false, IValue()};
  });
  Add("amax dim 1 4096x4096", "amax", "", [=] {
    return Stack{Big(), Dims(1), false};
  });
  Add("amin dim 0 4096x4096", "amin", "", [=] {
    return Stack{Big(), Dims(0), false};
  });
  Add("argmax dim 1 4096x4096", "argmax", "", [=] {
    return Stack{Big(), int64_t(1), false};
  });
  Add("argmin dim 1 4096x4096", "argmin", "", [=] {
    return Stack{Big(), int64_t(1), false};
  });
  Add("max dim 1 4096x4096", "max", "dim", [=] {
    return Stack{Big(), int64_t(1), false};
  });
  Add("min dim 1 4096x4096", "min", "dim", [=] {
    return Stack{Big(), int64_t(1), false};
  });
  Add("all dim 1 4096x4096", "all", "dim", [=] {
    return Stack{mask({4096, 4096}), int64_t(1), false};
  });
  Add("any 16M", "any", "", [=] { return Stack{mask({4096, 4096})}; });
  // Indexing.
  Add("index_select 100k of 1M x 128", "index_select", "", [] {
    return Stack{normal({1 << 20, 128}), int64_t(0),
                 indices({100000}, 1 << 20)};
  });
  Add("take 1M of 16M", "take", "", [=] {
    return Stack{X16(), indices({1 << 20}, M16)};
  });
  Add("gather 4096x64 from 4096x4096", "gather", "", [=] {
    return Stack{Big(), int64_t(1), indices({4096, 64}, 4096), false};
  });
  Add("masked_select 16M", "masked_select", "", [=] {
    return Stack{X16(), mask({M16})};
  });
  Add("nonzero 4096x4096", "nonzero", "", [] {
    return Stack{mask({4096, 4096})};
  });
  Add("cat 4 x 1024x4096", "cat", "", [] {
    return Stack{
        IValue(std::vector<Tensor>{normal({1024, 4096}), normal({1024, 4096}),
                                   normal({1024, 4096}), normal({1024, 4096})}),
        int64_t(0)};
  });
  Add("stack 4 x 1024x4096", "stack", "", [] {
    return Stack{
        IValue(std::vector<Tensor>{normal({1024, 4096}), normal({1024, 4096}),
                                   normal({1024, 4096}), normal({1024, 4096})}),
        int64_t(1)};
  });
  // Linear algebra.
  Add("mm 1024", "mm", "", [] {
    return Stack{normal({1024, 1024}), normal({1024, 1024})};
  });
  Add("bmm 32 x 256", "bmm", "", [] {
    return Stack{normal({32, 256, 256}), normal({32, 256, 256})};
  });
  Add("addmm 1024", "addmm", "", [] {
    return Stack{normal({1024}), normal({1024, 1024}), normal({1024, 1024}),
                 IValue(int64_t(1)), IValue(int64_t(1))};
  });
  Add("matmul 1024", "matmul", "", [] {
    return Stack{normal({1024, 1024}), normal({1024, 1024})};
  });
  Add("linear 4096x1024 by 1024x1024", "linear", "", [] {
    return Stack{normal({4096, 1024}), normal({1024, 1024}), normal({1024})};
  });
  Add("cdist 1024x1024x64", "cdist", "", [] {
    return Stack{normal({1024, 64}), normal({1024, 64}), 2.0, IValue()};
  });
  // Neural-network layers.
  Add("batch_norm train 32x64x56x56", "native_batch_norm", "", [] {
    return Stack{normal({32, 64, 56, 56}),
                 normal({64}),
                 normal({64}),
                 zeros({64}),
                 ones({64}),
                 true,
                 0.1,
                 1e-5};
  });
  Add("batch_norm eval 32x64x56x56", "native_batch_norm", "", [] {
    return Stack{normal({32, 64, 56, 56}),
                 normal({64}),
                 normal({64}),
                 zeros({64}),
                 ones({64}),
                 false,
                 0.1,
                 1e-5};
  });
  Add("embedding 100k of 1M x 128", "embedding", "", [] {
    return Stack{normal({1 << 20, 128}), indices({100000}, 1 << 20),
                 int64_t(-1), false, false};
  });
  for (int64_t Mode : {0, 1, 2})
    Add(std::string("embedding_bag ") +
            (Mode == 0   ? "sum"
             : Mode == 1 ? "mean"
                         : "max") +
            " 100k in bags of 50, 200k x 128",
        "_embedding_bag", "", [=] {
          return Stack{normal({200000, 128}),
                       indices({100000}, 200000),
                       sk::mul(arange(0, 2000, TensorOptions().dtype(kLong)),
                               int64_t(50)),
                       false,
                       Mode,
                       false,
                       IValue(),
                       false,
                       int64_t(-1)};
        });
  Add("binary_cross_entropy 16M", "binary_cross_entropy", "", [=] {
    return Stack{unit({M16}), unit({M16}), IValue(), int64_t(1)};
  });
  Add("max_pool2d 3x3 s2 32x64x112x112", "max_pool2d_with_indices", "", [] {
    return Stack{
        normal({32, 64, 112, 112}),         IValue(std::vector<int64_t>{3, 3}),
        IValue(std::vector<int64_t>{2, 2}), IValue(std::vector<int64_t>{1, 1}),
        IValue(std::vector<int64_t>{1, 1}), false};
  });
  Add("max_pool3d 2x2x2 8x32x32x64x64", "max_pool3d_with_indices", "", [] {
    return Stack{normal({8, 32, 32, 64, 64}),
                 IValue(std::vector<int64_t>{2, 2, 2}),
                 IValue(std::vector<int64_t>{2, 2, 2}),
                 IValue(std::vector<int64_t>{0, 0, 0}),
                 IValue(std::vector<int64_t>{1, 1, 1}),
                 false};
  });
  Add("upsample_nearest1d x2 64x256x1024", "upsample_nearest1d", "", [] {
    return Stack{normal({64, 256, 1024}), IValue(std::vector<int64_t>{2048}),
                 IValue()};
  });
  return C;
}

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
  std::vector<BenchCase> Cases = makeCases();
  for (const BenchCase &C : Cases)
    registerCase(C, TorchFirst);
  RatioReporter Reporter;
  benchmark::RunSpecifiedBenchmarks(&Reporter);
  printRatios(Cases);
  benchmark::Shutdown();
  return 0;
}
