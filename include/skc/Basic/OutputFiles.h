//===--- OutputFiles.h - All-or-nothing writes of skc's outputs -*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The files one skc run writes (the generated files, the depfile, the
/// coverage report, the meta tests), written together or not at all: a run
/// that fails leaves every destination as it was, and an interrupted one
/// leaves no temporary file behind.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_BASIC_OUTPUTFILES_H
#define SKC_BASIC_OUTPUTFILES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace skc {

class OutputFiles {
public:
  /// When commit() writes a file whose contents did not change.
  enum class Rewrite {
    /// Never: the build system sees it unchanged and rebuilds nothing.
    IfChanged,
    /// Always: a build step's declared output, whose time says that the
    /// step is up to date (Make compares times only).
    Always,
  };

  /// Adds a file to write; nothing is written before commit().
  void add(llvm::StringRef Path, std::string Contents,
           Rewrite When = Rewrite::IfChanged) {
    Files.push_back({Path.str(), std::move(Contents), When});
  }

  /// Writes every file whose contents changed, and those added with
  /// Rewrite::Always. It first checks every
  /// destination (its directory can be made, it is not a directory), then
  /// writes each file's new contents to a temporary file beside it, removed
  /// should a signal end the process, and only then renames them into
  /// place, so that a reader never sees half a file. On an error, what was
  /// staged is removed and no destination has changed.
  llvm::Error commit();

private:
  struct File {
    std::string Path;
    std::string Contents;
    Rewrite When;
  };
  std::vector<File> Files;
};

} // namespace skc

#endif // SKC_BASIC_OUTPUTFILES_H
