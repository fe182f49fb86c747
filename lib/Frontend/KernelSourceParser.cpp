//===--- KernelSourceParser.cpp - Kernel sources through Clang ------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The Clang front end of skc. clang::tooling::ClangTool parses every
/// kernel source (each as its own translation unit, -fsyntax-only, with
/// the command of CompileCommands.h), with the generated headers mapped
/// into an in-memory file system laid over the real one. Per translation
/// unit:
///
///  - ForwardingDiagConsumer (DiagnosticForwarding.h) hands Clang's
///    diagnostics to skc's DiagnosticsEngine, except the few that Sema
///    explains better;
///  - extractKernelDecls (KernelDeclExtractor.h) records every meta, impl
///    and native-function definition the author wrote (KernelDecl.h), with
///    the facts about its body (BodyFacts.h), the outputs it sets on every
///    path (MetaOutputFlow.h) and the dtypes it dispatches on
///    (DtypeDispatchFinder.h).
///
/// Clang SourceLocations die with their translation unit, so everything is
/// converted to SMLocs while the unit is alive (ClangLocations.h).
///
/// lib/Frontend holds every file of skc that includes Clang's headers.
///
//===----------------------------------------------------------------------===//

#include "skc/Frontend/KernelSourceParser.h"
#include "skc/Basic/Diagnostic.h"
#include "skc/Basic/OutputFiles.h"

#include "CompileCommands.h"
#include "DiagnosticForwarding.h"
#include "KernelDeclAction.h"
#include "ParseSession.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/Utils.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace llvm;
namespace tooling = clang::tooling;

namespace skc {

namespace {

/// Writes the precompiled header buildKernelPCH() asks for, skipping every
/// function body in it: all of it is outside the author's code (Note
/// [Bodies outside the author's code] in KernelDeclAction.cpp).
class KernelPCHAction : public clang::GeneratePCHAction {
public:
  KernelPCHAction(std::string Output, const KernelSourceOptions &Options)
      : Output(std::move(Output)), Options(Options) {}

protected:
  bool BeginInvocation(clang::CompilerInstance &CI) override {
    CI.getFrontendOpts().OutputFile = Output;
    CI.getFrontendOpts().SkipFunctionBodies = true;
    return clang::GeneratePCHAction::BeginInvocation(CI);
  }

  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, StringRef InFile) override {
    if (Options.Dependencies) {
      Dependencies = std::make_shared<clang::DependencyCollector>();
      Dependencies->attachToPreprocessor(CI.getPreprocessor());
    }
    return clang::GeneratePCHAction::CreateASTConsumer(CI, InFile);
  }

  void EndSourceFileAction() override {
    clang::GeneratePCHAction::EndSourceFileAction();
    if (Dependencies)
      addDependencies(*Dependencies, Options);
  }

private:
  std::string Output;
  const KernelSourceOptions &Options;
  std::shared_ptr<clang::DependencyCollector> Dependencies;
};

/// The command \p C runs for a source's check: ClangTool's adjustments,
/// in ClangTool's order, then skc's.
tooling::CommandLineArguments
getCheckCommand(const tooling::CompileCommand &C,
                const KernelSourceOptions &Options) {
  tooling::CommandLineArguments Args = C.CommandLine;
  for (const tooling::ArgumentsAdjuster &Adjust :
       {tooling::getClangStripOutputAdjuster(),
        tooling::getClangSyntaxOnlyAdjuster(),
        tooling::getClangStripDependencyFileAdjuster()})
    Args = Adjust(Args, C.Filename);
  return adjustKernelCommand(Args, C.Filename, Options);
}

class KernelDeclActionFactory : public tooling::FrontendActionFactory {
public:
  explicit KernelDeclActionFactory(ParseSession &Session) : Session(Session) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<KernelDeclAction>(Session);
  }

private:
  ParseSession &Session;
};

} // namespace

Expected<std::shared_ptr<const tooling::CompilationDatabase>>
loadCompilationDatabase(StringRef BuildDir) {
  std::string Message;
  std::unique_ptr<tooling::CompilationDatabase> DB =
      tooling::JSONCompilationDatabase::loadFromDirectory(BuildDir, Message);
  if (!DB)
    return createStringError(inconvertibleErrorCode(), Message);
  return std::shared_ptr<const tooling::CompilationDatabase>(std::move(DB));
}

