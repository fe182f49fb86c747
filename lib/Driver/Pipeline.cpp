//===--- Pipeline.cpp - One skc run, as a library -------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Driver/Pipeline.h"
#include "skc/Basic/Diagnostic.h"
#include "skc/Basic/OutputFiles.h"
#include "skc/Config.h"
#include "skc/Driver/KernelFacts.h"
#include "skc/Emit/CoverageReport.h"
#include "skc/Emit/Emitters.h"
#include "skc/Frontend/KernelSourceParser.h"
#include "skc/Parse/SchemaFile.h"
#include "skc/Sema/KernelChecks.h"
#include "skc/Sema/OperatorModelPrinter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace skc {

/// Where the generated headers live in Clang's virtual file system while
/// kernel sources are checked.
static constexpr const char *GeneratedIncludeDir = "/skc-generated";

/// Reads \p Path (from \p FS when it is given and Path is not "-") into
/// \p SM and returns its buffer ID.
static Expected<unsigned> addFile(SourceMgr &SM, StringRef Path,
                                  vfs::FileSystem *FS) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      FS && Path != "-"
          ? FS->getBufferForFile(Path, /*FileSize=*/-1,
                                 /*RequiresNullTerminator=*/true,
                                 /*IsVolatile=*/false, /*IsText=*/true)
          : MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/true);
  if (!Buffer)
    return createStringError(Buffer.getError(), "cannot read '%s': %s",
                             Path.str().c_str(),
                             Buffer.getError().message().c_str());
  return SM.AddNewSourceBuffer(std::move(*Buffer), SMLoc());
}

EmitOptions getEmitOptions(const Invocation &Inv) {
  EmitOptions Opts;
  Opts.Inputs.push_back(sys::path::filename(Inv.SchemaPath).str());
  Opts.Backends = Inv.Backends;
  Opts.Shards = Inv.Shards;
  Opts.Namespace = Inv.Namespace;
  Opts.CppNamespace = Inv.CppNamespace;
  return Opts;
}

std::vector<std::string> getOutputPaths(const Invocation &Inv) {
  std::vector<std::string> Paths;
  for (const std::string &Name :
       getOutputFileNames(getEmitOptions(Inv), Inv.Outputs))
    Paths.push_back(Inv.getOutputPath(Name));
  return Paths;
}

std::vector<GeneratedFile> emitKernelHeaders(const Invocation &Inv,
                                             const OperatorModel &Model) {
  llvm::TimeTraceScope Scope("EmitKernelHeaders");
  std::vector<GeneratedFile> Headers;
  for (GeneratedFile &F : emitAll(Model, getEmitOptions(Inv)))
    if (StringRef(F.Name).ends_with(".h"))
      Headers.push_back(std::move(F));
  return Headers;
}

KernelSourceOptions getKernelSourceOptions(const Invocation &Inv,
                                           ArrayRef<GeneratedFile> Headers) {
  KernelSourceOptions Options;
  Options.ExtraFlags = Inv.ExtraFlags;
  Options.GeneratedIncludeDir = GeneratedIncludeDir;
  for (const GeneratedFile &F : Headers)
    Options.GeneratedHeaders.push_back(
        {(Twine(GeneratedIncludeDir) + "/" + F.Name).str(), F.Contents});
  Options.RuntimeIncludeDir = Inv.RuntimeIncludeDir;
  Options.ResourceDir = SKC_CLANG_RESOURCE_DIR;
  Options.CUDAPath = Inv.CUDAPath;
  Options.FileSystem = Inv.FileSystem;
  return Options;
}

KernelCheckOptions getKernelCheckOptions(const Invocation &Inv) {
  KernelCheckOptions Check;
  // A source checked on its own is not the library.
  Check.RequireAllKernels = !Inv.NoMissingKernels && Inv.FactsPath.empty();
  Check.Backends = Inv.Backends;
  return Check;
}

/// Parses the kernel sources with the generated headers mapped in, and
/// checks every definition against the model.
static Error checkKernelSources(const Invocation &Inv,
                                ArrayRef<GeneratedFile> Headers,
                                DiagnosticsEngine &Diags, Analysis &A) {
  std::shared_ptr<const clang::tooling::CompilationDatabase> Database;
  if (!Inv.BuildPath.empty()) {
    auto DB = loadCompilationDatabase(Inv.BuildPath);
    if (!DB)
      return DB.takeError();
    Database = std::move(*DB);
  }
  KernelSourceOptions Options = getKernelSourceOptions(Inv, Headers);
  Options.Dependencies = &A.Dependencies;
  Options.BeforeSource = Inv.SourceProgress;
  Options.PrecompiledHeader = Inv.PCHPath;
  if (!Inv.EmitPCHPath.empty()) {
    llvm::TimeTraceScope Scope("BuildPCH");
    return buildKernelPCH(Inv.Sources.front(), Database.get(), Options,
                          Inv.EmitPCHPath, Diags);
  }
  if (Error E = parseKernelSources(Inv.Sources, Database.get(), Options, Diags,
                                   A.Decls))
    return E;
  llvm::TimeTraceScope Scope("CheckKernels");
  checkKernels(A.Model, A.Decls, getKernelCheckOptions(Inv), Diags,
               Inv.FactsPath.empty() ? nullptr : &A.Provided);
  return Error::success();
}

