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
#include "skc/Basic/OutputFiles.h"
#include "skc/Basic/SarifDiagnosticPrinter.h"
#include "skc/Basic/TextDiagnosticPrinter.h"
#include "skc/Basic/VerifyDiagnosticConsumer.h"
#include "skc/Config.h"
#include "skc/Emit/CoverageReport.h"
#include "skc/Emit/Emitters.h"
#include "skc/Parse/KernelSourceParser.h"
#include "skc/Parse/SchemaFile.h"
#include "skc/Sema/KernelChecks.h"
#include "skc/Sema/OperatorModel.h"
#include "skc/Sema/OperatorModelPrinter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace llvm;
using namespace skc;

namespace {

enum class OpModelFormat { None, Text, JSON };
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
             "=FILE into FILE (rewritten only when it changes)"),
    cl::value_desc("file"), cl::ValueOptional, cl::cat(SkcCategory));

cl::opt<bool> WarningsAsErrors("Werror", cl::desc("Treat warnings as errors"),
                               cl::cat(SkcCategory));

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

cl::opt<std::string> BuildPath(
    "p",
    cl::desc("Read the kernel sources' compile flags from "
             "<dir>/compile_commands.json (flags after '--' are used for "
             "sources it does not list)"),
    cl::value_desc("dir"), cl::cat(SkcCategory));

cl::list<std::string> Backends(
    "backend",
    cl::desc("The backends built: their kernels must be defined and their "
             "registrations are generated; CPU, CUDA, PrivateUse1, "
             "PrivateUse2, PrivateUse3 (default: CPU when a .cpp source is "
             "given, plus CUDA when a .cu source is; Meta is always "
             "generated)"),
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

/// Where the generated headers live in Clang's virtual file system while
/// kernel sources are checked.
constexpr const char *GeneratedIncludeDir = "/skc-generated";

} // namespace

/// Reads \p Path into \p SM and returns its buffer ID.
static Expected<unsigned> addFile(SourceMgr &SM, StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/true);
  if (!Buffer)
    return createStringError(Buffer.getError(), "cannot read '%s': %s",
                             Path.str().c_str(),
                             Buffer.getError().message().c_str());
  return SM.AddNewSourceBuffer(std::move(*Buffer), SMLoc());
}

/// The backends built: --backend (checked by main), else CPU for .cpp
/// sources and CUDA for .cu ones.
static std::vector<DispatchKey> getBackends() {
  std::vector<DispatchKey> Result;
  for (const std::string &B : Backends)
    Result.push_back(*lookupBuiltinDispatchKey(B));
  if (!Backends.empty())
    return Result;
  if (any_of(Sources, [](const std::string &S) {
        return !StringRef(S).ends_with(".cu");
      }))
    Result.push_back(DispatchKey::CPU);
  if (any_of(Sources,
             [](const std::string &S) { return StringRef(S).ends_with(".cu"); }))
    Result.push_back(DispatchKey::CUDA);
  return Result;
}

/// What checking the kernel sources found.
struct SourceFacts {
  std::vector<KernelDecl> Decls;
  /// The files the sources include (for the depfile).
  std::set<std::string> Dependencies;
};

/// Parses the kernel sources with the generated headers mapped in, and
/// checks every definition against the model.
static Error checkKernelSources(const OperatorModel &Model,
                                ArrayRef<GeneratedFile> Generated,
                                const std::vector<std::string> &ExtraFlags,
                                DiagnosticsEngine &Diags, SourceFacts &Facts) {
  std::shared_ptr<const clang::tooling::CompilationDatabase> Database;
  if (!BuildPath.empty()) {
    auto DB = loadCompilationDatabase(BuildPath);
    if (!DB)
      return DB.takeError();
    Database = std::move(*DB);
  }
  KernelSourceOptions Options;
  Options.ExtraFlags = ExtraFlags;
  Options.GeneratedIncludeDir = GeneratedIncludeDir;
  for (const GeneratedFile &F : Generated)
    Options.GeneratedHeaders.push_back(
        {(Twine(GeneratedIncludeDir) + "/" + F.Name).str(), F.Contents});
  Options.RuntimeIncludeDir = RuntimeInclude;
  Options.ResourceDir = SKC_CLANG_RESOURCE_DIR;
  Options.CUDAPath = CUDAPath;
  Options.Dependencies = &Facts.Dependencies;

  if (Error E = parseKernelSources(Sources, Database.get(), Options, Diags,
                                   Facts.Decls))
    return E;

  KernelCheckOptions Check;
  Check.RequireAllKernels = !NoMissingKernels;
  Check.Backends = getBackends();
  checkKernels(Model, Facts.Decls, Check, Diags);
  return Error::success();
}

