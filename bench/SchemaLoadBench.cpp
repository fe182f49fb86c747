//===--- SchemaLoadBench.cpp - Loading PyTorch's schema file --------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How long skc takes to load and check PyTorch 1.13's native_functions.yaml
/// (2,493 entries), and where that time goes:
///
///   BM_LoadAndValidate      tags.yaml, YAML, entries, func strings, and the
///                           op model with every check: what `skc --schema`
///                           does before printing anything;
///   BM_ReadYAML             readYAML alone (yaml-cpp and the located tree);
///   BM_ParseFuncStrings     parseFunctionSchema over every func string;
///   BM_BuildOperatorModel   buildOperatorModel alone, on parsed entries;
///   BM_Generate             load, check and emit every file `skc -o`
///                           writes for --backend=CPU,CUDA (in memory):
///                           the generation step of issue 5 (target <= 1 s;
///                           torchgen: 8.2 s);
///   BM_EmitAll              emitAll alone, on a built model.
///
/// The files are read once, outside the timed loops; each iteration adds
/// them to a fresh SourceMgr (without copying) as the driver would. They
/// come from SKC_BENCH_SCHEMA_DIR when it is set (another release's
/// native_functions.yaml and tags.yaml), else from PyTorch 1.13's.
///
//===----------------------------------------------------------------------===//

#include "skc/Basic/Diagnostic.h"
#include "skc/Emit/Emitters.h"
#include "skc/Parse/SchemaFile.h"
#include "skc/Parse/SchemaParser.h"
#include "skc/Parse/YAMLNode.h"
#include "skc/Sema/OperatorModel.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <benchmark/benchmark.h>

#include <cstdlib>

using namespace llvm;
using namespace skc;

namespace {

/// A file read once for all benchmarks.
class InputFile {
public:
  explicit InputFile(StringRef Name) {
    const char *Dir = std::getenv("SKC_BENCH_SCHEMA_DIR");
    std::string Path =
        (Twine(Dir ? Dir : SKC_PYTORCH_YAML_DIR) + "/" + Name).str();
    ErrorOr<std::unique_ptr<MemoryBuffer>> B =
        MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (B)
      Buffer = std::move(*B);
    else
      Error = "cannot read '" + Path + "': " + B.getError().message();
  }

  /// Adds the file to \p SM without copying it, and returns its buffer ID.
  unsigned addTo(SourceMgr &SM) const {
    return SM.AddNewSourceBuffer(
        MemoryBuffer::getMemBuffer(Buffer->getMemBufferRef()), SMLoc());
  }

  /// Why the file could not be read, or empty.
  std::string Error;

private:
  std::unique_ptr<MemoryBuffer> Buffer;
};

} // namespace

static const InputFile &getSchemaFile() {
  static const InputFile File("native_functions.yaml");
  return File;
}

static const InputFile &getTagsFile() {
  static const InputFile File("tags.yaml");
  return File;
}

/// Skips \p State's benchmark, and returns true, if an input is missing.
static bool skipIfUnreadable(benchmark::State &State) {
  for (const InputFile *F : {&getSchemaFile(), &getTagsFile()}) {
    if (F->Error.empty())
      continue;
    State.SkipWithError(F->Error.c_str());
    return true;
  }
  return false;
}

/// Reports how many diagnostics the last iteration produced, and how many
/// functions it checked, as counters next to the timings.
static void setCounters(benchmark::State &State, const DiagnosticsEngine &Diags,
                        size_t Functions) {
  State.counters["errors"] = Diags.getNumErrors();
  State.counters["warnings"] = Diags.getNumWarnings();
  State.counters["functions"] = Functions;
}

/// What `skc --schema` does before it prints or writes anything: tags.yaml,
/// the YAML, the entries, the func strings, the op model and its checks.
static OperatorModel loadModel(SourceMgr &SM, TypeContext &Types,
                               DiagnosticsEngine &Diags) {
  TagsFile Tags = parseTagsFile(getTagsFile().addTo(SM), Diags);
  std::vector<SchemaEntry> Entries =
      parseSchemaFile(getSchemaFile().addTo(SM), Types, Diags);
  return buildOperatorModel(std::move(Entries), &Tags, Diags);
}

static void BM_LoadAndValidate(benchmark::State &State) {
  if (skipIfUnreadable(State))
    return;
  for (auto _ : State) {
    SourceMgr SM;
    IgnoringDiagnosticConsumer Consumer;
    DiagnosticsEngine Diags(SM, Consumer);
    TypeContext Types;
    OperatorModel Model = loadModel(SM, Types, Diags);
    benchmark::DoNotOptimize(Model);
    setCounters(State, Diags, Model.getFunctions().size());
  }
}
BENCHMARK(BM_LoadAndValidate)->Unit(benchmark::kMillisecond);

