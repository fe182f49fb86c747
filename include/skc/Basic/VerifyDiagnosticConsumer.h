//===--- VerifyDiagnosticConsumer.h - skc -verify ---------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// clang's -verify for skc: the inputs say which diagnostics they expect, in
/// comments, and this consumer checks that exactly those were reported.
///
///   - func: foo(Tensr self) -> Tensor  # expected-error {{unknown type}}
///
/// Every buffer of the SourceMgr is scanned (when finish() is called, so
/// buffers added after construction count too) for the directives, wherever
/// they appear in the raw text: after a YAML `#`, in a C++ `//` or `/* */`
/// comment, or after whitespace. The syntax is clang's:
///
///   expected-error {{TEXT}}         an error on the directive's line whose
///                                   message contains TEXT
///   expected-warning, expected-note the same for a warning, a note
///   expected-error@+N, @-N          ... N lines below or above
///   expected-error@N                ... on line N of the directive's file
///   expected-error@FILE:N, @FILE:*  ... on line N, or any line, of the
///                                   buffer whose name is FILE or ends in
///                                   '/' and FILE
///   expected-error@*                ... anywhere, or without a location
///   expected-error 2 {{TEXT}}       ... twice; also N+, + (1+) and N-M
///   expected-error {{{TEXT}}}       TEXT may contain }}; `\n` in TEXT is a
///                                   newline
///   expected-error-re {{a{{[0-9]+}}}} the parts of TEXT in {{ }} are
///                                   regular expressions
///   expected-no-diagnostics         nothing at all may be reported
///
/// Each expected diagnostic must be reported at its line, in its file, with
/// that severity (after -Werror) and a message that contains TEXT; each
/// reported diagnostic, notes included, must be expected. finish() writes the
/// differences the way clang does, to the given stream:
///
///   error: 'expected-error' diagnostics expected but not seen:
///     File ops.yaml Line 2: unknown type
///   error: 'expected-error' diagnostics seen but not expected:
///     File ops.yaml Line 3: unknown key 'kernel' in operator entry
///   2 errors generated.
///
/// and malformed directives as errors at their location. These reports are
/// the consumer's output, like the text printer's, not diagnostics of the
/// catalogue: they describe the test, not the input.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_BASIC_VERIFYDIAGNOSTICCONSUMER_H
#define SKC_BASIC_VERIFYDIAGNOSTICCONSUMER_H

#include "skc/Basic/Diagnostic.h"

#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace skc {

class VerifyDiagnosticConsumer : public DiagnosticConsumer {
public:
  /// Reads the directives from the buffers of \p SM and reports mismatches
  /// to \p OS.
  VerifyDiagnosticConsumer(llvm::raw_ostream &OS, const llvm::SourceMgr &SM)
      : OS(OS), SM(SM) {}

  /// Keeps \p D to compare it with the directives in finish().
  void handleDiagnostic(const Diagnostic &D) override;

  /// Scans the buffers for directives, compares, and reports. Called once.
  void finish() override;

  /// Whether finish() found a mismatch, a malformed directive, or no
  /// directive at all.
  bool hadFailures() const { return NumFailures != 0; }
  unsigned getNumFailures() const { return NumFailures; }

private:
  llvm::raw_ostream &OS;
  const llvm::SourceMgr &SM;
  std::vector<Diagnostic> Seen;
  unsigned NumFailures = 0;
  bool Finished = false;
};

} // namespace skc

#endif // SKC_BASIC_VERIFYDIAGNOSTICCONSUMER_H
