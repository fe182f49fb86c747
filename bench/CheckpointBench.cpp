//===--- CheckpointBench.cpp - Loading safetensors checkpoints ------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// skc-bench-checkpoint: the checkpoints of docs/serialize.md, with a warm
/// file cache, written into a temporary directory at start:
///  - Llama 2 70B's checkpoint (the demo's skeleton: 723 tensors, 15
///    shards and an index) onto meta, which reads the 15 headers;
///  - a 1 GiB file of 16 float32 tensors onto the CPU: mapped, mapped with
///    every page read, and copied.
/// With Python's safetensors importable by SKC_PYTHON, the same files are
/// timed in it first (bench/safetensors_python.py: shapes and dtypes of
/// every tensor of the 15 shards, and safe_open + get_tensor of the 1 GiB
/// file), and printed beside skc's as "python/..." rows.
///
//===----------------------------------------------------------------------===//

#include "Llama.h"

#include "sk/core/Tensor.h"
#include "sk/ops/Factories.h"
#include "sk/serialize/Safetensors.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace st = sk::safetensors;

namespace {

std::string Dir, Index, OneGiB;

void llama70BOntoMeta(benchmark::State &State) {
  for (auto _ : State) {
    st::ShardedCheckpoint Checkpoint(Index);
    std::map<std::string, sk::Tensor> Weights = Checkpoint.load(sk::kMeta);
    benchmark::DoNotOptimize(Weights.size());
  }
}

void oneGiBOntoCPU(benchmark::State &State, st::LoadMode Mode,
                   bool ReadEveryPage) {
  for (auto _ : State) {
    std::map<std::string, sk::Tensor> Tensors =
        st::load_file(OneGiB, sk::kCPU, Mode);
    if (ReadEveryPage) {
      unsigned Sum = 0;
      for (auto &[Name, T] : Tensors) {
        const auto *Bytes = static_cast<const unsigned char *>(T.data_ptr());
        for (size_t I = 0; I < T.nbytes(); I += 4096)
          Sum += Bytes[I];
      }
      benchmark::DoNotOptimize(Sum);
    }
  }
  State.SetBytesProcessed(State.iterations() * (int64_t(1) << 30));
}

/// Python's medians, by case, from bench/safetensors_python.py.
std::map<std::string, double> timePython() {
  std::map<std::string, double> Out;
  std::string Command = std::string("'") + SKC_PYTHON + "' '" +
                        SKC_SAFETENSORS_PYTHON_BENCH + "' '" + Index + "' '" +
                        OneGiB + "' 30 2>/dev/null";
  FILE *Pipe = ::popen(Command.c_str(), "r");
  if (!Pipe)
    return Out;
  char Case[64];
  double Ms;
  while (std::fscanf(Pipe, "%63s %lf", Case, &Ms) == 2)
    Out[Case] = Ms;
  ::pclose(Pipe);
  return Out;
}

void writeFiles() {
  char Template[] = "/tmp/skc-bench-checkpoint-XXXXXX";
  if (const char *TmpDir = std::getenv("TMPDIR"); TmpDir && *TmpDir)
    Dir = std::string(TmpDir) + "/skc-bench-checkpoint-XXXXXX";
  else
    Dir = Template;
  if (!::mkdtemp(Dir.data())) {
    std::perror("skc-bench-checkpoint: mkdtemp");
    std::exit(1);
  }
  llama::LlamaModel Model(llama::LlamaConfig::llama70B(),
                          sk::TensorOptions(sk::kBFloat16).device(sk::kMeta),
                          nullptr);
  Index = llama::saveSkeletonCheckpoint(Model, Dir);
  std::map<std::string, sk::Tensor> Big;
  for (int I = 0; I < 16; ++I)
    Big.emplace("layer." + std::to_string(I),
                sk::full({int64_t(1) << 24}, float(I), sk::kFloat));
  OneGiB = Dir + "/one-gib.safetensors";
  st::save_file(Big, OneGiB);
}

void removeFiles() {
  std::string Command = "rm -rf '" + Dir + "'";
  if (std::system(Command.c_str()) != 0)
    std::fprintf(stderr, "skc-bench-checkpoint: could not remove %s\n",
                 Dir.c_str());
}

} // namespace

int main(int Argc, char **Argv) {
  benchmark::Initialize(&Argc, Argv);
  writeFiles();
  std::map<std::string, double> Python = timePython();
  benchmark::RegisterBenchmark("skc/llama70B checkpoint onto meta",
                               llama70BOntoMeta)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("skc/1 GiB onto CPU, mapped", oneGiBOntoCPU,
                               st::LoadMode::Map, false)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("skc/1 GiB onto CPU, mapped, every page read",
                               oneGiBOntoCPU, st::LoadMode::Map, true)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("skc/1 GiB onto CPU, copied", oneGiBOntoCPU,
                               st::LoadMode::Copy, false)
      ->Unit(benchmark::kMillisecond);
  // Python's own medians, reported as one manual-time iteration each.
  for (const auto &[Case, Ms] : Python)
    benchmark::RegisterBenchmark(("python/" + Case).c_str(),
                                 [Ms = Ms](benchmark::State &State) {
                                   for (auto _ : State)
                                     State.SetIterationTime(Ms / 1e3);
                                 })
        ->UseManualTime()
        ->Iterations(1)
        ->Repetitions(1)
        ->Unit(benchmark::kMillisecond);
  if (Python.empty())
    std::fprintf(stderr, "skc-bench-checkpoint: Python's safetensors is not "
                         "importable by " SKC_PYTHON "; no python/ rows\n");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  removeFiles();
}