Error parseKernelSources(ArrayRef<std::string> Sources,
                         const tooling::CompilationDatabase *Database,
                         const KernelSourceOptions &Options,
                         DiagnosticsEngine &Diags,
                         std::vector<KernelDecl> &Decls) {
  Expected<IntrusiveRefCntPtr<vfs::OverlayFileSystem>> FSOrErr =
      makeKernelFileSystem(Options);
  if (!FSOrErr)
    return FSOrErr.takeError();
  IntrusiveRefCntPtr<vfs::OverlayFileSystem> FS = std::move(*FSOrErr);

  // A source that cannot be read, or a command whose directory is gone
  // (ClangTool would abort), is the environment's problem, not a
  // diagnostic.
  KernelCompilationDatabase Commands(Database, Options.ExtraFlags);
  for (const std::string &Source : Sources) {
    ErrorOr<vfs::Status> Status = FS->status(Source);
    if (!Status)
      return createFileError(Source, Status.getError());
    if (Status->isDirectory())
      return createFileError(Source,
                             std::make_error_code(std::errc::is_a_directory));
    SmallString<256> Absolute(Source);
    if (std::error_code EC = FS->makeAbsolute(Absolute))
      return createFileError(Source, EC);
    for (const tooling::CompileCommand &C :
         Commands.getCompileCommands(Absolute))
      if (!FS->exists(C.Directory))
        return createFileError(
            C.Directory,
            std::make_error_code(std::errc::no_such_file_or_directory),
            "the directory of the compile command for '%s'", Source.c_str());
  }

  // The precompiled header, for the sources whose flags are its own.
  std::string PCHFlags;
  if (!Options.PrecompiledHeader.empty()) {
    std::string FlagsFile = Options.PrecompiledHeader + ".flags";
    ErrorOr<std::unique_ptr<MemoryBuffer>> Flags =
        FS->getBufferForFile(FlagsFile);
    if (!Flags)
      return createFileError(FlagsFile, Flags.getError());
    PCHFlags = (*Flags)->getBuffer().str();
  }

  ParseSession Session(Diags, Decls, Options);
  ForwardingDiagConsumer Consumer(Session);
  KernelDeclActionFactory Factory(Session);
  // One ClangTool per source: ClangTool::run prints "[1/N] Processing file"
  // to stderr when it is given more than one.
  for (size_t I = 0; I != Sources.size(); ++I) {
    const std::string &Source = Sources[I];
    if (Options.BeforeSource)
      Options.BeforeSource(I, Sources.size(), Source);
    // Clang's own scopes (each header, each instantiation) nest inside.
    llvm::TimeTraceScope Scope("CheckKernelSource", Source);
    tooling::ClangTool Tool(Commands, Source,
                            std::make_shared<clang::PCHContainerOperations>(),
                            FS);
    Tool.setPrintErrorMessage(false);
    Tool.appendArgumentsAdjuster(
        [&](const tooling::CommandLineArguments &Args, StringRef File) {
          tooling::CommandLineArguments Result =
              adjustKernelCommand(Args, File, Options);
          if (!PCHFlags.empty() && getPCHFlags(Result, File) == PCHFlags)
            Result.insert(Result.begin() + 1,
                          {"-include-pch", Options.PrecompiledHeader});
          return Result;
        });
    Tool.setDiagnosticConsumer(&Consumer);
    // run() fails when the source has errors; they were reported.
    (void)Tool.run(&Factory);
  }
  return Error::success();
}

Error buildKernelPCH(StringRef Source,
                     const tooling::CompilationDatabase *Database,
                     const KernelSourceOptions &Options, StringRef Output,
                     DiagnosticsEngine &Diags) {
  Expected<IntrusiveRefCntPtr<vfs::OverlayFileSystem>> FSOrErr =
      makeKernelFileSystem(Options);
  if (!FSOrErr)
    return FSOrErr.takeError();
  IntrusiveRefCntPtr<vfs::OverlayFileSystem> FS = std::move(*FSOrErr);
  SmallString<256> Absolute(Source);
  if (std::error_code EC = FS->makeAbsolute(Absolute))
    return createFileError(Source, EC);
  KernelCompilationDatabase Commands(Database, Options.ExtraFlags);
  std::vector<tooling::CompileCommand> Found =
      Commands.getCompileCommands(Absolute);
  if (Found.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no compile command for '%s'", Absolute.c_str());
  const tooling::CompileCommand &C = Found.front();
  SmallString<256> Directory(C.Directory);
  sys::fs::make_absolute(Directory);
  if (std::error_code EC = FS->setCurrentWorkingDirectory(Directory))
    return createFileError(Directory, EC);

  // The source's own command, with the generated header in its place.
  tooling::CommandLineArguments Args = getCheckCommand(C, Options);
  std::string Flags = getPCHFlags(Args, C.Filename);
  llvm::erase(Args, C.Filename);
  if (!isCUDASource(Args, C.Filename))
    Args.insert(Args.end(), {"-x", "c++-header"});
  Args.push_back(Options.GeneratedIncludeDir + "/NativeFunctions.h");

  std::vector<KernelDecl> None;
  ParseSession Session(Diags, None, Options);
  ForwardingDiagConsumer Consumer(Session);
  auto Files =
      makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), FS);
  tooling::ToolInvocation Invocation(
      Args, std::make_unique<KernelPCHAction>(Output.str(), Options),
      Files.get(), std::make_shared<clang::PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(&Consumer);
  // Problems in the headers were reported.
  if (!Invocation.run())
    return Error::success();

  OutputFiles FlagsFile;
  FlagsFile.add((Output + ".flags").str(), std::move(Flags),
                OutputFiles::Rewrite::Always);
  return FlagsFile.commit();
}

} // namespace skc
