//===--- ProjectState.h - One project, as the server knows it ---*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the server knows of one project: its schema as last checked (the
/// op model, the diagnostics, the headers generated from it), a front-end
/// session that keeps each source's preamble between edits, and the index
/// of the kernels its sources define. Used from the server's worker only.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_LSP_PROJECTSTATE_H
#define SKC_LIB_LSP_PROJECTSTATE_H

#include "Project.h"

#include "skc/Basic/Diagnostic.h"
#include "skc/Driver/Pipeline.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/SourceMgr.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace clang {
namespace tooling {
class CompilationDatabase;
} // namespace tooling
} // namespace clang

namespace skc {

class KernelSourceSession;

/// A kernel definition, as the index keeps it: where it is, in LSP terms,
/// outliving the parse that found it.
struct KernelSymbol {
  KernelDeclKind Kind;
  /// KernelDecl::Name: "structured_add_out", "relu_cpu".
  std::string Name;
  std::string File;
  /// KernelDecl::Macro: "meta", "impl", ...; empty when spelled out.
  std::string Macro;
  bool InCUDASource = false;
  /// The name (the macro's argument), and the definition's head: from the
  /// macro to the end of the parameter list.
  llvm::lsp::Range NameRange;
  llvm::lsp::Range HeadRange;
  /// Where each parameter starts.
  std::vector<llvm::lsp::Position> ParamStarts;
};

/// A project's schema and catalogues, checked.
struct CheckedSchema {
  /// Owns the files' buffers; the model's locations point into them.
  std::unique_ptr<llvm::SourceMgr> SM = std::make_unique<llvm::SourceMgr>();
  std::vector<Diagnostic> Diagnostics;
  Analysis A;
  /// The headers the kernel sources include; empty when the schema has
  /// errors, and then no source is checked.
  std::vector<GeneratedFile> Headers;
  bool HasErrors = false;
  /// The texts checked, schema first, to see whether they changed.
  std::vector<std::string> Texts;

  unsigned getSchemaBuffer() const { return 1; }
};

/// A kernel source, checked.
struct SourceCheck {
  /// The diagnostics of the source, in LSP form.
  std::vector<llvm::json::Value> Diagnostics;
  std::vector<KernelSymbol> Kernels;
};

/// What a project's state needs of the server.
struct ServerHooks {
  /// docs/diagnostics.md as a URL; empty for no links.
  std::string DocsURL;
  /// Tells the user of a problem the server works around (a build
  /// directory that has gone).
  std::function<void(const std::string &)> Warn;
  /// Names a file as the client does.
  std::function<std::string(llvm::StringRef)> GetURI;
};

class ProjectState {
public:
  ProjectState(Project P, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
               const ServerHooks &Hooks);
  ~ProjectState();

  const Project &getProject() const { return P; }

  /// Checks the schema and its catalogues again when their texts changed.
  /// Returns whether they had; an Error when one cannot be read.
  llvm::Expected<bool> refreshSchema();
  /// The schema as last checked; null before the first check.
  const CheckedSchema *getSchema() const { return Schema.get(); }
  /// The schema's diagnostics in LSP form, by file.
  llvm::StringMap<std::vector<llvm::json::Value>> getSchemaDiagnostics() const;

  /// Checks kernel source \p Path, whose text is \p Text, against the
  /// schema; \p Full instantiates function templates (a save), else the
  /// check is the quick one for an edit. Updates the index.
  llvm::Expected<SourceCheck> checkSource(llvm::StringRef Path,
                                          llvm::StringRef Text, bool Full);
  /// Finds the kernels of a source that is not open, for the index.
  llvm::Error indexSource(llvm::StringRef Path);
  /// Whether \p Path's kernels are in the index.
  bool isIndexed(llvm::StringRef Path) const { return Index.count(Path); }

  /// The kernels the index knows, by source.
  const llvm::StringMap<std::vector<KernelSymbol>> &getIndex() const {
    return Index;
  }
  std::vector<const KernelSymbol *> findKernels(KernelDeclKind Kind,
                                                llvm::StringRef Name) const;
  /// The kernels source \p Path defines, as last indexed.
  llvm::ArrayRef<KernelSymbol> getKernels(llvm::StringRef Path) const;

private:
  Invocation getInvocation() const;
  /// The compile commands of the build directory; null when there is none
  /// or it cannot be read (said once through Warn).
  std::shared_ptr<const clang::tooling::CompilationDatabase> getDatabase();
  /// Replaces the index's kernels of \p Path with those of \p Decls, whose
  /// locations are in \p SM.
  void indexDecls(llvm::StringRef Path, const llvm::SourceMgr &SM,
                  llvm::ArrayRef<KernelDecl> Decls);

  Project P;
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS;
  const ServerHooks &Hooks;
  std::unique_ptr<CheckedSchema> Schema;
  /// Made for the schema's headers; made again when they change.
  std::unique_ptr<KernelSourceSession> Session;
  std::shared_ptr<const clang::tooling::CompilationDatabase> Database;
  bool DatabaseLoaded = false;
  llvm::StringMap<std::vector<KernelSymbol>> Index;
};

/// Adds to \p Into a view of every buffer of \p From, in order, so that an
/// SMLoc into From's files is one into Into's.
void shareBuffers(const llvm::SourceMgr &From, llvm::SourceMgr &Into);

} // namespace skc

#endif // SKC_LIB_LSP_PROJECTSTATE_H
