//===--- skc.cpp - The structured kernel compiler driver ------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Options, exit codes and the wiring of the libraries. Only this file
/// decides how skc exits:
///   0  no errors (warnings allowed unless -Werror),
///   1  diagnostics with errors were reported,
///   2  usage error, or a file could not be read.
/// With -verify, 0 means the diagnostics were those the inputs expect and 1
/// that they were not.
///
//===----------------------------------------------------------------------===//

#include "skc/Basic/Diagnostic.h"
#include "skc/Basic/Identifier.h"
#include "skc/Basic/OutputFiles.h"
#include "skc/Basic/SarifDiagnosticPrinter.h"
#include "skc/Basic/TextDiagnosticPrinter.h"
#include "skc/Basic/VerifyDiagnosticConsumer.h"
#include "skc/Config.h"
#include "skc/Driver/Pipeline.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace skc;

namespace {

enum class DiagnosticsFormat { Text, SARIF };

constexpr int ExitClean = 0;
constexpr int ExitDiagnostics = 1;
constexpr int ExitUsage = 2;

cl::OptionCategory SkcCategory("skc options");

cl::opt<std::string> SchemaPath(
    "schema", cl::desc("The operator schema file (native_functions.yaml "
                       "format) to read"),
    cl::value_desc("file"), cl::cat(SkcCategory));

cl::opt<std::string> TagsPath(
    "tags",
    cl::desc("The tags catalogue (tags.yaml format) that 'tags:' are checked "
             "against; default: tags.yaml beside the schema file, if any"),
    cl::value_desc("file"), cl::cat(SkcCategory));

cl::opt<std::string> DispatchKeysPath(
    "dispatch-keys",
    cl::desc("A catalogue of the project's own dispatch keys (a YAML list of "
             "'- key: NAME' with optional 'structured', 'alias' and "
             "'runtime'), added to PyTorch's keys"),
    cl::value_desc("file"), cl::cat(SkcCategory));

cl::opt<OpModelFormat> PrintOpModel(
    "print-op-model", cl::desc("Print the checked op model to stdout"),
    cl::init(OpModelFormat::None),
    cl::values(clEnumValN(OpModelFormat::Text, "text",
                          "readable text: functions, groups, dispatch"),
               clEnumValN(OpModelFormat::JSON, "json",
                          "JSON for tools (see docs/op-model.md)")),
    cl::cat(SkcCategory));

cl::opt<bool> PrintStats("print-stats",
                         cl::desc("Print counts of functions, kinds, groups "
                                  "and structured kernels to stdout"),
                         cl::cat(SkcCategory));

cl::opt<std::string> CoverageReport(
    "coverage-report",
    cl::desc("Print the coverage matrix as a Markdown table: per operator, "
             "the variants (functional, inplace, out=) each backend, Meta "
             "and the composite keys have a kernel for, and the dtypes the "
             "given sources' kernels dispatch on; to stdout, or with "
             "=FILE into FILE (rewritten only when it changes; the '=' is "
             "needed: '--coverage-report FILE' reads FILE as a source)"),
    cl::value_desc("file"), cl::ValueOptional, cl::cat(SkcCategory));

cl::opt<bool> WarningsAsErrors("Werror", cl::desc("Treat warnings as errors"),
                               cl::cat(SkcCategory));

cl::list<std::string> IgnoredWarnings(
    "Wno-", cl::AlwaysPrefix,
    cl::desc("Do not report the warning with this ID (the ID in brackets "
             "after its message: -Wno-warn_schema_not_canonical), nor its "
             "notes; it is not made an error by -Werror"),
    cl::value_desc("id"), cl::cat(SkcCategory));

cl::opt<std::string> SarifOutput(
    "sarif-output",
    cl::desc("Also write the diagnostics as one SARIF 2.1.0 log into this "
             "file, whatever --diagnostics-format says for stderr (written "
             "even when there are errors)"),
    cl::value_desc("file"), cl::cat(SkcCategory));

cl::list<std::string> SarifIncludes(
    "sarif-include",
    cl::desc("With --sarif-output: also copy the runs of this SARIF log "
             "(one an earlier skc step wrote, such as a --facts check's) "
             "into it, after this run's own"),
    cl::value_desc("file"), cl::cat(SkcCategory));

cl::opt<DiagnosticsFormat> DiagFormat(
    "diagnostics-format",
    cl::desc("How diagnostics are written to stderr (default: text)"),
    cl::init(DiagnosticsFormat::Text),
    cl::values(clEnumValN(DiagnosticsFormat::Text, "text",
                          "clang-style text with caret lines"),
               clEnumValN(DiagnosticsFormat::SARIF, "sarif",
                          "one SARIF 2.1.0 log (JSON), written at the end")),
    cl::cat(SkcCategory));

cl::opt<bool> Verify(
    "verify",
    cl::desc("Check the diagnostics against the 'expected-error {{...}}', "
             "'expected-warning', 'expected-note' and "
             "'expected-no-diagnostics' comments of the inputs instead of "
             "printing them; exit with 0 when they match, 1 otherwise"),
    cl::cat(SkcCategory));

cl::opt<std::string> OutputDir(
    "o",
    cl::desc("Write the generated files into this directory: the kernel "
             "headers, the C++ API, the schema registrations and, per "
             "backend, Register<Key>.cpp and <Key>Functions.h (the list is "
             "fixed by the options: see docs/cmake.md). Files whose content "
             "did not change are not rewritten; nothing is written when "
             "there are errors"),
    cl::value_desc("dir"), cl::cat(SkcCategory));

/// More shards than this are more files than any build wants.
constexpr unsigned MaxShards = 1024;

cl::opt<unsigned> Shards(
    "shards",
    cl::desc("Split each Register<Key>.cpp and Operators.cpp into N files "
             "(<name>_0.cpp ... <name>_<N-1>.cpp, N from 1 to 1024) to "
             "compile in parallel"),
    cl::value_desc("N"), cl::init(1), cl::cat(SkcCategory));

cl::opt<OutputSet> Outputs(
    "outputs", cl::desc("Which generated files -o writes (default: all)"),
    cl::init(OutputSet::All),
    cl::values(clEnumValN(OutputSet::All, "all", "every one"),
               clEnumValN(OutputSet::Schema, "schema",
                          "those made from the schema alone: the headers "
                          "kernel sources include, the C++ API, the schema "
                          "registrations"),
               clEnumValN(OutputSet::Library, "library",
                          "the others: each key's registrations and "
                          "<Key>Functions.h, which depend on what the "
                          "sources define")),
    cl::cat(SkcCategory));

cl::opt<std::string> FactsPath(
    "facts",
    cl::desc("Check the given kernel sources on their own and write what "
             "they define into this facts file for a later --merge, "
             "instead of generating anything: the checks that need the "
             "whole library (a kernel no source defines, one defined in "
             "two sources) are left to the merge"),
    cl::value_desc("file"), cl::cat(SkcCategory));

cl::opt<bool>
    Merge("merge",
          cl::desc("The inputs are the facts files (--facts) of every kernel "
                   "source of the library: check the library as a whole and "
                   "generate, as if its sources had been given (needs "
                   "--backend)"),
          cl::cat(SkcCategory));

cl::opt<std::string> EmitPCHPath(
    "emit-pch",
    cl::desc("Write a precompiled header of the generated NativeFunctions.h "
             "(and the runtime's headers it includes), built with the "
             "compile command of the one source given, into this file, and "
             "the flags it was built with into FILE.flags, instead of any "
             "other output: for --pch"),
    cl::value_desc("file"), cl::cat(SkcCategory));

cl::opt<std::string> PCHPath(
    "pch",
    cl::desc("Parse each source whose compile command is the one this "
             "precompiled header (--emit-pch) was built with through it; "
             "the others without"),
    cl::value_desc("file"), cl::cat(SkcCategory));

cl::opt<bool> PrintOutputs(
    "print-outputs",
    cl::desc("Print the files -o writes for these options, one path a line, "
             "and exit without reading the schema (for build systems)"),
    cl::cat(SkcCategory));

cl::opt<std::string> DepfilePath(
    "depfile",
    cl::desc("With -o, write a Makefile-syntax depfile naming the generated "
             "files and everything they were made from: the schema, the "
             "tags file, the sources and the headers they include"),
    cl::value_desc("file"), cl::cat(SkcCategory));

cl::opt<std::string> DepfileTarget(
    "depfile-target",
    cl::desc("The one target the depfile names (a build system's stamp "
             "file); default: every generated file"),
    cl::value_desc("path"), cl::cat(SkcCategory));

cl::opt<std::string> MetaTestsPath(
    "emit-meta-tests",
    cl::desc("Write a GoogleTest source with one test per functional "
             "operator that has a Meta kernel, comparing it with the CPU "
             "kernel over samples made from the schema (link it with "
             "skc::runtime_testing)"),
    cl::value_desc("file"), cl::cat(SkcCategory));

cl::opt<std::string> DispatcherNamespace(
    "namespace",
    cl::desc("The dispatcher namespace of operators written without one "
             "(default: aten)"),
    cl::value_desc("name"), cl::init("aten"), cl::cat(SkcCategory));

cl::opt<std::string> CppNamespace(
    "cpp-namespace",
    cl::desc("The C++ namespace of the generated API: <ns>::add, "
             "<ns>::cpu::add (default: sk)"),
    cl::value_desc("name"), cl::init("sk"), cl::cat(SkcCategory));

cl::list<std::string> Sources(cl::Positional,
                              cl::desc("[kernel sources (.cpp, .cu)...]"),
                              cl::cat(SkcCategory));

cl::opt<cl::boolOrDefault> Progress(
    "progress",
    cl::desc("Print '[3/28] checking FILE' before each kernel source "
             "(default: when stderr is a terminal and there are several)"),
    cl::cat(SkcCategory));

cl::opt<std::string> TimeTracePath(
    "time-trace",
    cl::desc("Write where the run's time goes, as Chrome trace JSON (as "
             "clang -ftime-trace does): the schema's check, each kernel "
             "source with Clang's own scopes inside (each header, the "
             "parse, template instantiation), the kernel checks, the "
             "emission"),
    cl::value_desc("file"), cl::cat(SkcCategory));

cl::opt<unsigned> TimeTraceGranularity(
    "time-trace-granularity",
    cl::desc("The shortest scope --time-trace records, in microseconds "
             "(default: 500)"),
    cl::value_desc("us"), cl::init(500), cl::cat(SkcCategory));

cl::opt<std::string> BuildPath(
    "p",
    cl::desc("Read the kernel sources' compile flags from "
             "<dir>/compile_commands.json (flags after '--' are used for "
             "sources it does not list)"),
    cl::value_desc("dir"), cl::cat(SkcCategory));

/// "CPU, CUDA, PrivateUse1, ...": what --backend takes.
std::string getBackendNames() {
  SmallVector<StringRef, 8> Names;
  for (DispatchKey K : getSelectableBackends())
    Names.push_back(getDispatchKeyName(K));
  return join(Names, ", ");
}

const std::string BackendHelp =
    "The backends built: their kernels must be defined and their "
    "registrations are generated; " +
    getBackendNames() +
    " (default: CPU when a .cpp source is given, plus CUDA when a .cu "
    "source is; Meta is always generated)";

cl::list<std::string> Backends(
    "backend", cl::desc(BackendHelp),
    cl::value_desc("CPU,CUDA"), cl::CommaSeparated, cl::cat(SkcCategory));

cl::opt<bool> NoMissingKernels(
    "no-missing-kernels",
    cl::desc("Do not report meta functions and kernels that no given source "
             "defines (when checking some of a library's sources)"),
    cl::cat(SkcCategory));

cl::opt<std::string> CUDAPath(
    "cuda-path", cl::desc("The CUDA toolkit .cu sources are parsed against"),
    cl::value_desc("dir"), cl::init(SKC_CUDA_PATH), cl::cat(SkcCategory));

cl::opt<std::string> RuntimeInclude(
    "runtime-include",
    cl::desc("The runtime's headers (the directory holding sk/Kernel.h); "
             "default: the include/ beside an installed skc's bin/, else the "
             "source tree's"),
    cl::value_desc("dir"), cl::init(SKC_RUNTIME_INCLUDE_DIR),
    cl::cat(SkcCategory));

} // namespace

