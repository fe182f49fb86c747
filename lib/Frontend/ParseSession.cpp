//===--- ParseSession.cpp - What the parse of all sources shares ----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ParseSession.h"

#include "llvm/Support/Path.h"

using namespace llvm;
using clang::SourceLocation;
using clang::SourceManager;

namespace skc {

/// Whether \p Name is a file under the directory \p Dir.
static bool isUnder(StringRef Name, StringRef Dir) {
  if (Dir.empty() || !Name.starts_with(Dir) || Name.size() == Dir.size())
    return false;
  return sys::path::is_separator(Dir.back()) ||
         sys::path::is_separator(Name[Dir.size()]);
}

bool ParseSession::isGeneratedHeader(SourceLocation Loc,
                                     const SourceManager &SM) const {
  return isUnder(SM.getFilename(SM.getExpansionLoc(Loc)),
                 Options.GeneratedIncludeDir);
}

bool ParseSession::isAuthorCode(SourceLocation Loc,
                                const SourceManager &SM) const {
  SourceLocation File = SM.getExpansionLoc(Loc);
  if (SM.isInSystemHeader(File))
    return false;
  StringRef Name = SM.getFilename(File);
  return !isUnder(Name, Options.RuntimeIncludeDir) &&
         !isUnder(Name, Options.GeneratedIncludeDir);
}

} // namespace skc