static void BM_ReadYAML(benchmark::State &State) {
  if (skipIfUnreadable(State))
    return;
  for (auto _ : State) {
    SourceMgr SM;
    IgnoringDiagnosticConsumer Consumer;
    DiagnosticsEngine Diags(SM, Consumer);
    std::optional<YAMLNode> Root = readYAML(getSchemaFile().addTo(SM), Diags);
    benchmark::DoNotOptimize(Root);
    setCounters(State, Diags,
                Root && Root->isSequence() ? Root->getItems().size() : 0);
  }
}
BENCHMARK(BM_ReadYAML)->Unit(benchmark::kMillisecond);

static void BM_ParseFuncStrings(benchmark::State &State) {
  if (skipIfUnreadable(State))
    return;
  // The func scalars point into this SourceMgr's buffer.
  SourceMgr SM;
  IgnoringDiagnosticConsumer Consumer;
  DiagnosticsEngine SetupDiags(SM, Consumer);
  std::vector<YAMLScalar> Funcs;
  if (std::optional<YAMLNode> Root =
          readYAML(getSchemaFile().addTo(SM), SetupDiags);
      Root && Root->isSequence()) {
    for (const YAMLNode &Entry : Root->getItems()) {
      if (!Entry.isMapping())
        continue;
      for (const auto &[Key, Value] : Entry.getEntries())
        if (Key.Value == "func" && Value.isScalar())
          Funcs.push_back(Value.getScalar());
    }
  }
  for (auto _ : State) {
    DiagnosticsEngine Diags(SM, Consumer);
    TypeContext Types;
    for (const YAMLScalar &Func : Funcs) {
      std::optional<FunctionSchema> Schema =
          parseFunctionSchema(Func, Types, Diags);
      benchmark::DoNotOptimize(Schema);
    }
    setCounters(State, Diags, Funcs.size());
  }
}
BENCHMARK(BM_ParseFuncStrings)->Unit(benchmark::kMillisecond);

static void BM_BuildOperatorModel(benchmark::State &State) {
  if (skipIfUnreadable(State))
    return;
  SourceMgr SM;
  IgnoringDiagnosticConsumer Consumer;
  DiagnosticsEngine SetupDiags(SM, Consumer);
  TagsFile Tags = parseTagsFile(getTagsFile().addTo(SM), SetupDiags);
  TypeContext Types;
  std::vector<SchemaEntry> Entries =
      parseSchemaFile(getSchemaFile().addTo(SM), Types, SetupDiags);
  for (auto _ : State) {
    // buildOperatorModel takes the entries; copying them is not timed.
    State.PauseTiming();
    std::vector<SchemaEntry> Copy = Entries;
    State.ResumeTiming();
    DiagnosticsEngine Diags(SM, Consumer);
    OperatorModel Model = buildOperatorModel(std::move(Copy), &Tags, Diags);
    benchmark::DoNotOptimize(Model);
    setCounters(State, Diags, Model.getFunctions().size());
  }
}
BENCHMARK(BM_BuildOperatorModel)->Unit(benchmark::kMillisecond);

static EmitOptions getEmitOptions() {
  EmitOptions Opts;
  Opts.Inputs = {"native_functions.yaml"};
  Opts.Backends = {DispatchKey::CPU, DispatchKey::CUDA};
  return Opts;
}

/// Reports the bytes the last iteration generated.
static void setEmitCounters(benchmark::State &State,
                            const std::vector<GeneratedFile> &Files) {
  size_t Bytes = 0;
  for (const GeneratedFile &F : Files)
    Bytes += F.Contents.size();
  State.counters["files"] = Files.size();
  State.counters["bytes"] = Bytes;
}

static void BM_Generate(benchmark::State &State) {
  if (skipIfUnreadable(State))
    return;
  EmitOptions Opts = getEmitOptions();
  for (auto _ : State) {
    SourceMgr SM;
    IgnoringDiagnosticConsumer Consumer;
    DiagnosticsEngine Diags(SM, Consumer);
    TypeContext Types;
    OperatorModel Model = loadModel(SM, Types, Diags);
    std::vector<GeneratedFile> Files = emitAll(Model, Opts);
    benchmark::DoNotOptimize(Files);
    setEmitCounters(State, Files);
  }
}
BENCHMARK(BM_Generate)->Unit(benchmark::kMillisecond);

static void BM_EmitAll(benchmark::State &State) {
  if (skipIfUnreadable(State))
    return;
  SourceMgr SM;
  IgnoringDiagnosticConsumer Consumer;
  DiagnosticsEngine Diags(SM, Consumer);
  TypeContext Types;
  OperatorModel Model = loadModel(SM, Types, Diags);
  EmitOptions Opts = getEmitOptions();
  for (auto _ : State) {
    std::vector<GeneratedFile> Files = emitAll(Model, Opts);
    benchmark::DoNotOptimize(Files);
    setEmitCounters(State, Files);
  }
}
BENCHMARK(BM_EmitAll)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