/// Appends the runs of the SARIF logs \p Paths to those of \p Log. Each
/// run keeps its own artifacts, so results need no renumbering.
static Error appendSarifRuns(std::string &Log, ArrayRef<std::string> Paths) {
  if (Paths.empty())
    return Error::success();
  Expected<json::Value> Merged = json::parse(Log);
  if (!Merged)
    return Merged.takeError();
  json::Array *Runs = Merged->getAsObject()->getArray("runs");
  for (const std::string &Path : Paths) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Path);
    if (!Text)
      return createFileError(Path, Text.getError());
    Expected<json::Value> Other = json::parse((*Text)->getBuffer());
    if (!Other)
      return createFileError(Path, Other.takeError());
    const json::Object *O = Other->getAsObject();
    const json::Array *More = O ? O->getArray("runs") : nullptr;
    if (!More)
      return createStringError(std::errc::invalid_argument,
                               "'%s' is not a SARIF log", Path.c_str());
    Runs->insert(Runs->end(), More->begin(), More->end());
  }
  Log = formatv("{0:2}\n", std::move(*Merged));
  return Error::success();
}

/// --runtime-include, else the installed or the source tree's headers.
static std::string findRuntimeInclude(const char *Argv0) {
  if (RuntimeInclude.getNumOccurrences())
    return RuntimeInclude;
  return Invocation::getDefaultRuntimeIncludeDir(sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findRuntimeInclude)));
}

