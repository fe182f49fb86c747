//===--- TextDiagnosticPrinter.h - Clang-style text output ------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Prints diagnostics as clang does:
///
///   ops.yaml:3:13: error: unknown type 'Tensr'; did you mean 'Tensor'? [ID]
///   - func: foo(Tensr self) -> Tensor
///               ^~~~~
///               Tensor
///
/// and, from finish(), a closing count ("2 errors generated.").
///
//===----------------------------------------------------------------------===//

#ifndef SKC_BASIC_TEXTDIAGNOSTICPRINTER_H
#define SKC_BASIC_TEXTDIAGNOSTICPRINTER_H

#include "skc/Basic/Diagnostic.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace skc {

class TextDiagnosticPrinter : public DiagnosticConsumer {
public:
  TextDiagnosticPrinter(llvm::raw_ostream &OS, const llvm::SourceMgr &SM,
                        bool ShowColors)
      : OS(OS), SM(SM), ShowColors(ShowColors) {}

  void handleDiagnostic(const Diagnostic &D) override;
  void finish() override;

private:
  llvm::raw_ostream &OS;
  const llvm::SourceMgr &SM;
  bool ShowColors;
  unsigned NumErrors = 0;
  unsigned NumWarnings = 0;
};

} // namespace skc

#endif // SKC_BASIC_TEXTDIAGNOSTICPRINTER_H
