//===--- ClangLocations.h - Clang locations as SMLocs -----------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Clang SourceLocations die with their translation unit, and skc's
/// diagnostics and KernelDecls outlive it; LocationMapper turns the one
/// into the other while the unit is alive.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_FRONTEND_CLANGLOCATIONS_H
#define SKC_LIB_FRONTEND_CLANGLOCATIONS_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SMLoc.h"

namespace clang {
class LangOptions;
class SourceManager;
} // namespace clang

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace skc {

/// Converts Clang locations into SMLocs of the DiagnosticsEngine's
/// llvm::SourceMgr. Each file Clang reports on is copied into that
/// SourceMgr once, byte for byte, so a file offset is the same in both:
/// the SMLoc of offset N in file F is the start of F's buffer plus N.
/// Macro locations become file locations first (SourceManager::getFileLoc:
/// the spelling of a macro argument, else the expansion site), as Clang's
/// own text diagnostics do.
class LocationMapper {
public:
  /// Reuses the buffers \p SM holds already (a generated header whose
  /// emitter reported on it).
  explicit LocationMapper(llvm::SourceMgr &SM);

  /// Forgets the FileIDs of the previous translation unit.
  void beginTranslationUnit();

  llvm::SMLoc toSMLoc(clang::SourceLocation Loc,
                      const clang::SourceManager &CSM);

  /// The file range of \p R, or an empty range at its start when Clang
  /// cannot express it in one file.
  llvm::SMRange toSMRange(clang::CharSourceRange R,
                          const clang::SourceManager &CSM,
                          const clang::LangOptions &LO);
  /// The file range of the tokens \p R spans.
  llvm::SMRange toSMRange(clang::SourceRange R, const clang::SourceManager &CSM,
                          const clang::LangOptions &LO);

private:
  const char *getBufferStart(clang::FileID FID,
                             const clang::SourceManager &CSM);

  llvm::SourceMgr &SM;
  /// Buffer IDs in SM by file name, across translation units.
  llvm::StringMap<unsigned> BufferByName;
  /// The SM buffer of each file of the current translation unit.
  llvm::DenseMap<clang::FileID, const char *> StartByFile;
  const clang::SourceManager *CurrentSM = nullptr;
};

} // namespace skc

#endif // SKC_LIB_FRONTEND_CLANGLOCATIONS_H
