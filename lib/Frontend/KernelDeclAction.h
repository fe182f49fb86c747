//===--- KernelDeclAction.h - The front-end action of a source --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_FRONTEND_KERNELDECLACTION_H
#define SKC_LIB_FRONTEND_KERNELDECLACTION_H

#include "ParseSession.h"

#include "skc/Parse/KernelDecl.h"

#include "clang/Frontend/FrontendAction.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <memory>
#include <vector>

namespace clang {
class DependencyCollector;
} // namespace clang

namespace skc {

/// Parses one source and appends its kernels to the session's output, in
/// source order.
class KernelDeclAction : public clang::ASTFrontendAction {
public:
  explicit KernelDeclAction(ParseSession &Session) : Session(Session) {}

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef) override;
  void EndSourceFileAction() override;

private:
  ParseSession &Session;
  std::vector<KernelDecl> Found;
  std::shared_ptr<clang::DependencyCollector> Dependencies;
};

/// Adds what \p Collected saw a parse read, less the generated headers, to
/// Options.Dependencies (non-null): what a depfile names.
void addDependencies(const clang::DependencyCollector &Collected,
                     const KernelSourceOptions &Options);

/// The file system kernel sources are parsed in: Options.FileSystem (else
/// the real one), with the generated headers of \p Options in memory over
/// it. It has its own
/// working directory: ClangTool changes it to each command's directory,
/// and must not change the process's.
llvm::Expected<llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem>>
makeKernelFileSystem(const KernelSourceOptions &Options);

} // namespace skc

#endif // SKC_LIB_FRONTEND_KERNELDECLACTION_H