/// The invocation the options ask for, or what is wrong with them.
static Expected<Invocation> makeInvocation(const char *Argv0,
                                           std::vector<std::string> ExtraFlags) {
  auto UsageError = [](const Twine &Message) {
    return createStringError(std::make_error_code(std::errc::invalid_argument),
                             Message);
  };
  if (SchemaPath.empty() && !PrintOutputs)
    return UsageError("no input; pass '--schema FILE' (see 'skc --help')");
  Invocation Inv;
  for (const std::string &B : Backends) {
    std::optional<DispatchKey> K = lookupBuiltinDispatchKey(B);
    if (!K || !is_contained(getSelectableBackends(), *K))
      return UsageError("unknown backend '" + B + "'; expected one of " +
                        getBackendNames());
    Inv.Backends.push_back(*K);
  }
  // The default comes from the sources' kinds, which facts files do not
  // show in their names.
  if (Merge && Backends.empty())
    return UsageError("'--merge' needs '--backend': the facts files do not "
                      "say which backends the library builds");
  if (Backends.empty())
    Inv.Backends = Invocation::getDefaultBackends(Sources);
  // Both name C++ namespaces (and SK_LIBRARY's token): identifiers only.
  if (!isIdentifier(DispatcherNamespace))
    return UsageError("'--namespace' must be an identifier, not '" +
                      DispatcherNamespace + "'");
  SmallVector<StringRef, 2> CppParts;
  StringRef(CppNamespace).split(CppParts, "::");
  if (!all_of(CppParts, isIdentifier))
    return UsageError("'--cpp-namespace' must be a C++ namespace name such "
                      "as 'sk' or 'mylib::ops', not '" +
                      CppNamespace + "'");
  if (Shards == 0 || Shards > MaxShards)
    return UsageError("'--shards' must be from 1 to " + Twine(MaxShards) +
                      ", not " + Twine(Shards));
  if (!DepfilePath.empty() && OutputDir.empty() && FactsPath.empty() &&
      EmitPCHPath.empty())
    return UsageError(
        "'--depfile' needs '-o DIR', '--facts FILE' or '--emit-pch FILE'");
  if (!EmitPCHPath.empty()) {
    if (Sources.size() != 1)
      return UsageError("'--emit-pch' needs the one kernel source whose "
                        "compile command the header is built with");
    if (!OutputDir.empty() || !FactsPath.empty() || Merge)
      return UsageError("'--emit-pch' writes the header and nothing else");
  }
  if (Outputs != OutputSet::All && OutputDir.empty())
    return UsageError("'--outputs' needs '-o DIR'");
  if (!FactsPath.empty()) {
    if (Sources.empty())
      return UsageError("'--facts' needs a kernel source to check");
    for (auto [Given, Name] :
         {std::pair(!OutputDir.empty(), "-o"),
          std::pair(Merge.getValue(), "--merge"),
          std::pair(CoverageReport.getNumOccurrences() != 0,
                    "--coverage-report"),
          std::pair(!MetaTestsPath.empty(), "--emit-meta-tests")})
      if (Given)
        return UsageError(Twine("'--facts' checks sources and writes "
                                "nothing else; drop '") +
                          Name + "'");
  }

  Inv.SchemaPath = SchemaPath;
  Inv.TagsPath = TagsPath;
  Inv.DispatchKeysPath = DispatchKeysPath;
  Inv.Sources.assign(Sources.begin(), Sources.end());
  Inv.BuildPath = BuildPath;
  Inv.ExtraFlags = std::move(ExtraFlags);
  Inv.CUDAPath = CUDAPath;
  Inv.RuntimeIncludeDir = findRuntimeInclude(Argv0);
  Inv.NoMissingKernels = NoMissingKernels;
  Inv.Shards = Shards;
  Inv.Namespace = DispatcherNamespace;
  Inv.CppNamespace = CppNamespace;
  Inv.FactsPath = FactsPath;
  Inv.Merge = Merge;
  Inv.EmitPCHPath = EmitPCHPath;
  Inv.PCHPath = PCHPath;
  Inv.OutputDir = OutputDir;
  Inv.Outputs = Outputs;
  Inv.DepfilePath = DepfilePath;
  Inv.DepfileTarget = DepfileTarget;
  Inv.MetaTestsPath = MetaTestsPath;
  if (CoverageReport.getNumOccurrences())
    Inv.CoverageReport = CoverageReport;
  Inv.PrintOpModel = PrintOpModel;
  Inv.PrintStats = PrintStats;
  return Inv;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions({&SkcCategory, &getColorCategory()});
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "skc " << SKC_VERSION << " (LLVM " << LLVM_VERSION_STRING << ")\n";
  });
  // Flags after `--` are compile flags for the kernel sources, as in
  // clang's tools.
  std::vector<std::string> ExtraFlags;
  for (int I = 1; I < argc; ++I) {
    if (StringRef(argv[I]) != "--")
      continue;
    ExtraFlags.assign(argv + I + 1, argv + argc);
    argc = I;
    break;
  }
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "skc - the structured kernel compiler\n\n"
          "  Checks operator schemas written in PyTorch's "
          "native_functions.yaml format\n"
          "  and, given kernel sources, every meta function, impl and native "
          "kernel\n"
          "  in them against those schemas; with -o, generates the variants,\n"
          "  registrations, Meta backend and C++ API of every operator.\n\n"
          "  skc --schema ops.yaml [--backend=CPU,...] [-o DIR] [--depfile "
          "FILE]\n"
          "      [-p BUILD_DIR] [SOURCES...] [-- FLAGS]\n\n"
          "  A build checks each source on its own and then the library, as\n"
          "  a compiler and a linker would (docs/cmake.md):\n\n"
          "  skc --schema ops.yaml -o DIR --outputs=schema\n"
          "  skc --schema ops.yaml --facts=A.facts -p BUILD_DIR A.cpp\n"
          "  skc --schema ops.yaml --backend=CPU -o DIR --outputs=library\n"
          "      --merge A.facts ...\n\n"
          "  Diagnostics go to stderr: as text, or with "
          "--diagnostics-format=sarif\n"
          "  as one SARIF 2.1.0 log; -verify checks them against "
          "expected-* comments.\n\n"
          "  Exit codes: 0 clean, 1 errors reported, 2 usage or I/O error.\n",
          &errs()))
    return ExitUsage;

  Expected<Invocation> Inv = makeInvocation(argv[0], std::move(ExtraFlags));
  if (!Inv) {
    WithColor::error(errs(), "skc") << toString(Inv.takeError()) << '\n';
    return ExitUsage;
  }
  if (PrintOutputs) {
    for (const std::string &Path : getOutputPaths(*Inv))
      outs() << Path << '\n';
    return ExitClean;
  }

  SmallVector<diag::Kind, 4> Ignored;
  for (const std::string &ID : IgnoredWarnings) {
    std::optional<diag::Kind> K = lookupDiagnosticKind(ID);
    if (!K || getDiagnosticKindInfo(*K).Severity != DiagSeverity::Warning) {
      WithColor::error(errs(), "skc")
          << "-Wno-" << ID << ": '" << ID << "' is not "
          << (K ? "a warning; only warnings can be turned off"
                : "the ID of a diagnostic (docs/diagnostics.md lists them)")
          << '\n';
      return ExitUsage;
    }
    Ignored.push_back(*K);
  }

  SourceMgr SM;
  // LLVM's --color option decides; by default, colour when stderr is a tty.
  bool ShowColors = WithColor(errs()).colorsEnabled();
  // One diagnostic stream to stderr (text, SARIF, or -verify), and maybe a
  // SARIF file beside it.
  TextDiagnosticPrinter TextPrinter(errs(), SM, ShowColors);
  SarifDiagnosticPrinter SarifPrinter(errs(), SM, SKC_VERSION);
  VerifyDiagnosticConsumer Verifier(errs(), SM);
  DiagnosticConsumer *Terminal = &TextPrinter;
  if (Verify)
    Terminal = &Verifier;
  else if (DiagFormat == DiagnosticsFormat::SARIF)
    Terminal = &SarifPrinter;
  std::string SarifLog;
  raw_string_ostream SarifStream(SarifLog);
  SarifDiagnosticPrinter SarifFilePrinter(SarifStream, SM, SKC_VERSION);
  MultiplexDiagnosticConsumer Both({Terminal, &SarifFilePrinter});
  DiagnosticsEngine Diags(SM, SarifOutput.empty()
                                  ? *Terminal
                                  : static_cast<DiagnosticConsumer &>(Both));
  Diags.setWarningsAsErrors(WarningsAsErrors);
  for (diag::Kind K : Ignored)
    Diags.ignoreWarning(K);

  bool ShowProgress = Progress == cl::BOU_UNSET
                          ? errs().is_displayed() && Inv->Sources.size() > 1
                          : Progress == cl::BOU_TRUE;
  if (ShowProgress)
    Inv->SourceProgress = [](size_t Index, size_t Count, StringRef Source) {
      errs() << '[' << Index + 1 << '/' << Count << "] checking " << Source
             << '\n';
    };
  if (!TimeTracePath.empty())
    timeTraceProfilerInitialize(TimeTraceGranularity, "skc");
  Expected<bool> HadErrors = runPipeline(*Inv, Diags, outs());
  if (!TimeTracePath.empty()) {
    Error Written = timeTraceProfilerWrite(TimeTracePath, TimeTracePath);
    timeTraceProfilerCleanup();
    if (Written) {
      consumeError(HadErrors.takeError());
      WithColor::error(errs(), "skc") << toString(std::move(Written)) << '\n';
      return ExitUsage;
    }
  }
  if (!HadErrors) {
    WithColor::error(errs(), "skc") << toString(HadErrors.takeError()) << '\n';
    return ExitUsage;
  }
  if (!SarifOutput.empty()) {
    if (Error E = appendSarifRuns(SarifLog, SarifIncludes)) {
      WithColor::error(errs(), "skc") << toString(std::move(E)) << '\n';
      return ExitUsage;
    }
    OutputFiles Log;
    Log.add(SarifOutput, std::move(SarifLog));
    if (Error E = Log.commit()) {
      WithColor::error(errs(), "skc") << toString(std::move(E)) << '\n';
      return ExitUsage;
    }
  }
  if (Verify && Verifier.hadFailures())
    return ExitDiagnostics;
  // Under -verify, errors that were all expected are a success.
  if (*HadErrors)
    return Verify ? ExitClean : ExitDiagnostics;
  return ExitClean;
}
