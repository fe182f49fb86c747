//===--- DiagnosticForwarding.h - Clang's diagnostics to skc's --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Clang's diagnostics in a kernel source become skc's (err_clang,
/// warn_clang, note_clang), less those Sema explains better: Note
/// [Diagnostics left to Sema] in DiagnosticForwarding.cpp.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_FRONTEND_DIAGNOSTICFORWARDING_H
#define SKC_LIB_FRONTEND_DIAGNOSTICFORWARDING_H

#include "skc/Basic/Diagnostic.h"

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace skc {

struct ParseSession;

/// A Clang diagnostic in skc's terms, with what decides its fate at the
/// end of the translation unit.
struct HeldDiagnostic {
  diag::Kind Kind = diag::err_clang;
  llvm::SMLoc Loc;
  std::string Message;
  llvm::SmallVector<llvm::SMRange, 2> Ranges;
  llvm::SmallVector<FixItHint, 1> FixIts;
  /// Clang's ID, and the file location (macro locations mapped as in the
  /// caret line) while the translation unit lives.
  unsigned ClangID = 0;
  clang::SourceLocation FileLoc;
  bool InGeneratedHeader = false;
  /// In a header (not the source being parsed), which other sources may
  /// include too.
  bool InHeader = false;
};

/// Forwards Clang's diagnostics to skc's DiagnosticsEngine, less the ones
/// in Note [Diagnostics left to Sema].
class ForwardingDiagConsumer : public clang::DiagnosticConsumer {
public:
  explicit ForwardingDiagConsumer(ParseSession &Session) : Session(Session) {}

  void BeginSourceFile(const clang::LangOptions &LO,
                       const clang::Preprocessor *) override;
  /// Reports what was held and turned out not to be Sema's.
  void EndSourceFile() override;

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

private:
  /// An error or warning and its notes, held until the translation unit's
  /// kernels are known (Note [Diagnostics left to Sema]).
  struct HeldGroup {
    /// (a): the file location of the definition whose mismatch Sema
    /// explains when it is a kernel's; invalid for the others.
    clang::SourceLocation Definition;
    llvm::SmallVector<HeldDiagnostic, 2> Diagnostics;
  };

  /// Whether \p Info is left to Sema at once ((b), (c)); records what Sema
  /// needs.
  bool leaveToSema(const clang::Diagnostic &Info);
  /// Whether Sema explains \p G, now that the kernels are known.
  bool isExplained(const HeldGroup &G) const;
  HeldDiagnostic convert(clang::DiagnosticsEngine::Level Level,
                         const clang::Diagnostic &Info);
  void emit(const HeldDiagnostic &H);
  /// Reports \p G, moved out of the generated headers.
  void emit(HeldGroup &G);

  ParseSession &Session;
  const clang::LangOptions *LangOpts = nullptr;
  /// Whether the notes of the last error or warning are dropped with it.
  bool DroppingNotes = false;
  std::vector<HeldGroup> Held;
};

} // namespace skc

#endif // SKC_LIB_FRONTEND_DIAGNOSTICFORWARDING_H
