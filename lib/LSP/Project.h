//===--- Project.h - The kernel library a file belongs to -------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What skc-lsp checks a file with: the schema, its catalogues, the kernel
/// sources and how they are compiled, as the build's skc step has them.
/// skc_add_kernel_library writes one project file per kernel library into
/// <build>/skc-projects/<name>.json (docs/editors.md has the format); the
/// server finds the build directory as clangd does, and the project whose
/// files include the one opened.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_LSP_PROJECT_H
#define SKC_LIB_LSP_PROJECT_H

#include "skc/Driver/Invocation.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace skc {

struct Project {
  /// The kernel library's name; empty for a project made up for a file
  /// that belongs to none.
  std::string Name;
  /// The project file it was read from; empty for a made-up one.
  std::string ProjectFile;
  /// Where the build writes the generated files; empty for nowhere.
  std::string GeneratedDir;
  /// The build's skc run over the library, as skc_add_kernel_library gives
  /// it: the schema, the catalogues, the sources (absolute), the backends,
  /// the namespaces, the shards, the build directory (BuildPath, empty for
  /// none), the runtime's headers, and the flags for sources that
  /// compile_commands.json does not list. It writes nothing.
  Invocation Inv;

  /// Whether \p Path is the schema, one of its catalogues or a source.
  bool owns(llvm::StringRef Path) const;
  bool isSource(llvm::StringRef Path) const;
};

/// Reads a project file that skc_add_kernel_library wrote.
llvm::Expected<Project> readProjectFile(llvm::StringRef Path);

/// The project files of build directory \p BuildDir.
std::vector<std::string> listProjectFiles(llvm::StringRef BuildDir);

/// The build directories that may hold \p File's project, nearest first:
/// each directory above it with a compile_commands.json, or whose build/
/// has one, as clangd looks.
std::vector<std::string> findBuildDirs(llvm::StringRef File);

} // namespace skc

#endif // SKC_LIB_LSP_PROJECT_H
