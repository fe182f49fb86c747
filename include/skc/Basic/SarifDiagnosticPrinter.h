//===--- SarifDiagnosticPrinter.h - Diagnostics as a SARIF log --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Writes the diagnostics of a run as one SARIF 2.1.0 log, for code-scanning
/// tools and editors. It collects diagnostics as they come and, from
/// finish(), writes the log (pretty-printed JSON, keys sorted):
///
///   $schema, version
///   runs[0].tool.driver      name "skc", version, rules: one per catalogue
///                            ID that a result names, in order of first use
///                            (id, name, shortDescription = the catalogue's
///                            format, defaultConfiguration.level)
///   runs[0].artifacts        each file a location refers to: a file:// URI
///                            of its absolute path, or the buffer's name
///                            (percent-encoded) when it is not a file
///   runs[0].columnKind       "unicodeCodePoints"
///   runs[0].results[]        ruleId, ruleIndex, level, message.text,
///                            locations[0] (region: the range that starts
///                            at the caret, else the character there;
///                            annotations: the other ranges),
///                            relatedLocations (the notes that follow, each
///                            with its message), fixes (the fix-its)
///
/// A note that follows no error or warning is a result of its own; a
/// diagnostic without a location has no `locations`.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_BASIC_SARIFDIAGNOSTICPRINTER_H
#define SKC_BASIC_SARIFDIAGNOSTICPRINTER_H

#include "skc/Basic/Diagnostic.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace skc {

class SarifDiagnosticPrinter : public DiagnosticConsumer {
public:
  /// Writes to \p OS; locations are resolved through \p SM. \p ToolVersion
  /// becomes the driver's `version`.
  SarifDiagnosticPrinter(llvm::raw_ostream &OS, const llvm::SourceMgr &SM,
                         llvm::StringRef ToolVersion)
      : OS(OS), SM(SM), ToolVersion(ToolVersion.str()) {}

  void handleDiagnostic(const Diagnostic &D) override;
  /// Writes the log. Called once.
  void finish() override;

private:
  llvm::raw_ostream &OS;
  const llvm::SourceMgr &SM;
  std::string ToolVersion;
  std::vector<Diagnostic> Diagnostics;
  bool Finished = false;
};

} // namespace skc

#endif // SKC_BASIC_SARIFDIAGNOSTICPRINTER_H
