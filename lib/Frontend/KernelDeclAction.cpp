//===--- KernelDeclAction.cpp - The front-end action of one source --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KernelDeclAction.h"

#include "KernelDeclExtractor.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/Utils.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;

namespace skc {

namespace {

class KernelDeclConsumer : public clang::SemaConsumer {
public:
  KernelDeclConsumer(ParseSession &Session, std::vector<KernelDecl> &Found,
                     const clang::SourceManager &SM)
      : Session(Session), Found(Found), SM(SM) {}

  void InitializeSema(clang::Sema &S) override { Sema = &S; }
  void ForgetSema() override { Sema = nullptr; }

  bool HandleTopLevelDecl(clang::DeclGroupRef) override {
    if (Sema && !Session.Options.InstantiateFunctionTemplates)
      dropPendingInstantiations(*Sema);
    return true;
  }

  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    extractKernelDecls(Ctx, Session, Found);
  }

  /// Note [Bodies outside the author's code].
  bool shouldSkipFunctionBody(clang::Decl *D) override {
    return !Session.isAuthorCode(D->getLocation(), SM);
  }

private:
  /// Note [Function templates left uninstantiated].
  static void dropPendingInstantiations(clang::Sema &S) {
    S.PendingInstantiations.clear();
    S.UndefinedButUsed.remove_if([](const auto &Entry) {
      const auto *FD = dyn_cast<clang::FunctionDecl>(Entry.first);
      return FD && FD->isTemplateInstantiation();
    });
  }

  ParseSession &Session;
  std::vector<KernelDecl> &Found;
  const clang::SourceManager &SM;
  clang::Sema *Sema = nullptr;
};

// Note [Bodies outside the author's code]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// skc reads the bodies of the author's code only: the kernels, and the
// functions of the sources and their own headers that a kernel calls
// (BodyFacts.h and DtypeDispatchFinder.h follow calls into the author's
// code and stop at the runtime's, whose data reads and dispatches are
// marked on declarations: sk/util/Analysis.h). The bodies of the
// runtime's, the generated and the system headers' functions (Highway,
// the standard library, CUDA's) are skipped unparsed, as clangd's preamble
// skips them, and so their template instantiations cost nothing: that is
// most of a source's check (docs/performance.md). Clang keeps the bodies
// it needs (constexpr functions, deduced return types). What is lost are
// Clang's errors inside those bodies, instantiated with the author's
// types, and -Wunused-private-field, which cannot see a skipped body's
// uses; the compiler reports them.

// Note [Function templates left uninstantiated]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Most of the time Clang spends on a kernel source after its preamble is
// instantiating the function templates the kernels call (cpu_kernel_vec,
// the Highway loops, dispatchDtypes), at the end of the translation unit
// (docs/performance.md has the figures). skc's own checks read the
// kernels' bodies, not those instantiations. So with KernelSourceOptions::
// InstantiateFunctionTemplates off (an editor's check as the author
// types), the pending instantiations the source adds are dropped as each
// top-level declaration ends, and so are the "used but not defined" errors
// that dropping them would cause. What is lost: errors inside those
// instantiations, helpers that are function templates (their bodies are not
// followed for outputs or data reads), and dispatches reached only through
// them (the coverage report's dtypes). Templates whose return type is
// deduced, generic lambdas among them, are still instantiated where they
// are used: Clang needs their type.

} // namespace

std::unique_ptr<clang::ASTConsumer>
KernelDeclAction::CreateASTConsumer(clang::CompilerInstance &CI, StringRef) {
  if (Session.Options.Dependencies) {
    // The preprocessor exists already: attach by hand what
    // CompilerInstance would have attached when creating it.
    Dependencies = std::make_shared<clang::DependencyCollector>();
    Dependencies->attachToPreprocessor(CI.getPreprocessor());
  }
  // Note [Bodies outside the author's code]; a skipped body's uses of a
  // private field are not seen.
  CI.getFrontendOpts().SkipFunctionBodies = true;
  CI.getDiagnostics().setSeverityForGroup(clang::diag::Flavor::WarningOrError,
                                          "unused-private-field",
                                          clang::diag::Severity::Ignored);
  return std::make_unique<KernelDeclConsumer>(Session, Found,
                                              CI.getSourceManager());
}

void KernelDeclAction::EndSourceFileAction() {
  if (Dependencies)
    addDependencies(*Dependencies, Session.Options);
  // Unknown structs whose definitions Clang dropped.
  for (UnknownKernel &U : Session.UnknownKernels) {
    KernelDecl K;
    K.Kind = U.Kind;
    K.Name = std::move(U.Name);
    K.File = getCurrentFile().str();
    K.InCUDASource = getCompilerInstance().getLangOpts().CUDA;
    K.Macro = U.Kind == KernelDeclKind::Meta ? "meta" : "impl";
    K.Loc = U.Loc;
    K.ParamListRange = U.ParamListRange;
    K.setInvalid(KernelDecl::IR_UnknownName);
    Found.push_back(std::move(K));
  }
  Session.UnknownKernels.clear();
  // In source order: by buffer (the order files were first read), then
  // offset; the index breaks ties, so the order never depends on the sort.
  const SourceMgr &SM = Session.Diags.getSourceMgr();
  SmallVector<std::tuple<unsigned, const char *, size_t>, 16> Order;
  for (size_t I = 0, E = Found.size(); I != E; ++I) {
    SMLoc Loc = Found[I].Loc;
    Order.emplace_back(Loc.isValid() ? SM.FindBufferContainingLoc(Loc) : 0,
                       Loc.getPointer(), I);
  }
  llvm::sort(Order);
  for (const auto &Entry : Order) {
    KernelDecl &K = Found[std::get<2>(Entry)];
    // A header that several sources include defines its kernels once.
    bool Seen =
        K.Loc.isValid() && any_of(Session.Decls, [&](const KernelDecl &Other) {
          return Other.Kind == K.Kind && Other.Name == K.Name &&
                 Other.Loc == K.Loc;
        });
    if (!Seen)
      Session.Decls.push_back(std::move(K));
  }
  Found.clear();
}

void addDependencies(const clang::DependencyCollector &Collected,
                     const KernelSourceOptions &Options) {
  StringRef Generated = Options.GeneratedIncludeDir;
  for (const std::string &File : Collected.getDependencies())
    if (Generated.empty() || !StringRef(File).starts_with(Generated))
      Options.Dependencies->insert(File);
}

Expected<IntrusiveRefCntPtr<vfs::OverlayFileSystem>>
makeKernelFileSystem(const KernelSourceOptions &Options) {
  // Options outlives the file system's users, so the buffers need not be
  // copies.
  auto Generated = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
  for (const VirtualFile &F : Options.GeneratedHeaders) {
    SmallString<256> Path(F.Path);
    if (std::error_code EC = sys::fs::make_absolute(Path))
      return createFileError(F.Path, EC);
    Generated->addFile(Path, /*ModificationTime=*/0,
                       MemoryBuffer::getMemBuffer(F.Contents, Path));
  }
  auto FS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(
      Options.FileSystem
          ? Options.FileSystem
          : IntrusiveRefCntPtr<vfs::FileSystem>(
                vfs::createPhysicalFileSystem()));
  FS->pushOverlay(Generated);
  return FS;
}

} // namespace skc