/// Reads the facts files Inv.Sources names and checks the library they
/// describe as a whole.
static Error mergeKernelFacts(const Invocation &Inv, DiagnosticsEngine &Diags,
                              Analysis &A) {
  llvm::TimeTraceScope Scope("MergeKernelFacts");
  IntrusiveRefCntPtr<vfs::FileSystem> FSRef =
      Inv.FileSystem ? Inv.FileSystem : vfs::getRealFileSystem();
  vfs::FileSystem &FS = *FSRef;
  for (size_t I = 0; I != Inv.Sources.size(); ++I) {
    const std::string &Path = Inv.Sources[I];
    ErrorOr<std::unique_ptr<MemoryBuffer>> Text = FS.getBufferForFile(Path);
    if (!Text)
      return createFileError(Path, Text.getError());
    Expected<KernelFacts> Facts =
        readKernelFacts((*Text)->getBuffer(), Path, I);
    if (!Facts)
      return Facts.takeError();
    std::move(Facts->Decls.begin(), Facts->Decls.end(),
              std::back_inserter(A.Decls));
    std::move(Facts->Provided.begin(), Facts->Provided.end(),
              std::back_inserter(A.Provided));
  }
  // A definition's source is read only when a diagnostic points at it.
  SourceMgr &SM = Diags.getSourceMgr();
  StringMap<unsigned> Buffers;
  auto Locate = [&](const ProvidedKernel &K) {
    auto [It, Inserted] = Buffers.try_emplace(K.File, 0);
    if (Inserted) {
      if (Expected<unsigned> ID = addFile(SM, K.File, &FS))
        It->second = *ID;
      else
        consumeError(ID.takeError());
    }
    return It->second ? SM.FindLocForLineAndColumn(It->second, K.Line, K.Column)
                      : SMLoc();
  };
  llvm::TimeTraceScope CheckScope("CheckLibrary");
  checkLibrary(A.Model, A.Provided, getKernelCheckOptions(Inv), Diags, Locate);
  return Error::success();
}

Expected<Analysis> analyzeSchema(const Invocation &Inv,
                                 DiagnosticsEngine &Diags,
                                 YAMLReadCache *Cache) {
  llvm::TimeTraceScope Scope("CheckSchema", Inv.SchemaPath);
  SourceMgr &SM = Diags.getSourceMgr();
  vfs::FileSystem *FS = Inv.FileSystem.get();
  Expected<unsigned> SchemaBuffer = addFile(SM, Inv.SchemaPath, FS);
  if (!SchemaBuffer)
    return SchemaBuffer.takeError();

  Analysis A;
  if (std::string Path = Inv.findTagsFile(); !Path.empty()) {
    Expected<unsigned> TagsBuffer = addFile(SM, Path, FS);
    if (!TagsBuffer)
      return TagsBuffer.takeError();
    A.Tags = parseTagsFile(*TagsBuffer, Diags);
  }
  DispatchKeyCatalogue Keys;
  if (!Inv.DispatchKeysPath.empty()) {
    Expected<unsigned> KeysBuffer = addFile(SM, Inv.DispatchKeysPath, FS);
    if (!KeysBuffer)
      return KeysBuffer.takeError();
    Keys.addKeys(parseDispatchKeysFile(*KeysBuffer, Diags), Diags);
  }
  std::vector<SchemaEntry> Entries =
      parseSchemaFile(*SchemaBuffer, *A.Types, Diags, Cache);
  A.Model = buildOperatorModel(std::move(Entries), A.Tags ? &*A.Tags : nullptr,
                               Diags, std::move(Keys));
  return A;
}

