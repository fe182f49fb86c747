//===--- ProjectState.cpp - One project, as the server knows it -----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ProjectState.h"
#include "DiagnosticConversion.h"
#include "SourcePositions.h"

#include "skc/Frontend/KernelSourceSession.h"
#include "skc/Sema/KernelChecks.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <tuple>

#include <chrono>

using namespace llvm;

namespace skc {

void shareBuffers(const SourceMgr &From, SourceMgr &Into) {
  for (unsigned ID = 1, E = From.getNumBuffers(); ID <= E; ++ID)
    Into.AddNewSourceBuffer(
        MemoryBuffer::getMemBuffer(From.getMemoryBuffer(ID)->getMemBufferRef(),
                                   /*RequiresNullTerminator=*/false),
        SMLoc());
}

/// The kernels \p Decls defines in \p Path, whose locations are in \p SM.
static std::vector<KernelSymbol> getKernelSymbols(StringRef Path,
                                                  const SourceMgr &SM,
                                                  ArrayRef<KernelDecl> Decls) {
  std::vector<KernelSymbol> Symbols;
  for (const KernelDecl &D : Decls) {
    // Helpers spelled out in namespace sk::native are not kernels.
    if (D.Kind == KernelDeclKind::Native && !D.isFromMacro())
      continue;
    KernelSymbol S;
    S.Kind = D.Kind;
    S.Name = D.Name;
    S.File = getFile(SM, D.Loc).str();
    S.Macro = D.Macro;
    S.InCUDASource = D.InCUDASource;
    lsp::Position NameStart = toLSPPosition(SM, D.Loc);
    // The name as the macro's argument or as written: up to its end.
    StringRef Rest(D.Loc.getPointer());
    size_t Length =
        Rest.find_if_not([](char C) { return isAlnum(C) || C == '_'; });
    S.NameRange = toLSPRange(
        SM,
        SMRange(D.Loc, SMLoc::getFromPointer(D.Loc.getPointer() +
                                             std::min(Length, Rest.size()))));
    S.HeadRange.start = D.MacroNameRange.isValid()
                            ? toLSPPosition(SM, D.MacroNameRange.Start)
                            : NameStart;
    S.HeadRange.end = D.ParamListRange.isValid()
                          ? toLSPPosition(SM, D.ParamListRange.End)
                          : S.NameRange.end;
    for (const KernelParam &Param : D.Params)
      S.ParamStarts.push_back(toLSPPosition(SM, Param.Range.Start));
    // A definition in a header the source includes belongs to that file.
    if (S.File != Path)
      continue;
    Symbols.push_back(std::move(S));
  }
  return Symbols;
}

ProjectState::ProjectState(Project P, const ServerHooks &Hooks)
    : P(std::move(P)), FS(Hooks.MakeFileSystem()), Hooks(Hooks) {}

ProjectState::~ProjectState() = default;

Invocation
ProjectState::getInvocation(IntrusiveRefCntPtr<vfs::FileSystem> Files) const {
  Invocation Inv = P.Inv;
  Inv.FileSystem = Files ? std::move(Files) : FS;
  return Inv;
}

Expected<bool> ProjectState::refreshSchema() {
  Invocation Inv = getInvocation();
  std::vector<std::string> Texts;
  for (const std::string &Path :
       {Inv.SchemaPath, Inv.findTagsFile(), Inv.DispatchKeysPath}) {
    if (Path.empty()) {
      Texts.emplace_back();
      continue;
    }
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = FS->getBufferForFile(Path);
    if (!Buffer)
      return createFileError(Path, Buffer.getError());
    Texts.push_back((*Buffer)->getBuffer().str());
  }
  if (Schema && Schema->Texts == Texts)
    return false;

  auto Checked = std::make_unique<CheckedSchema>();
  StoredDiagnosticConsumer Stored;
  DiagnosticsEngine Diags(*Checked->SM, Stored);
  Expected<Analysis> A = analyzeSchema(Inv, Diags, &ReadCache);
  if (!A)
    return A.takeError();
  Checked->A = std::move(*A);
  Checked->Diagnostics.assign(Stored.Diagnostics.begin(),
                              Stored.Diagnostics.end());
  Checked->HasErrors = Diags.hasErrors();
  Checked->Texts = std::move(Texts);
  Schema = std::move(Checked);
  ++SchemaGeneration;
  return true;
}

static bool sameFiles(ArrayRef<GeneratedFile> A, ArrayRef<GeneratedFile> B) {
  return A.size() == B.size() &&
         std::equal(A.begin(), A.end(), B.begin(),
                    [](const GeneratedFile &X, const GeneratedFile &Y) {
                      return X.Name == Y.Name && X.Contents == Y.Contents;
                    });
}

const std::shared_ptr<const std::vector<GeneratedFile>> &
ProjectState::getHeaders() {
  if (HeadersGeneration == SchemaGeneration)
    return Headers;
  auto Fresh = std::make_shared<const std::vector<GeneratedFile>>(
      emitKernelHeaders(getInvocation(), Schema->A.Model));
  HeadersGeneration = SchemaGeneration;
  // The preambles include the generated headers: a session made for other
  // headers is of no more use. An edit of the schema that changes no
  // declaration keeps the session and its preambles.
  if (!Headers || !sameFiles(*Headers, *Fresh)) {
    Headers = std::move(Fresh);
    Session.reset();
  }
  return Headers;
}

StringMap<std::vector<json::Value>> ProjectState::getSchemaDiagnostics() const {
  StringMap<std::vector<json::Value>> ByFile;
  if (!Schema)
    return ByFile;
  std::vector<Diagnostic> Diagnostics = Schema->Diagnostics;
  // With every source's kernels known, what no source defines, at the
  // dispatch entries that name them, as the build's skc reports it.
  if (isIndexed() && !Schema->HasErrors) {
    std::vector<KernelDefinitionName> Defined;
    for (const KernelSymbol &S : Index->getAll())
      if (P.isSource(S.File))
        Defined.push_back({S.Kind, S.Name, S.InCUDASource});
    StoredDiagnosticConsumer Missing;
    DiagnosticsEngine Diags(*Schema->SM, Missing);
    checkKernelsDefined(Schema->A.Model, Defined,
                        getKernelCheckOptions(getInvocation()), Diags);
    Diagnostics.insert(Diagnostics.end(), Missing.Diagnostics.begin(),
                       Missing.Diagnostics.end());
  }
  ByFile =
      toLSPDiagnostics(*Schema->SM, Diagnostics, Hooks.DocsURL, Hooks.GetURI);
  // Every file checked gets its list, empty or not, so that a fix clears.
  Invocation Inv = getInvocation();
  for (const std::string &Path :
       {Inv.SchemaPath, Inv.findTagsFile(), Inv.DispatchKeysPath})
    if (!Path.empty())
      ByFile.try_emplace(Path);
  return ByFile;
}

bool ProjectState::isIndexed() const {
  // Made up for a file, a project has no list of sources to complete.
  return !P.ProjectFile.empty() &&
         llvm::all_of(P.Inv.Sources,
                      [&](const std::string &S) { return Index->contains(S); });
}

std::shared_ptr<const clang::tooling::CompilationDatabase>
ProjectState::getDatabase() {
  if (P.Inv.BuildPath.empty())
    return nullptr;
  SmallString<256> Commands(P.Inv.BuildPath);
  sys::path::append(Commands, "compile_commands.json");
  if (DatabaseLoaded && Database && !sys::fs::exists(Commands)) {
    // The build directory went away under the server: keep serving, with
    // the flags the project file gave.
    Hooks.Warn("skc-lsp: '" + Commands.str().str() +
               "' is gone; the kernel sources of '" +
               (P.Name.empty() ? P.Inv.SchemaPath : P.Name) +
               "' are checked without their compile commands until it is back");
    Database.reset();
    Session.reset();
    DatabaseLoaded = false;
    return nullptr;
  }
  if (DatabaseLoaded)
    return Database;
  if (!sys::fs::exists(Commands))
    return nullptr;
  DatabaseLoaded = true;
  Expected<std::shared_ptr<const clang::tooling::CompilationDatabase>> DB =
      loadCompilationDatabase(P.Inv.BuildPath);
  if (!DB) {
    Hooks.Warn("skc-lsp: cannot read the compile commands in '" +
               P.Inv.BuildPath + "': " + toString(DB.takeError()));
    return nullptr;
  }
  Database = std::move(*DB);
  Session.reset();
  return Database;
}

Expected<SourceCheck> ProjectState::checkSource(StringRef Path, StringRef Text,
                                                bool Full) {
  SourceCheck Result;
  if (!Schema || Schema->HasErrors)
    return Result; // Sources are checked against a sound schema only.
  std::shared_ptr<const clang::tooling::CompilationDatabase> DB = getDatabase();
  Invocation Inv = getInvocation();
  const std::shared_ptr<const std::vector<GeneratedFile>> &Generated =
      getHeaders();
  if (!Session) {
    KernelSourceOptions Options = getKernelSourceOptions(Inv, *Generated);
    // As the author types; a save asks for the full check.
    Options.InstantiateFunctionTemplates = false;
    Session = std::make_unique<KernelSourceSession>(std::move(Options), DB);
  }

  SourceMgr SM;
  shareBuffers(*Schema->SM, SM);
  StoredDiagnosticConsumer Stored;
  DiagnosticsEngine Diags(SM, Stored);
  std::vector<KernelDecl> Decls;
  auto Start = std::chrono::steady_clock::now();
  if (Error E = Session->parse(Path, Text, Diags, Decls, Full))
    return E;
  lsp::Logger::info("parsed '{0}' in {1} ms ({2} check, preamble {3})", Path,
                    std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - Start)
                        .count(),
                    Full ? "full" : "quick",
                    Session->reusedPreamble() ? "reused" : "built");
  KernelCheckOptions Check = getKernelCheckOptions(Inv);
  Check.RequireAllKernels = false;
  checkKernels(Schema->A.Model, Decls, Check, Diags);