/// Escapes a path for a Makefile-syntax depfile (spaces, '#', '$').
static std::string escapeForDepfile(StringRef Path) {
  std::string Out;
  for (char C : Path) {
    if (C == ' ' || C == '#')
      Out += '\\';
    else if (C == '$')
      Out += '$';
    Out += C;
  }
  return Out;
}

/// Where -o puts the generated file \p Name.
static std::string getOutputPath(StringRef Name) {
  SmallString<256> Path(OutputDir);
  sys::path::append(Path, Name);
  return std::string(Path);
}

/// The depfile: every generated file (or --depfile-target) depends on
/// every input.
static std::string makeDepfile(ArrayRef<GeneratedFile> Files,
                               ArrayRef<std::string> Inputs) {
  std::string Text;
  raw_string_ostream OS(Text);
  if (!DepfileTarget.empty()) {
    OS << escapeForDepfile(DepfileTarget);
  } else {
    for (size_t I = 0; I != Files.size(); ++I)
      OS << (I ? " \\\n  " : "") << escapeForDepfile(getOutputPath(Files[I].Name));
  }
  OS << ':';
  for (const std::string &Input : Inputs)
    OS << " \\\n  " << escapeForDepfile(Input);
  OS << '\n';
  return Text;
}

/// The runtime headers of an installation (<prefix>/include beside
/// <prefix>/bin/skc), or the source tree's, found at configure time.
static std::string findRuntimeInclude(const char *Argv0) {
  if (RuntimeInclude.getNumOccurrences())
    return RuntimeInclude;
  std::string Exe = sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findRuntimeInclude));
  SmallString<256> Installed(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Installed, "include");
  SmallString<256> Probe(Installed);
  sys::path::append(Probe, "sk", "Kernel.h");
  if (!Exe.empty() && sys::fs::exists(Probe))
    return std::string(Installed);
  return RuntimeInclude;
}

