//===--- ParseSession.h - What the parse of all sources shares --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_FRONTEND_PARSESESSION_H
#define SKC_LIB_FRONTEND_PARSESESSION_H

#include "ClangLocations.h"

#include "skc/Basic/Diagnostic.h"
#include "skc/Frontend/KernelSourceParser.h"
#include "skc/Parse/KernelDecl.h"

#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace skc {

/// A meta or impl for a struct Clang does not know (Note [Diagnostics left
/// to Sema] (b)), until the translation unit's declarations are extracted.
struct UnknownKernel {
  KernelDeclKind Kind;
  std::string Name;
  /// The file location of the macro's name: the key that matches the
  /// definition when Clang kept one.
  clang::SourceLocation MacroLoc;
  llvm::SMLoc Loc;
  llvm::SMRange ParamListRange;
};

/// Why Sema explains a Clang error better than Clang (Note [Diagnostics
/// left to Sema]); each is keyed by a file location.
enum class Explanation : uint8_t {
  /// SK_META_FUNC on an op with precomputed fields, or
  /// SK_PRECOMPUTE_META_FUNC on one without: every error at the macro.
  KernelMacro,
  /// A return of a precompute struct with fields unset: the conversion
  /// error at the returned value.
  PrecomputeUnset,
  /// A precomputed field set twice: the generated setter's static_assert,
  /// whose instantiation note is at the second call.
  PrecomputeTwice,
  /// An assignment to an out argument that Clang rejected (a const
  /// Tensor &): "no viable overloaded '='" at the operator.
  AssignToOut,
};

/// What the parse of all sources shares: the output, the location mapper,
/// and what the diagnostic consumer tells the declaration extractor about
/// the current translation unit.
struct ParseSession {
  ParseSession(DiagnosticsEngine &Diags, std::vector<KernelDecl> &Decls,
               const KernelSourceOptions &Options)
      : Diags(Diags), Locs(Diags.getSourceMgr()), Decls(Decls),
        Options(Options) {}

  DiagnosticsEngine &Diags;
  LocationMapper Locs;
  std::vector<KernelDecl> &Decls;
  const KernelSourceOptions &Options;
  /// (b) in the current translation unit.
  llvm::SmallVector<UnknownKernel, 2> UnknownKernels;
  /// The file locations of definitions with an (a) diagnostic.
  llvm::DenseSet<clang::SourceLocation> MismatchedDefs;
  /// Those of them that became kernel definitions, which Sema explains.
  llvm::DenseSet<clang::SourceLocation> ExplainedDefs;
  /// The other Clang errors Sema explains, by file location.
  std::set<std::pair<Explanation, clang::SourceLocation>> Explained;
  /// The Clang diagnostics reported in headers, by place and message,
  /// across translation units.
  std::set<std::pair<const char *, std::string>> ReportedInHeaders;

  void beginTranslationUnit() {
    Locs.beginTranslationUnit();
    UnknownKernels.clear();
    MismatchedDefs.clear();
    ExplainedDefs.clear();
    Explained.clear();
  }
  /// Records that Sema explains the Clang errors \p E describes at \p Loc
  /// (its file location).
  void explain(Explanation E, clang::SourceLocation Loc,
               const clang::SourceManager &SM) {
    if (Loc.isValid())
      Explained.insert({E, SM.getFileLoc(Loc)});
  }
  /// Whether \p Loc is in a header skc generated.
  bool isGeneratedHeader(clang::SourceLocation Loc,
                         const clang::SourceManager &SM) const;
  /// Whether \p Loc is in the kernel sources or their own headers: not a
  /// system header, the runtime's or a generated one.
  bool isAuthorCode(clang::SourceLocation Loc,
                    const clang::SourceManager &SM) const;
};

} // namespace skc

#endif // SKC_LIB_FRONTEND_PARSESESSION_H