Expected<Analysis> analyze(const Invocation &Inv, DiagnosticsEngine &Diags) {
  Expected<Analysis> A = analyzeSchema(Inv, Diags);
  // Kernel sources are checked against a sound schema only.
  if (!A || Diags.hasErrors() || Inv.Sources.empty())
    return A;
  if (Inv.Merge) {
    if (Error E = mergeKernelFacts(Inv, Diags, *A))
      return E;
    return A;
  }
  // Every generated header, so that a composite kernel may include
  // Functions.h before it exists on disk.
  if (Error E =
          checkKernelSources(Inv, emitKernelHeaders(Inv, A->Model), Diags, *A))
    return E;
  return A;
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

/// The depfile: every generated file (or the depfile target) depends on
/// every input, named by absolute path, each once: Clang names a source as
/// its compile command does, which need not be how it was given.
static std::string makeDepfile(const Invocation &Inv, const Analysis &A,
                               ArrayRef<GeneratedFile> Files) {
  std::vector<std::string> Inputs;
  auto Add = [&](StringRef Path) {
    SmallString<256> Absolute(Path);
    sys::fs::make_absolute(Absolute);
    sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    if (!is_contained(Inputs, Absolute))
      Inputs.push_back(std::string(Absolute));
  };
  Add(Inv.SchemaPath);
  if (std::string Tags = Inv.findTagsFile(); !Tags.empty())
    Add(Tags);
  if (!Inv.DispatchKeysPath.empty())
    Add(Inv.DispatchKeysPath);
  // A precompiled header is made from the headers, not from the source
  // whose command it uses.
  if (Inv.EmitPCHPath.empty())
    for (const std::string &Source : Inv.Sources)
      Add(Source);
  if (!Inv.PCHPath.empty())
    Add(Inv.PCHPath);
  for (const std::string &D : A.Dependencies)
    Add(D);

  std::string Text;
  raw_string_ostream OS(Text);
  if (!Inv.DepfileTarget.empty()) {
    OS << escapeForDepfile(Inv.DepfileTarget);
  } else if (!Inv.FactsPath.empty()) {
    OS << escapeForDepfile(Inv.FactsPath);
  } else if (!Inv.EmitPCHPath.empty()) {
    OS << escapeForDepfile(Inv.EmitPCHPath);
  } else {
    for (size_t I = 0; I != Files.size(); ++I)
      OS << (I ? " \\\n  " : "")
         << escapeForDepfile(Inv.getOutputPath(Files[I].Name));
  }
  OS << ':';
  for (const std::string &Input : Inputs)
    OS << " \\\n  " << escapeForDepfile(Input);
  OS << '\n';
  return Text;
}

Error produceOutputs(const Invocation &Inv, const Analysis &A,
                     const SourceMgr &SM, raw_ostream &Out) {
  llvm::TimeTraceScope Scope("ProduceOutputs");
  switch (Inv.PrintOpModel) {
  case OpModelFormat::None:
    break;
  case OpModelFormat::Text:
    printOperatorModel(A.Model, SM, Out);
    break;
  case OpModelFormat::JSON:
    Out << formatv("{0:2}", toJSON(A.Model, SM)) << '\n';
    break;
  }
  if (Inv.PrintStats)
    printStats(computeStats(A.Model), Out);

  EmitOptions Opts = getEmitOptions(Inv);
  if (!Inv.Sources.empty()) {
    Opts.DefinedNativeKernels.emplace();
    for (const KernelDecl &D : A.Decls)
      if (D.Kind == KernelDeclKind::Native)
        Opts.DefinedNativeKernels->insert(D.Name);
  }

  // Every file this run writes, written together or not at all.
  OutputFiles Outputs;
  if (!Inv.FactsPath.empty()) {
    KernelFacts Facts{Inv.Sources, A.Decls, A.Provided};
    Outputs.add(Inv.FactsPath, writeKernelFacts(Facts),
                OutputFiles::Rewrite::Always);
  }
  // A check's or a precompiled header's; -o's is written with its files.
  if (!Inv.DepfilePath.empty() && Inv.OutputDir.empty())
    Outputs.add(Inv.DepfilePath, makeDepfile(Inv, A, {}));
  if (Inv.CoverageReport) {
    std::string Report;
    raw_string_ostream OS(Report);
    printCoverageReport(A.Model, Opts, A.Decls, !Inv.Sources.empty(),
                        Inv.CoverageReport->empty()
                            ? Out
                            : static_cast<raw_ostream &>(OS));
    if (!Inv.CoverageReport->empty())
      Outputs.add(*Inv.CoverageReport, std::move(Report));
  }
  if (!Inv.MetaTestsPath.empty())
    Outputs.add(Inv.MetaTestsPath,
                emitMetaConsistencyTests(A.Model, Opts,
                                         sys::path::filename(Inv.MetaTestsPath))
                    .Contents);
  if (!Inv.OutputDir.empty()) {
    std::vector<GeneratedFile> Files = emitAll(A.Model, Opts, Inv.Outputs);
    if (!Inv.DepfilePath.empty())
      Outputs.add(Inv.DepfilePath, makeDepfile(Inv, A, Files));
    for (GeneratedFile &F : Files)
      Outputs.add(Inv.getOutputPath(F.Name), std::move(F.Contents));
  }
  return Outputs.commit();
}

Expected<bool> runPipeline(const Invocation &Inv, DiagnosticsEngine &Diags,
                           raw_ostream &Out) {
  Expected<Analysis> A = analyze(Inv, Diags);
  if (!A)
    return A.takeError();
  Diags.finish();
  if (Diags.hasErrors())
    return true;
  if (Error E = produceOutputs(Inv, *A, Diags.getSourceMgr(), Out))
    return E;
  return false;
}

} // namespace skc
