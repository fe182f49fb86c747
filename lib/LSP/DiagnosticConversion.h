//===--- DiagnosticConversion.h - Diagnostics in LSP terms ------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_LSP_DIAGNOSTICCONVERSION_H
#define SKC_LIB_LSP_DIAGNOSTICCONVERSION_H

#include "skc/Basic/Diagnostic.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"

#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace skc {

/// The diagnostics of \p Diagnostics (in the order reported, each error or
/// warning followed by its notes) as LSP publishes them, by the file they
/// are in: each with its range, severity, skc's ID as its `code`, a
/// `codeDescription` linking to the ID's entry in docs/diagnostics.md at
/// \p DocsURL (none when empty), its notes as relatedInformation, and its
/// fix-its and its notes' as `data.fixes`: [{title, edits: [{file, range,
/// newText}]}], which the client hands back when it asks for code actions.
/// \p GetURI names a note's file as the client knows it (file URIs when
/// null).
llvm::StringMap<std::vector<llvm::json::Value>> toLSPDiagnostics(
    const llvm::SourceMgr &SM, llvm::ArrayRef<Diagnostic> Diagnostics,
    llvm::StringRef DocsURL,
    llvm::function_ref<std::string(llvm::StringRef)> GetURI = nullptr);

} // namespace skc

#endif // SKC_LIB_LSP_DIAGNOSTICCONVERSION_H
