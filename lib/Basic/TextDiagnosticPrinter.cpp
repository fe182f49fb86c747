//===--- TextDiagnosticPrinter.cpp - Clang-style text output --------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Basic/TextDiagnosticPrinter.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace skc {

static SourceMgr::DiagKind toSourceMgrKind(DiagSeverity S) {
  switch (S) {
  case DiagSeverity::Note:
    return SourceMgr::DK_Note;
  case DiagSeverity::Warning:
    return SourceMgr::DK_Warning;
  case DiagSeverity::Error:
    return SourceMgr::DK_Error;
  }
  llvm_unreachable("covered switch");
}

void TextDiagnosticPrinter::handleDiagnostic(const Diagnostic &D) {
  if (D.Severity == DiagSeverity::Error)
    ++NumErrors;
  else if (D.Severity == DiagSeverity::Warning)
    ++NumWarnings;

  std::string Message = D.Message;
  Message += " [";
  Message += D.getID();
  Message += ']';

  SmallVector<SMFixIt, 1> FixIts;
  for (const FixItHint &F : D.FixIts)
    FixIts.emplace_back(F.Range, F.Code);
  // SourceMgr prints no caret line for a location it does not own; the
  // message then starts with the program name, which is what we want for
  // diagnostics without a location.
  SM.PrintMessage(OS, D.Loc, toSourceMgrKind(D.Severity), Message, D.Ranges,
                  FixIts, ShowColors);
}

void TextDiagnosticPrinter::finish() {
  if (NumErrors == 0 && NumWarnings == 0)
    return;
  if (NumWarnings)
    OS << NumWarnings << (NumWarnings == 1 ? " warning" : " warnings");
  if (NumWarnings && NumErrors)
    OS << " and ";
  if (NumErrors)
    OS << NumErrors << (NumErrors == 1 ? " error" : " errors");
  OS << " generated.\n";
  OS.flush();
}

} // namespace skc