/// The tags file to use: --tags, else tags.yaml beside the schema, else none.
static std::string findTagsFile() {
  if (!TagsPath.empty())
    return TagsPath;
  SmallString<256> Beside(SchemaPath);
  sys::path::remove_filename(Beside);
  sys::path::append(Beside, "tags.yaml");
  if (SchemaPath != "-" && sys::fs::exists(Beside))
    return std::string(Beside);
  return "";
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
          "  skc --schema ops.yaml [--backend=CPU,...] [-o DIR] [--depfile FILE]\n"
          "      [-p BUILD_DIR] [SOURCES...] [-- FLAGS]\n\n"
          "  Diagnostics go to stderr: as text, or with "
          "--diagnostics-format=sarif\n"
          "  as one SARIF 2.1.0 log; -verify checks them against "
          "expected-* comments.\n\n"
          "  Exit codes: 0 clean, 1 errors reported, 2 usage or I/O error.\n",
          &errs()))
    return ExitUsage;

  auto Fail = [](Error E) {
    WithColor::error(errs(), "skc") << toString(std::move(E)) << '\n';
    return ExitUsage;
  };
  if (SchemaPath.empty() && !PrintOutputs) {
    WithColor::error(errs(), "skc")
        << "no input; pass '--schema FILE' (see 'skc --help')\n";
    return ExitUsage;
  }
  for (const std::string &B : Backends) {
    std::optional<DispatchKey> K = lookupBuiltinDispatchKey(B);
    if (!K || !is_contained(getSelectableBackends(), *K)) {
      SmallVector<StringRef, 8> Names;
      for (DispatchKey S : getSelectableBackends())
        Names.push_back(getDispatchKeyName(S));
      WithColor::error(errs(), "skc") << "unknown backend '" << B
                                      << "'; expected one of "
                                      << join(Names, ", ") << "\n";
      return ExitUsage;
    }
  }
  // Both name C++ namespaces (and SK_LIBRARY's token): identifiers only.
  auto IsIdentifier = [](StringRef S) {
    return !S.empty() && !isDigit(S.front()) &&
           all_of(S, [](char C) { return isAlnum(C) || C == '_'; });
  };
  if (!IsIdentifier(DispatcherNamespace)) {
    WithColor::error(errs(), "skc")
        << "'--namespace' must be an identifier, not '" << DispatcherNamespace
        << "'\n";
    return ExitUsage;
  }
  SmallVector<StringRef, 2> CppParts;
  StringRef(CppNamespace).split(CppParts, "::");
  if (!all_of(CppParts, IsIdentifier)) {
    WithColor::error(errs(), "skc")
        << "'--cpp-namespace' must be a C++ namespace name such as 'sk' or "
           "'mylib::ops', not '"
        << CppNamespace << "'\n";
    return ExitUsage;
  }
  if (Shards == 0 || Shards > MaxShards) {
    WithColor::error(errs(), "skc")
        << "'--shards' must be from 1 to " << MaxShards << ", not " << Shards
        << "\n";
    return ExitUsage;
  }
  if (!DepfilePath.empty() && OutputDir.empty()) {
    WithColor::error(errs(), "skc") << "'--depfile' needs '-o DIR'\n";
    return ExitUsage;
  }
  RuntimeInclude = findRuntimeInclude(argv[0]);

  EmitOptions Opts;
  Opts.Backends = getBackends();
  Opts.Shards = Shards;
  Opts.Namespace = DispatcherNamespace;
  Opts.CppNamespace = CppNamespace;
  if (PrintOutputs) {
    for (const std::string &Name : getOutputFileNames(Opts))
      outs() << getOutputPath(Name) << '\n';
    return ExitClean;
  }

  SourceMgr SM;
  // LLVM's --color option decides; by default, colour when stderr is a tty.
  bool ShowColors = WithColor(errs()).colorsEnabled();
  // One diagnostic stream, three consumers: text, SARIF, or -verify.
  TextDiagnosticPrinter TextPrinter(errs(), SM, ShowColors);
  SarifDiagnosticPrinter SarifPrinter(errs(), SM, SKC_VERSION);
  VerifyDiagnosticConsumer Verifier(errs(), SM);
  DiagnosticConsumer *Consumer = &TextPrinter;
  if (Verify)
    Consumer = &Verifier;
  else if (DiagFormat == DiagnosticsFormat::SARIF)
    Consumer = &SarifPrinter;
  DiagnosticsEngine Diags(SM, *Consumer);
  Diags.setWarningsAsErrors(WarningsAsErrors);

  Expected<unsigned> SchemaBuffer = addFile(SM, SchemaPath);
  if (!SchemaBuffer)
    return Fail(SchemaBuffer.takeError());

  std::optional<TagsFile> Tags;
  if (std::string Path = findTagsFile(); !Path.empty()) {
    Expected<unsigned> TagsBuffer = addFile(SM, Path);
    if (!TagsBuffer)
      return Fail(TagsBuffer.takeError());
    Tags = parseTagsFile(*TagsBuffer, Diags);
  }

  DispatchKeyCatalogue Keys;
  if (!DispatchKeysPath.empty()) {
    Expected<unsigned> KeysBuffer = addFile(SM, DispatchKeysPath);
    if (!KeysBuffer)
      return Fail(KeysBuffer.takeError());
    Keys.addKeys(parseDispatchKeysFile(*KeysBuffer, Diags), Diags);
  }

  TypeContext Types;
  std::vector<SchemaEntry> Entries =
      parseSchemaFile(*SchemaBuffer, Types, Diags);
  OperatorModel Model = buildOperatorModel(
      std::move(Entries), Tags ? &*Tags : nullptr, Diags, std::move(Keys));

  Opts.Inputs.push_back(sys::path::filename(SchemaPath).str());
  std::vector<GeneratedFile> Headers;
  SourceFacts Facts;
  // Kernel sources are checked against a sound schema only.
  if (!Diags.hasErrors()) {
    // Every generated header, so that a composite kernel may include
    // Functions.h before it exists on disk.
    for (GeneratedFile &F : emitAll(Model, Opts))
      if (StringRef(F.Name).ends_with(".h"))
        Headers.push_back(std::move(F));
    if (!Sources.empty())
      if (Error E =
              checkKernelSources(Model, Headers, ExtraFlags, Diags, Facts))
        return Fail(std::move(E));
  }
  Diags.finish();

  if (Verify && Verifier.hadFailures())
    return ExitDiagnostics;
  // Under -verify, errors that were all expected are a success; either way
  // there is no output to produce from an input with errors.
  if (Diags.hasErrors())
    return Verify ? ExitClean : ExitDiagnostics;

  switch (PrintOpModel) {
  case OpModelFormat::None:
    break;
  case OpModelFormat::Text:
    printOperatorModel(Model, SM, outs());
    break;
  case OpModelFormat::JSON:
    outs() << formatv("{0:2}", toJSON(Model, SM)) << '\n';
    break;
  }
  if (PrintStats)
    printStats(computeStats(Model), outs());
  if (!Sources.empty()) {
    Opts.DefinedNativeKernels.emplace();
    for (const KernelDecl &D : Facts.Decls)
      if (D.Kind == KernelDeclKind::Native)
        Opts.DefinedNativeKernels->insert(D.Name);
  }
  // Every file this run writes, written together or not at all.
  OutputFiles Outputs;
  if (CoverageReport.getNumOccurrences()) {
    std::string Report;
    raw_string_ostream OS(Report);
    printCoverageReport(Model, Opts, Facts.Decls, !Sources.empty(),
                        CoverageReport.empty() ? static_cast<raw_ostream &>(outs())
                                               : OS);
    if (!CoverageReport.empty())
      Outputs.add(CoverageReport, std::move(Report));
  }
  if (!MetaTestsPath.empty())
    Outputs.add(MetaTestsPath,
                emitMetaConsistencyTests(Model, Opts,
                                         sys::path::filename(MetaTestsPath))
                    .Contents);
  if (!OutputDir.empty()) {
    std::vector<GeneratedFile> Files = emitAll(Model, Opts);
    if (!DepfilePath.empty()) {
      // Absolute paths, each once: Clang names a source as its compile
      // command does, which need not be how it was given.
      std::vector<std::string> Inputs;
      auto Add = [&](StringRef Path) {
        SmallString<256> Absolute(Path);
        sys::fs::make_absolute(Absolute);
        sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
        if (!is_contained(Inputs, Absolute))
          Inputs.push_back(std::string(Absolute));
      };
      Add(SchemaPath);
      if (std::string Tags = findTagsFile(); !Tags.empty())
        Add(Tags);
      if (!DispatchKeysPath.empty())
        Add(DispatchKeysPath);
      for (const std::string &Source : Sources)
        Add(Source);
      for (const std::string &D : Facts.Dependencies)
        Add(D);
      Outputs.add(DepfilePath, makeDepfile(Files, Inputs));
    }
    for (GeneratedFile &F : Files)
      Outputs.add(getOutputPath(F.Name), std::move(F.Contents));
  }
  if (Error E = Outputs.commit())
    return Fail(std::move(E));
  return ExitClean;
}