  StringMap<std::vector<json::Value>> ByFile =
      toLSPDiagnostics(SM, Stored.Diagnostics, Hooks.DocsURL, Hooks.GetURI);
  // Only the source's own, and any without a file: the schema's problems
  // are the schema's check's to report.
  for (StringRef File : {Path, StringRef()})
    if (auto It = ByFile.find(File); It != ByFile.end())
      for (json::Value &V : It->second)
        Result.Diagnostics.push_back(std::move(V));
  std::vector<KernelSymbol> Kernels = getKernelSymbols(Path, SM, Decls);
  auto Names = [](ArrayRef<KernelSymbol> Symbols) {
    std::vector<std::tuple<KernelDeclKind, std::string, bool>> Result;
    for (const KernelSymbol &S : Symbols)
      Result.emplace_back(S.Kind, S.Name, S.InCUDASource);
    return Result;
  };
  Result.KernelsChanged =
      !Index->contains(Path) ||
      Names(Index->getKernels(Path)) != Names(Kernels);
  Index->set(Path, std::move(Kernels));
  return Result;
}

std::optional<unique_function<void()>>
ProjectState::makeIndexTask(StringRef Path) {
  if (!Schema || Schema->HasErrors)
    return std::nullopt;
  // What the task reads is its own (a file system, whose working directory
  // its parse sets) or shared and never changed, so that the worker may go
  // on while it runs.
  KernelSourceOptions Options = getKernelSourceOptions(
      getInvocation(Hooks.MakeFileSystem()), *getHeaders());
  Options.InstantiateFunctionTemplates = false;
  return [Path = Path.str(), Options = std::move(Options), DB = getDatabase(),
          Schema = Schema, Index = Index] {
    SourceMgr SM;
    shareBuffers(*Schema->SM, SM);
    StoredDiagnosticConsumer Ignored;
    DiagnosticsEngine Diags(SM, Ignored);
    std::vector<KernelDecl> Decls;
    if (Error E = parseKernelSources({Path}, DB.get(), Options, Diags, Decls)) {
      lsp::Logger::error("cannot index '{0}': {1}", Path,
                         toString(std::move(E)));
      return;
    }
    Index->setIfAbsent(Path, getKernelSymbols(Path, SM, Decls));
  };
}

} // namespace skc
