//===--- Workspace.h - The projects of the files the client opens -*- C++ -*-=//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which project checks a file, and that project's state: the project file
/// of a build directory that names the file (Project.h); else, for a
/// kernel source, the server's --schema; else, for a schema, the schema on
/// its own. A file whose project file has gone keeps the project it had,
/// and the user is told. Used from the server's worker only.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_LSP_WORKSPACE_H
#define SKC_LIB_LSP_WORKSPACE_H

#include "ProjectState.h"

#include "skc/LSP/Server.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"

#include <functional>
#include <memory>
#include <vector>

namespace skc {

/// What skc checks a file as.
enum class DocumentKind { Schema, KernelSource, Other };
DocumentKind getDocumentKind(llvm::StringRef Path);

class Workspace {
public:
  Workspace(const ServerOptions &Options, ServerHooks Hooks);

  /// The project that checks \p Path; null when none does (a kernel source
  /// outside every project, with no --schema).
  ProjectState *getProjectFor(llvm::StringRef Path);

private:
  /// The project files' projects, read again when a file changes.
  struct CachedProjectFile {
    llvm::sys::TimePoint<> ModificationTime;
    std::shared_ptr<const Project> P;
  };
  std::shared_ptr<const Project> findInBuildDirs(llvm::StringRef Path);
  ProjectState &getState(const std::string &Key, const Project &P);
  void warnOnce(const std::string &Message);

  const ServerOptions &Options;
  ServerHooks Hooks;
  llvm::StringSet<> Warned;
  llvm::StringMap<CachedProjectFile> ProjectFiles;
  /// By project file, or by a made-up key for the others.
  llvm::StringMap<std::unique_ptr<ProjectState>> States;
  /// The key of the project each file was last checked with.
  llvm::StringMap<std::string> LastProject;
};

} // namespace skc

#endif // SKC_LIB_LSP_WORKSPACE_H
