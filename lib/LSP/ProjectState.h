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

#include "KernelIndex.h"
#include "Project.h"

#include "skc/Basic/Diagnostic.h"
#include "skc/Driver/Pipeline.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/SourceMgr.h"

#include "llvm/ADT/FunctionExtras.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
namespace tooling {
class CompilationDatabase;
} // namespace tooling
} // namespace clang

namespace skc {

class KernelSourceSession;

/// A project's schema and catalogues, checked.
struct CheckedSchema {
  /// Owns the files' buffers; the model's locations point into them.
  std::unique_ptr<llvm::SourceMgr> SM = std::make_unique<llvm::SourceMgr>();
  std::vector<Diagnostic> Diagnostics;
  Analysis A;
  /// With errors, no source is checked against it.
  bool HasErrors = false;
  /// The texts checked, schema first, to see whether they changed.
  std::vector<std::string> Texts;

  unsigned getSchemaBuffer() const { return 1; }
};

/// A kernel source, checked.
struct SourceCheck {
  /// The diagnostics of the source, in LSP form.
  std::vector<llvm::json::Value> Diagnostics;
  /// Whether the kernels the source defines are not those the index had.
  bool KernelsChanged = false;
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
  /// A file system for files to be read from: the open documents' texts
  /// over the disk. One per thread: a parse sets its working directory.
  std::function<llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>()>
      MakeFileSystem;
};

class ProjectState {
public:
  ProjectState(Project P, const ServerHooks &Hooks);
  ~ProjectState();

  const Project &getProject() const { return P; }

  /// Checks the schema and its catalogues again when their texts changed.
  /// Returns whether they had; an Error when one cannot be read.
  llvm::Expected<bool> refreshSchema();
  /// The schema as last checked; null before the first check.
  const CheckedSchema *getSchema() const { return Schema.get(); }
  /// The schema's diagnostics in LSP form, by file; once every source is
  /// in the index, with the kernels that none defines.
  llvm::StringMap<std::vector<llvm::json::Value>> getSchemaDiagnostics() const;
  /// Whether the project lists its sources and the index has all of them.
  bool isIndexed() const;

  /// Checks kernel source \p Path, whose text is \p Text, against the
  /// schema; \p Full instantiates function templates (a save), else the
  /// check is the quick one for an edit. Updates the index.
  llvm::Expected<SourceCheck> checkSource(llvm::StringRef Path,
                                          llvm::StringRef Text, bool Full);
  /// Indexing \p Path, a source that is not open, as a task that may run
  /// on another thread: it parses the file with the schema as it is now,
  /// and adds its kernels to the index unless a check got there first.
  /// None while the schema has errors.
  std::optional<llvm::unique_function<void()>>
  makeIndexTask(llvm::StringRef Path);

  const KernelIndex &getIndex() const { return *Index; }

private:
  /// The project's Invocation, reading from \p Files (the worker's when
  /// null).
  Invocation getInvocation(
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Files = nullptr) const;
  /// The compile commands of the build directory; null when there is none
  /// or it cannot be read (said once through Warn).
  std::shared_ptr<const clang::tooling::CompilationDatabase> getDatabase();
  /// The headers generated from the schema, made the first time a source
  /// needs them: a schema on its own is checked without them.
  const std::shared_ptr<const std::vector<GeneratedFile>> &getHeaders();

  Project P;
  /// The worker's file system.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS;
  const ServerHooks &Hooks;
  std::shared_ptr<const CheckedSchema> Schema;
  /// The schema's entries as last read, for the next check of an edit.
  YAMLReadCache ReadCache;
  std::shared_ptr<const std::vector<GeneratedFile>> Headers;
  /// Made for Headers; made again when they change.
  std::unique_ptr<KernelSourceSession> Session;
  std::shared_ptr<const clang::tooling::CompilationDatabase> Database;
  bool DatabaseLoaded = false;
  /// Counts the schema's checks; Headers are of check HeadersGeneration.
  unsigned SchemaGeneration = 0;
  unsigned HeadersGeneration = 0;
  std::shared_ptr<KernelIndex> Index = std::make_shared<KernelIndex>();
};

/// Adds to \p Into a view of every buffer of \p From, in order, so that an
/// SMLoc into From's files is one into Into's.
void shareBuffers(const llvm::SourceMgr &From, llvm::SourceMgr &Into);

} // namespace skc

#endif // SKC_LIB_LSP_PROJECTSTATE_H
