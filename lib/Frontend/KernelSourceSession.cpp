//===--- KernelSourceSession.cpp - Re-checking a source as it is edited ---===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Frontend/KernelSourceSession.h"
#include "skc/Basic/Diagnostic.h"

#include "CompileCommands.h"
#include "DiagnosticForwarding.h"
#include "KernelDeclAction.h"
#include "ParseSession.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <optional>

using namespace llvm;
namespace tooling = clang::tooling;

namespace skc {

namespace {

/// Skips the preamble's function bodies outside the author's code, as the
/// parse of the source does (Note [Bodies outside the author's code] in
/// KernelDeclAction.cpp): kernels and their helpers may be defined in the
/// author's headers, which the preamble holds.
class SkipBodiesOutsideAuthorCode : public clang::PreambleCallbacks {
public:
  explicit SkipBodiesOutsideAuthorCode(const ParseSession &Session)
      : Session(Session) {}
  void BeforeExecute(clang::CompilerInstance &CI) override {
    SM = &CI.getSourceManager();
  }
  bool shouldSkipFunctionBody(clang::Decl *D) override {
    return SM && !Session.isAuthorCode(D->getLocation(), *SM);
  }

private:
  const ParseSession &Session;
  const clang::SourceManager *SM = nullptr;
};

} // namespace

struct KernelSourceSession::Implementation {
  KernelSourceOptions Options;
  std::shared_ptr<const tooling::CompilationDatabase> Database;
  std::shared_ptr<clang::PCHContainerOperations> PCHOps =
      std::make_shared<clang::PCHContainerOperations>();
  /// The file system with the generated headers, made on first use.
  IntrusiveRefCntPtr<vfs::OverlayFileSystem> FS;
  /// The preamble of each source, by absolute path.
  StringMap<std::optional<clang::PrecompiledPreamble>> Preambles;
  bool Reused = false;
};

KernelSourceSession::KernelSourceSession(
    KernelSourceOptions Options,
    std::shared_ptr<const tooling::CompilationDatabase> Database)
    : Impl(std::make_unique<Implementation>()) {
  Impl->Options = std::move(Options);
  Impl->Database = std::move(Database);
}

KernelSourceSession::~KernelSourceSession() = default;

bool KernelSourceSession::reusedPreamble() const { return Impl->Reused; }

Error KernelSourceSession::parse(
    StringRef File, StringRef Contents, DiagnosticsEngine &Diags,
    std::vector<KernelDecl> &Decls,
    std::optional<bool> InstantiateFunctionTemplates) {
  Implementation &I = *Impl;
  I.Reused = false;
  if (!I.FS) {
    Expected<IntrusiveRefCntPtr<vfs::OverlayFileSystem>> FS =
        makeKernelFileSystem(I.Options);
    if (!FS)
      return FS.takeError();
    I.FS = std::move(*FS);
  }
  SmallString<256> Path(File);
  if (std::error_code EC = I.FS->makeAbsolute(Path))
    return createFileError(File, EC);

  // The command, as parseKernelSources builds it.
  KernelCompilationDatabase Commands(I.Database.get(), I.Options.ExtraFlags);
  std::vector<tooling::CompileCommand> Found =
      Commands.getCompileCommands(Path);
  if (Found.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no compile command for '%s'", Path.c_str());
  // A relative directory (".", for the flags given on the command line) is
  // the process's, not wherever the last parse left the file system.
  SmallString<256> Directory(Found.front().Directory);
  sys::fs::make_absolute(Directory);
  if (std::error_code EC = I.FS->setCurrentWorkingDirectory(Directory))
    return createFileError(Directory, EC);
  tooling::CommandLineArguments Args =
      adjustKernelCommand(Found.front().CommandLine, Path, I.Options);
  // ClangTool's own adjustments that matter here: one input, this file.
  if (Args.empty() || Args.back() != Path)
    Args.push_back(Path.str().str());

  std::optional<KernelSourceOptions> Overridden;
  if (InstantiateFunctionTemplates &&
      *InstantiateFunctionTemplates != I.Options.InstantiateFunctionTemplates) {
    Overridden = I.Options;
    Overridden->InstantiateFunctionTemplates = *InstantiateFunctionTemplates;
  }
  ParseSession Session(Diags, Decls, Overridden ? *Overridden : I.Options);
  ForwardingDiagConsumer Consumer(Session);
  clang::DiagnosticOptions DiagOpts;
  IntrusiveRefCntPtr<clang::DiagnosticsEngine> ClangDiags =
      clang::CompilerInstance::createDiagnostics(*I.FS, DiagOpts, &Consumer,
                                                 /*ShouldOwnClient=*/false);
  std::vector<const char *> ArgPointers;
  for (const std::string &A : Args)
    ArgPointers.push_back(A.c_str());
  clang::CreateInvocationOptions InvocationOptions;
  InvocationOptions.Diags = ClangDiags;
  InvocationOptions.VFS = I.FS;
  std::shared_ptr<clang::CompilerInvocation> Invocation =
      clang::createInvocation(ArgPointers, InvocationOptions);
  if (!Invocation)
    return createStringError(inconvertibleErrorCode(),
                             "cannot make a Clang invocation for '%s'",
                             Path.c_str());

  // What the preamble's headers instantiate is instantiated once, when
  // the preamble is built, not at the end of every parse.
  Invocation->getLangOpts().PCHInstantiateTemplates = true;
  // The driver asks cc1 to leave its AST to the process's exit; a session
  // parses again and again, so each parse frees its own (as clangd's
  // buildCompilerInvocation does).
  Invocation->getFrontendOpts().DisableFree = false;
  // As KernelDeclAction parses the source.
  Invocation->getFrontendOpts().SkipFunctionBodies = true;
  Invocation->getDiagnosticOpts().Warnings.push_back("no-unused-private-field");

  std::unique_ptr<MemoryBuffer> Buffer =
      MemoryBuffer::getMemBufferCopy(Contents, Path);
  clang::PreambleBounds Bounds =
      clang::ComputePreambleBounds(Invocation->getLangOpts(), *Buffer, 0);
  std::optional<clang::PrecompiledPreamble> &Cached = I.Preambles[Path];
  I.Reused = Cached && Cached->CanReuse(*Invocation, *Buffer, Bounds, *I.FS);
  // A preamble whose parse reported errors is used once and not kept, so
  // that the errors are reported again until they are fixed.
  std::optional<clang::PrecompiledPreamble> Fresh;
  if (!I.Reused) {
    Cached.reset();
    SkipBodiesOutsideAuthorCode Callbacks(Session);
    unsigned ErrorsBefore = Diags.getNumErrors();
    ErrorOr<clang::PrecompiledPreamble> Built =
        clang::PrecompiledPreamble::Build(
            *Invocation, Buffer.get(), Bounds, ClangDiags, I.FS, I.PCHOps,
            /*StoreInMemory=*/true, /*StoragePath=*/"", Callbacks);
    if (Built && Diags.getNumErrors() == ErrorsBefore)
      Cached = std::move(*Built);
    else if (Built)
      Fresh = std::move(*Built);
  }
  const clang::PrecompiledPreamble *Preamble = Cached  ? &*Cached
                                               : Fresh ? &*Fresh
                                                       : nullptr;

  // The source itself, on top of the preamble (clangd's
  // prepareCompilerInstance).
  IntrusiveRefCntPtr<vfs::FileSystem> VFS = I.FS;
  if (Preamble)
    Preamble->AddImplicitPreamble(*Invocation, VFS, Buffer.get());
  else
    Invocation->getPreprocessorOpts().addRemappedFile(Path, Buffer.get());
  clang::CompilerInstance Clang(Invocation, I.PCHOps);
  Clang.setVirtualFileSystem(VFS);
  Clang.createDiagnostics(&Consumer, /*ShouldOwnClient=*/false);
  Clang.createFileManager();
  // The remapped buffer belongs to the preprocessor options now.
  Buffer.release();
  if (!Clang.createTarget())
    return Error::success(); // Reported through Consumer.
  KernelDeclAction Action(Session);
  if (Action.BeginSourceFile(Clang, Clang.getFrontendOpts().Inputs[0])) {
    if (Error E = Action.Execute())
      consumeError(std::move(E)); // Errors are diagnostics, reported.
    Action.EndSourceFile();
  }
  return Error::success();
}

} // namespace skc
